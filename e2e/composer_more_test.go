package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// An X thread with media on its posts, in Chromium: upload two images from the composer, give the
// second post of the thread its own image in that post's picker, add a third post, see the
// thread's media in the preview; a refused save keeps every post and its media; then schedule it.
// Screenshots: e2e/screenshots/composer-thread-*.png.
func TestComposerThreadMediaJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()

	signUpInBrowser(t, b, "Katherine", testEmail("katherine"), "Johnson Labs")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Johnson Labs"})
	require.Contains(t, []int{200, 201}, status, team)
	connectInBrowser(t, b, team["id"].(string), "TWITTER")

	_, err := p.Goto("/composer")
	require.NoError(t, err)
	for i, name := range []string{"orbit.png", "launch.png"} {
		require.NoError(t, p.GetByTestId("composer-upload-open").Click())
		require.NoError(t, p.Locator("#composer-upload #media-file").SetInputFiles(writePNG(t, dir, name, 24, 16, false)))
		require.NoError(t, expect.Locator(p.Locator("#composer-upload [data-testid=upload-state]").Nth(i)).ToContainText("Uploaded"))
		require.NoError(t, p.GetByTestId("composer-upload-done").Click())
		require.NoError(t, expect.Locator(p.Locator("#composer-media input[name=uploadIds]")).ToHaveCount(i+1))
	}
	// The shared media: only the first image.
	shared := p.Locator("#composer-media input[name=uploadIds]")
	if checked, _ := shared.Nth(1).IsChecked(); checked {
		require.NoError(t, shared.Nth(1).Uncheck(playwright.LocatorUncheckOptions{Force: playwright.Bool(true)}))
	}
	if checked, _ := shared.Nth(0).IsChecked(); !checked {
		require.NoError(t, shared.Nth(0).Check(playwright.LocatorCheckOptions{Force: playwright.Bool(true)}))
	}
	require.NoError(t, p.GetByTestId("account-TWITTER").Click())
	require.NoError(t, p.GetByTestId("composer-text").Fill("1/ How we plot an orbit, in three posts"))

	// The thread: post 2 with its own image, then a third post.
	panel := p.GetByTestId("panel-TWITTER")
	require.NoError(t, panel.Locator("summary.net-group__title", playwright.LocatorLocatorOptions{HasText: "Thread"}).Click())
	require.NoError(t, p.GetByTestId("thread-text-0").Fill("2/ First, the launch window."))
	require.NoError(t, p.GetByTestId("thread-media-0").Locator("summary").Click())
	picks := p.GetByTestId("thread-media-0").Locator("input[name='TWITTER.thread.0.uploadIds']")
	require.NoError(t, expect.Locator(picks).ToHaveCount(2))
	require.NoError(t, picks.Nth(0).Check(playwright.LocatorCheckOptions{Force: playwright.Bool(true)}))
	require.NoError(t, expect.Locator(p.GetByTestId("thread-media-0").Locator("[data-thread-count]")).ToHaveText("(1 chosen)"))
	require.NoError(t, p.GetByTestId("thread-add").Click())
	require.NoError(t, p.GetByTestId("thread-text-1").Fill("3/ Then the burn."))
	thread := p.GetByTestId("preview-TWITTER").GetByTestId("preview-thread").Locator("li")
	require.NoError(t, expect.Locator(thread).ToHaveCount(2))
	require.NoError(t, expect.Locator(thread.Nth(0).Locator(".preview__tile img")).ToHaveCount(1))
	require.NoError(t, expect.Locator(thread.Nth(1)).ToContainText("Then the burn"))
	shot(t, b, "composer-thread-filled")

	// Scheduling without a day: refused; the posts and the second post's image are still there.
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("thread-text-0")).ToHaveValue("2/ First, the launch window."))
	require.NoError(t, expect.Locator(p.GetByTestId("thread-text-1")).ToHaveValue("3/ Then the burn."))
	require.NoError(t, expect.Locator(p.GetByTestId("thread-media-0").Locator("input[name='TWITTER.thread.0.uploadIds']:checked")).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.GetByTestId("preview-TWITTER").GetByTestId("preview-thread").Locator("li").Nth(0).Locator(".preview__tile img")).ToHaveCount(1))
	shot(t, b, "composer-thread-refused")

	when := time.Now().UTC().AddDate(0, 0, 2)
	require.NoError(t, p.GetByTestId("composer-date").Fill(when.Format("2006-01-02")))
	require.NoError(t, p.GetByTestId("composer-time").Fill("10:30"))
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	status, post := postsAPI(t, b, "GET", "/api/v1/post/"+regexp.MustCompile(`[0-9a-f-]{36}$`).FindString(p.URL()), nil)
	require.Equal(t, 200, status)
	tw := post["data"].(map[string]any)["TWITTER"].(map[string]any)
	posts := tw["thread"].([]any)
	require.Len(t, posts, 2)
	require.Len(t, posts[0].(map[string]any)["uploadIds"], 1)
	require.Nil(t, posts[1].(map[string]any)["uploadIds"])

	// The week view: the post sits in its hour; dragged to 14:00 it keeps its minutes.
	_, err = p.Goto("/calendar?view=week&date=" + when.Format("2006-01-02"))
	require.NoError(t, err)
	slot := func(h string) playwright.Locator {
		return p.GetByTestId("cell-" + when.Format("2006-01-02") + "-" + h).Locator("[data-drop]")
	}
	require.NoError(t, expect.Locator(slot("10:00").GetByTestId("calendar-entry")).ToHaveCount(1))
	require.NoError(t, slot("10:00").GetByTestId("calendar-entry").DragTo(slot("14:00")))
	require.NoError(t, expect.Locator(p.GetByTestId("calendar-status")).ToContainText("Moved"))
	require.NoError(t, expect.Locator(slot("14:00").GetByTestId("calendar-entry")).ToContainText("14:30"))
	require.NoError(t, expect.Locator(slot("10:00").GetByTestId("calendar-entry")).ToHaveCount(0))
	shot(t, b, "composer-thread-week-moved")
}
