package e2e

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// A live preview sent before a save but answered after it (a slow network) must not clear what the
// save said: its answer belongs to the form the save replaced. The preview is held back here, so
// its answer always lands after the save's.
func TestComposerLatePreviewKeepsSaveErrors(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	signUpInBrowser(t, b, "Grace", testEmail("grace"), "Hopper Works")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Hopper Works"})
	require.Contains(t, []int{200, 201}, status, team)
	connectInBrowser(t, b, team["id"].(string), "TWITTER")
	_, err := p.Goto("/composer")
	require.NoError(t, err)

	var sent, answered atomic.Int32
	require.NoError(t, p.Route("**/composer/preview", func(r playwright.Route) {
		sent.Add(1)
		go func() {
			time.Sleep(1500 * time.Millisecond)
			_ = r.Continue()
		}()
	}))
	p.OnResponse(func(r playwright.Response) {
		if strings.HasSuffix(r.URL(), "/composer/preview") {
			answered.Add(1)
		}
	})
	// Typing, then saving at once: leaving the text sends a preview, the save goes after it.
	require.NoError(t, p.GetByTestId("composer-text").Fill("Nanoseconds, explained with wire"))
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToHaveText("Choose at least one network"))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	require.Positive(t, sent.Load(), "a preview was in flight during the save")

	// Every held preview answered (and swapped, if it were to be): the save's messages stay.
	deadline := time.Now().Add(10 * time.Second)
	for answered.Load() < sent.Load() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	require.Equal(t, sent.Load(), answered.Load())
	time.Sleep(500 * time.Millisecond)
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToHaveText("Choose at least one network"))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("composer-message")).ToBeVisible())

	// A preview of the form the save answered still clears what the user fixes.
	require.NoError(t, p.Unroute("**/composer/preview"))
	require.NoError(t, p.GetByTestId("account-TWITTER").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
}
