package publishing_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	_ "github.com/crier/crier/network" // registers every network's spec
	"github.com/crier/crier/network/googlebusiness"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/mastodon"
	"github.com/crier/crier/network/snapchat"
	"github.com/crier/crier/network/tiktok"
	"github.com/crier/crier/network/youtube"
)

func TestPostDefaultsAndDates(t *testing.T) {
	t.Parallel()
	d := app.PostData{}
	d.Set(app.Instagram, &instagram.Payload{})
	d.Set(app.TikTok, &tiktok.Payload{})
	d.Set(app.YouTube, &youtube.Payload{})
	d.Set(app.GoogleBusiness, &googlebusiness.Payload{TopicType: "ALERT"})
	d.EnsurePayload(app.Snapchat)
	publishing.ApplyPostDefaults(&d)
	require.Equal(t, "POST", instagram.Of(&d).Type)
	require.True(t, *instagram.Of(&d).ShareToFeed)
	require.Equal(t, "VIDEO", tiktok.Of(&d).Type)
	require.Equal(t, "SHORT", youtube.Of(&d).Type)
	require.Equal(t, "COVID_19", googlebusiness.Of(&d).AlertType)
	require.Equal(t, "STORY", snapchat.Of(&d).Type)
	require.NotNil(t, instagram.Of(&d), "ensurePayload keeps the other payloads")

	for _, raw := range []string{"2026-11-23T12:00:00Z", "2026-11-23T13:00:00.000+01:00", "2026-11-23T12:00:00.123456Z"} {
		got, err := publishing.ParsePostDate(raw, "postDate")
		require.NoError(t, err, raw)
		require.Equal(t, 2026, got.Year())
		require.Equal(t, time.UTC, got.Location())
	}
	_, err := publishing.ParsePostDate("tomorrow", "postDate")
	require.Equal(t, app.IssueInvalidDate, app.ErrorIssues(err)[0].Code)

	p, err := publishing.PayloadOf(app.Mastodon, []byte(`{"text":"hi","privacy":"UNLISTED"}`))
	require.NoError(t, err)
	require.Equal(t, "hi", p.(*mastodon.Payload).Text)
}
