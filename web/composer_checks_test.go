package web_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// A refused save's messages clear as the user fixes them: the preview (which runs as the form
// changes) answers the networks' error again, and lists the fields still in error for the others.
func TestComposerErrorsClearWhenFixed(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	vals := url.Values{"teamId": {team.ID}, "text": {"Hello"}, "action": {"schedule"}}
	rec := b.post(t, "/composer", vals, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Choose at least one network", doc.Find(`#composer-live [data-testid="error-networks"] span`).Text())
	require.Equal(t, "schedule", doc.Find(`input[type="hidden"][name="checked"]`).AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="composer-message"][data-attention]`).Length())

	// Still no network: the preview keeps the message (the save it repeats is a schedule).
	vals.Del("action")
	vals.Set("checked", "schedule")
	rec = b.post(t, "/composer/preview", vals, "HX-Request", "true")
	live := parse(t, rec).Find(`#composer-live[hx-swap-oob]`)
	require.Equal(t, "Choose at least one network", live.Find(`[data-testid="error-networks"] span`).Text())
	require.Equal(t, "date networks", live.AttrOr("data-errors", ""))

	// X ticked and a day chosen: both messages go.
	vals.Set("networks", "TWITTER")
	vals.Set("date", time.Now().AddDate(0, 1, 0).Format("2006-01-02"))
	rec = b.post(t, "/composer/preview", vals, "HX-Request", "true")
	live = parse(t, rec).Find(`#composer-live[hx-swap-oob]`)
	require.Zero(t, live.Find(`[data-testid="error-networks"]`).Length())
	require.Equal(t, "", live.AttrOr("data-errors", "-"))

	// Before any save nothing missing is said (only what is wrong).
	rec = b.post(t, "/composer/preview", url.Values{"teamId": {team.ID}}, "HX-Request", "true")
	live = parse(t, rec).Find(`#composer-live[hx-swap-oob]`)
	require.Zero(t, live.Find(`[data-testid="error-networks"]`).Length())
}

// The networks' media rules show beside the networks as the user picks networks and media, in
// plain words, with the fix a network offers; the rules are the networks' own (rules.go).
func TestComposerMediaRulesLive(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.createTeam(t, "Visual team")
	b.connect(t, team.ID, app.Instagram, "ada.gram")
	b.connect(t, team.ID, app.TikTok, "ada.tok")
	b.connect(t, team.ID, app.Twitter, "ada")
	png := b.upload(t, pngBytes(t, 8, 8, false), "image/png").ID
	jpg := b.upload(t, jpegBytes(t), "image/jpeg").ID
	checks := func(vals url.Values, n string) []string {
		rec := b.post(t, "/composer/preview", vals, "HX-Request", "true")
		require.Equal(t, http.StatusOK, rec.Code)
		return parse(t, rec).Find(`#composer-live [data-testid="check-` + n + `"] [data-testid="check-text"]`).
			Map(func(_ int, s *goquery.Selection) string { return s.Text() })
	}

	vals := url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM", "TWITTER"}, "uploadIds": {png}}
	require.Equal(t, []string{"Instagram needs a JPEG image — this one is a PNG"}, checks(vals, "INSTAGRAM"))
	require.Empty(t, checks(vals, "TWITTER")) // X takes PNG

	// TikTok with a photo as a video post: said so, and the photo post offered.
	vals = url.Values{"teamId": {team.ID}, "networks": {"TIKTOK"}, "uploadIds": {jpg}, "TIKTOK.type": {"VIDEO"}}
	require.Equal(t, []string{"TikTok takes a video here — this one is an image"}, checks(vals, "TIKTOK"))
	rec := b.post(t, "/composer/preview", vals, "HX-Request", "true")
	fix := parse(t, rec).Find(`#composer-live [data-testid="fix-TIKTOK"]`)
	require.Equal(t, "TIKTOK.type", fix.AttrOr("data-fix-name", ""))
	require.Equal(t, "IMAGE", fix.AttrOr("data-fix-value", ""))
	vals.Set("TIKTOK.type", "IMAGE") // what the fix does
	require.Empty(t, checks(vals, "TIKTOK"))

	// On a refused save the same words show beside the network.
	day := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	rec = b.post(t, "/composer", url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "uploadIds": {png}, "text": {"Hi"},
		"action": {"draft"}, "date": {day}, "time": {"10:00"}}, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Instagram needs a JPEG image — this one is a PNG", doc.Find(`[data-testid="check-INSTAGRAM"] [data-testid="check-text"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="composer-message"]`).Text(), "need your attention")
}

// Each network's preview has its own action row, in its words and order (its spec's), not one
// shared Like/Reply/Repost row; every network has one.
func TestComposerPreviewActionsPerNetwork(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t) // X, LinkedIn, Bluesky
	b.connect(t, team.ID, app.Instagram, "ada.gram")
	b.connect(t, team.ID, app.YouTube, "ada.tube")
	rec := b.post(t, "/composer/preview", url.Values{"teamId": {team.ID}, "text": {"Hello"},
		"networks": {"TWITTER", "LINKEDIN", "INSTAGRAM", "YOUTUBE", "BLUESKY"}}, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	row := func(n string) []string {
		return doc.Find(`[data-testid="preview-actions-` + n + `"] [data-action]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-action", "") })
	}
	require.Equal(t, []string{"Reply", "Repost", "Like", "Views", "Bookmark"}, row("TWITTER"))
	require.Equal(t, []string{"Like", "Comment", "Repost", "Send"}, row("LINKEDIN"))
	require.Equal(t, []string{"Like", "Comment", "Share", "Save"}, row("INSTAGRAM"))
	require.Equal(t, []string{"Like", "Share", "Save", "Subscribe"}, row("YOUTUBE"))
	require.Equal(t, []string{"Reply", "Repost", "Like"}, row("BLUESKY"))
	// Icons only where the network shows icons (the words stay for screen readers); every action drawn.
	require.True(t, doc.Find(`[data-testid="preview-actions-INSTAGRAM"]`).HasClass("preview__actions--icons"))
	require.False(t, doc.Find(`[data-testid="preview-actions-LINKEDIN"]`).HasClass("preview__actions--icons"))
	require.Equal(t, doc.Find(`.preview__action`).Length(), doc.Find(`.preview__action svg path, .preview__action svg circle`).Parent().Length())
	for _, n := range app.Networks {
		require.NotEmpty(t, app.SpecOf(n).Compose.Actions, n)
	}
}

// "Convert to JPEG": offered for every PNG Instagram was given (one button), it puts a JPEG copy
// of each in the form in its place and answers the composer again (a new revision); an id that is
// not an upload of the organization is said, and nothing changes.
func TestComposerConvertsPNGToJPEG(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.createTeam(t, "Prints")
	b.connect(t, team.ID, app.Instagram, "ada.gram")
	one := b.upload(t, pngBytes(t, 8, 8, true), "image/png").ID
	two := b.upload(t, pngBytes(t, 8, 8, false), "image/png").ID
	vals := url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "uploadIds": {one, two}, "text": {"Prints"}, "rev": {"3"}}
	rec := b.post(t, "/composer/preview", vals, "HX-Request", "true")
	btn := parse(t, rec).Find(`#composer-live [data-testid="convert-INSTAGRAM"]`)
	require.Equal(t, one+" "+two, btn.AttrOr("value", ""))
	require.Equal(t, "/composer/convert", btn.AttrOr("hx-post", ""))
	require.Equal(t, "3", parse(t, rec).Find(`#composer-live`).AttrOr("data-rev", ""))

	vals.Set("convert", one+" "+two)
	rec = b.post(t, "/composer/convert", vals, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	doc := parse(t, rec)
	require.Zero(t, doc.Find(`[data-testid="check-INSTAGRAM"]`).Length())
	require.Equal(t, "4", doc.Find(`#composer-form input[name="rev"]`).AttrOr("value", ""))
	picked := doc.Find(`#composer-media input[name="uploadIds"][checked]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("value", "") })
	require.Len(t, picked, 2)
	for _, id := range picked {
		require.NotContains(t, []string{one, two}, id)
		u, err := b.svc.GetUpload(b.ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, "image/jpeg", u.Mime)
	}

	vals.Set("convert", "00000000-0000-0000-0000-000000000000")
	rec = b.post(t, "/composer/convert", vals, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.NotEmpty(t, doc.Find(`[data-testid="composer-message"]`).Text())
	require.Equal(t, 2, doc.Find(`#composer-media input[name="uploadIds"][checked]`).Length())
}

// Each new composer starts at a revision of its own: a team switch swaps in a new form, and a
// preview the previous form sent, answering late, must not be taken for the new one's.
func TestComposerFormsStartAtTheirOwnRevision(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	rev := func() string {
		rec := b.get(t, "/composer?teamId="+team.ID, "HX-Request", "true")
		require.Equal(t, http.StatusOK, rec.Code)
		v := parse(t, rec).Find(`#composer-form input[name="rev"]`).AttrOr("value", "")
		require.NotEmpty(t, v)
		return v
	}
	first := rev()
	time.Sleep(2 * time.Millisecond)
	require.NotEqual(t, first, rev())
}
