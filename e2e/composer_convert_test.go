package e2e

import (
	"path"
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// Instagram takes JPEG only: a PNG picked for it offers "Convert to JPEG", which puts a JPEG copy
// in the library and in the post in its place (the PNG stays in the library); the post saves.
func TestComposerConvertsPNGForInstagram(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	signUpInBrowser(t, b, "Ansel", testEmail("ansel"), "Adams Prints")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Adams Prints"})
	require.Contains(t, []int{200, 201}, status, team)
	id := team["id"].(string)
	connectInBrowser(t, b, id, "INSTAGRAM")
	_, acct := postsAPI(t, b, "GET", "/api/v1/social-account/by-type?type=INSTAGRAM&teamId="+id, nil)
	ch := acct["channels"].([]any)[0].(map[string]any)["id"].(string)
	status, out := postsAPI(t, b, "POST", "/api/v1/social-account/set-channel", map[string]any{"type": "INSTAGRAM", "teamId": id, "channelId": ch})
	require.Equal(t, 200, status, out)
	_, err := p.Goto("/composer")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("composer-upload-open").Click())
	require.NoError(t, p.Locator("#composer-upload #media-file").SetInputFiles(writePNG(t, dir, "half-dome.png", 600, 600, false)))
	require.NoError(t, expect.Locator(p.Locator("#composer-upload [data-testid=upload-state]")).ToContainText("Uploaded"))
	require.NoError(t, p.GetByTestId("composer-upload-done").Click())
	picked := p.Locator("#composer-media input[name=uploadIds]:checked")
	require.NoError(t, expect.Locator(picked).ToHaveCount(1))
	png, err := picked.InputValue()
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("composer-text").Fill("Moonrise over the valley"))
	require.NoError(t, p.GetByTestId("account-INSTAGRAM").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("check-INSTAGRAM")).ToContainText("Instagram needs a JPEG image — this one is a PNG"))
	require.NoError(t, expect.Locator(p.GetByTestId("convert-INSTAGRAM")).ToHaveText("Convert to JPEG"))
	shot(t, b, "composer-convert-offered")

	require.NoError(t, p.GetByTestId("convert-INSTAGRAM").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("check-INSTAGRAM")).ToHaveCount(0))
	require.NoError(t, expect.Locator(picked).ToHaveCount(1))
	jpeg, err := picked.InputValue()
	require.NoError(t, err)
	require.NotEqual(t, png, jpeg)
	require.NoError(t, expect.Locator(p.Locator("#composer-media input[name=uploadIds]")).ToHaveCount(2), "the PNG stays in the library")
	require.NoError(t, expect.Locator(p.GetByTestId("composer-text")).ToHaveValue("Moonrise over the valley"), "the form is kept")
	status, up := postsAPI(t, b, "GET", "/api/v1/upload/"+jpeg, nil)
	require.Equal(t, 200, status, up)
	require.Equal(t, "image/jpeg", up["mime"])
	shot(t, b, "composer-convert-done")

	// The post saves with the JPEG.
	require.NoError(t, p.GetByTestId("composer-date").Fill(time.Now().UTC().AddDate(0, 0, 3).Format("2006-01-02")))
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	status, post := postsAPI(t, b, "GET", "/api/v1/post/"+path.Base(p.URL()), nil)
	require.Equal(t, 200, status, post)
	require.Equal(t, []any{jpeg}, post["data"].(map[string]any)["INSTAGRAM"].(map[string]any)["uploadIds"])
}
