package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

// The wording map words the networks' own media issues (as their rules.go raise them) in plain
// language: the network, what it needs, what this upload is; never the payload's field names.
func TestRuleWords(t *testing.T) {
	w, h := 3000, 1000
	png := &app.Upload{ID: "u1", Type: media.KindImage, Mime: media.MIMEPNG, FileSize: 12 * app.MiB, Width: &w, Height: &h}
	mp4 := &app.Upload{ID: "u2", Type: media.KindVideo, Mime: media.MIMEMP4, FileSize: app.MiB}
	cases := []struct {
		n    app.Network
		p    app.Payload
		want []string
	}{
		{app.Instagram, mustPayload(t, app.Instagram, `{"uploadIds":["u1"]}`), []string{
			"Instagram needs a JPEG image — this one is a PNG",
			"Instagram takes images up to 8 MB — this one is 12 MB",
			"Instagram needs images shaped from 4:5 to 1.91:1 — this one is 3000×1000"}},
		{app.TikTok, mustPayload(t, app.TikTok, `{"uploadIds":["u1"]}`), []string{"TikTok takes a video here — this one is an image"}},
		{app.TikTok, mustPayload(t, app.TikTok, `{"type":"IMAGE","uploadIds":["u2"]}`), []string{"TikTok takes an image or a GIF here — this one is a video"}},
	}
	for _, tc := range cases {
		d := app.PostData{}
		d.Set(tc.n, tc.p)
		issues := app.CheckPostRules(app.PostRuleInput{Data: &d, SocialAccountTypes: []app.Network{tc.n}, Status: "DRAFT",
			Accounts: map[app.Network]*app.SocialAccount{tc.n: {Type: tc.n}}, Uploads: map[string]*app.Upload{"u1": png, "u2": mp4}})
		var got []string
		for _, is := range issues {
			require.NotEmpty(t, is.Rule, is.Message)
			got = append(got, ruleWords(tc.n, is))
		}
		require.Equal(t, tc.want, got)
	}
	require.Equal(t, "an", mediaArticle("MP4"))
	require.Equal(t, "a", mediaArticle("JPEG"))
	require.Equal(t, "an", mediaArticle("image"))
	require.Equal(t, "a", mediaArticle("video"))
}

func mustPayload(t *testing.T, n app.Network, raw string) app.Payload {
	t.Helper()
	var d app.PostData
	require.NoError(t, d.UnmarshalJSON([]byte(`{"`+string(n)+`":`+raw+`}`)))
	return d.Of(n)
}
