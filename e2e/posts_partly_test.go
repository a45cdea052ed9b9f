package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// A post that lands on X and fails on Mastodon (a fault injected in the sandbox), in Chromium: the
// post page reads "Partly published" with each network's state at a glance, and so do the posts
// list and the calendar; the API keeps ERROR. Screenshot: e2e/screenshots/posts-partly-published.png.
func TestPostsPartlyPublishedJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	long := playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: playwright.Float(60000)}

	signUpInBrowser(t, b, "Ada", testEmail("ada"), "Engine Works")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Engine Works"})
	require.Contains(t, []int{200, 201}, status, team)
	connectInBrowser(t, b, team["id"].(string), "TWITTER")
	connectInBrowser(t, b, team["id"].(string), "MASTODON")
	status, _ = postsAPI(t, b, "POST", "/sandbox/mastodon/_sandbox/fail", map[string]any{"status": 422, "code": "ERR_VALIDATION",
		"message": "Validation failed: Text character limit of 500 exceeded", "times": 1, "path": "/api/v1/statuses"})
	require.Equal(t, 200, status)

	_, err := p.Goto("/composer")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("account-TWITTER").Click())
	require.NoError(t, p.GetByTestId("account-MASTODON").Click())
	require.NoError(t, p.GetByTestId("composer-text").Fill("The analytical engine, running"))
	require.NoError(t, expect.Locator(p.GetByTestId("preview-MASTODON")).ToBeVisible())
	require.NoError(t, p.GetByTestId("composer-now").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	postURL := p.URL()

	require.NoError(t, expect.Locator(p.GetByTestId("post-live")).ToHaveAttribute("data-status", "ERROR", long))
	summary := p.GetByTestId("post-summary")
	require.NoError(t, expect.Locator(summary.GetByTestId("post-status").First()).ToHaveText("Partly published"))
	require.NoError(t, expect.Locator(p.GetByTestId("net-state-TWITTER")).ToContainText("X: Posted"))
	require.NoError(t, expect.Locator(p.GetByTestId("net-state-MASTODON")).ToContainText("Mastodon: Failed"))
	shot(t, b, "posts-partly-published")
	status, post := postsAPI(t, b, "GET", "/api/v1/post/"+regexp.MustCompile(`[0-9a-f-]{36}$`).FindString(postURL), nil)
	require.Equal(t, 200, status)
	require.Equal(t, "ERROR", post["status"])

	_, err = p.Goto("/posts")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("post-row").First().GetByTestId("post-status")).ToHaveText("Partly published"))
	_, err = p.Goto("/calendar?view=week")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.Locator("[data-testid=calendar-entry][data-status=PARTIAL]")).ToHaveCount(1))
}
