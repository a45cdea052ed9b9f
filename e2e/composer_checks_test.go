package e2e

import (
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// The composer checks as the user goes, in Chromium: a refused schedule's messages clear as they are
// fixed (a network ticked, a day chosen), and each network's media rules show beside the networks as
// they are picked, in plain words, with TikTok's fix (a photo post) one click away; each preview has
// its network's own action row.
// Screenshots: e2e/screenshots/composer-checks-*.png.
func TestComposerLiveChecksJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	signUpInBrowser(t, b, "Hedy", testEmail("hedy"), "Lamarr Studio")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Lamarr Studio"})
	require.Contains(t, []int{200, 201}, status, team)
	id := team["id"].(string)
	for _, n := range []string{"TWITTER", "INSTAGRAM", "TIKTOK"} {
		connectInBrowser(t, b, id, n)
	}
	_, err := p.Goto("/composer")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("composer-upload-open").Click())
	require.NoError(t, p.Locator("#composer-upload #media-file").SetInputFiles(writePNG(t, dir, "poster.png", 40, 40, false)))
	require.NoError(t, expect.Locator(p.Locator("#composer-upload [data-testid=upload-state]")).ToContainText("Uploaded"))
	require.NoError(t, p.GetByTestId("composer-upload-done").Click())
	require.NoError(t, expect.Locator(p.Locator("#composer-media input[name=uploadIds]:checked")).ToHaveCount(1))
	require.NoError(t, p.GetByTestId("composer-text").Fill("Frequency hopping, explained"))

	// Scheduled with neither a network nor a day: both said; each goes once fixed, then the banner.
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToHaveText("Choose at least one network"))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	shot(t, b, "composer-checks-refused")
	require.NoError(t, p.GetByTestId("account-TWITTER").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	require.NoError(t, p.GetByTestId("composer-date").Fill(time.Now().UTC().AddDate(0, 0, 3).Format("2006-01-02")))
	require.NoError(t, p.GetByTestId("composer-date").DispatchEvent("change", nil))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("composer-message")).ToHaveCount(0))

	// Instagram and TikTok picked with the PNG: each says what it needs, beside the networks.
	require.NoError(t, p.GetByTestId("account-INSTAGRAM").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("check-INSTAGRAM")).ToContainText("Instagram needs a JPEG image — this one is a PNG"))
	require.NoError(t, p.GetByTestId("account-TIKTOK").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("check-TIKTOK")).ToContainText("TikTok takes a video here — this one is an image"))
	require.NoError(t, p.GetByTestId("composer-accounts").ScrollIntoViewIfNeeded())
	shot(t, b, "composer-checks-media")

	// TikTok's fix: a photo post (its Format field turns to Photos); photo posts take JPEG.
	require.NoError(t, p.GetByTestId("fix-TIKTOK").Click())
	require.NoError(t, expect.Locator(p.Locator("select[name='TIKTOK.type']")).ToHaveValue("IMAGE"))
	require.NoError(t, expect.Locator(p.GetByTestId("check-TIKTOK")).ToContainText("TikTok needs a JPEG image — this one is a PNG"))
	require.NoError(t, expect.Locator(p.GetByTestId("check-TIKTOK")).Not().ToContainText("takes a video"))
	require.NoError(t, expect.Locator(p.GetByTestId("check-TWITTER")).ToHaveCount(0))
	shot(t, b, "composer-checks-fixed")

	// Each preview has its network's own action row.
	require.NoError(t, expect.Locator(p.GetByTestId("preview-actions-TWITTER").Locator("[data-action]")).ToHaveCount(5))
	require.NoError(t, expect.Locator(p.GetByTestId("preview-actions-INSTAGRAM").Locator("[data-action=Save]")).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.GetByTestId("preview-actions-TIKTOK").Locator("[data-action=Comment]")).ToHaveCount(1))
	require.NoError(t, p.GetByTestId("preview-TWITTER").ScrollIntoViewIfNeeded())
	shot(t, b, "composer-checks-previews")
}
