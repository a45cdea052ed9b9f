package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// Instagram's slides follow the media uploaded from the composer's dialog (ticked for the marketer):
// three uploads, three slides with their own alt text and tags, without touching a checkbox.
// Screenshot: e2e/screenshots/composer-ig-slides.png.
func TestComposerInstagramSlidesFollowUploads(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	signUpInBrowser(t, b, "Ada", testEmail("ada"), "Slides Co")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Slides Co"})
	require.Contains(t, []int{200, 201}, status, team)
	id := team["id"].(string)
	connectInBrowser(t, b, id, "INSTAGRAM")
	_, acct := postsAPI(t, b, "GET", "/api/v1/social-account/by-type?type=INSTAGRAM&teamId="+id, nil)
	ch := acct["channels"].([]any)[0].(map[string]any)["id"].(string)
	status, out := postsAPI(t, b, "POST", "/api/v1/social-account/set-channel", map[string]any{"type": "INSTAGRAM", "teamId": id, "channelId": ch})
	require.Equal(t, 200, status, out)
	_, err := p.Goto("/composer")
	require.NoError(t, err)
	for i, name := range []string{"a.png", "b.png", "c.png"} {
		require.NoError(t, p.GetByTestId("composer-upload-open").Click())
		require.NoError(t, p.Locator("#composer-upload #media-file").SetInputFiles(writePNG(t, dir, name, 40, 40, false)))
		require.NoError(t, expect.Locator(p.Locator("#composer-upload [data-testid=upload-state]").Nth(i)).ToContainText("Uploaded"))
		require.NoError(t, p.GetByTestId("composer-upload-done").Click())
	}
	require.NoError(t, expect.Locator(p.Locator("#composer-media input[name=uploadIds]:checked")).ToHaveCount(3))
	require.NoError(t, p.GetByTestId("account-INSTAGRAM").Click())
	require.NoError(t, p.GetByTestId("composer-text").Fill("Three slides"))
	require.NoError(t, p.GetByTestId("panel-INSTAGRAM").Locator("summary.net-group__title", playwright.LocatorLocatorOptions{HasText: regexp.MustCompile(`^Media$`)}).First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("ig-slides").Locator("li")).ToHaveCount(3))
	require.NoError(t, p.GetByTestId("ig-slides").ScrollIntoViewIfNeeded())
	shot(t, b, "composer-ig-slides")
}
