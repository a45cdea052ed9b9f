package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// On a phone (390×844) the composer and the post page work one-handed: nothing is wider than the
// screen (a Bluesky post's id is one long word), every button is at least 44 px tall, and the
// composer's actions sit at the bottom of the screen from the first moment, not after the form.
func TestComposerAndPostOnAPhone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	signUpInBrowser(t, b, "Hedy", testEmail("hedy-phone"), "Pocket Press")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Pocket Press"})
	require.Contains(t, []int{200, 201}, status, team)
	id := team["id"].(string)
	connectInBrowser(t, b, id, "TWITTER")
	// Bluesky signs in with an app password on Crier's own page.
	status, out := postsAPI(t, b, "POST", "/api/v1/social-account/connect", map[string]any{"type": "BLUESKY", "teamId": id, "redirectUrl": b.srv.URL + "/teams/" + id})
	require.Equal(t, 200, status, out)
	_, err := p.Goto(out["url"].(string))
	require.NoError(t, err)
	require.NoError(t, p.Locator("#password-identifier").Fill("pocket.bsky.social"))
	require.NoError(t, p.Locator("#password-password").Fill("abcd-efgh-ijkl-mnop"))
	require.NoError(t, p.GetByTestId("password-submit").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`success=true`)))
	require.NoError(t, p.SetViewportSize(390, 844))

	fits := func(what string) {
		t.Helper()
		w, err := p.Evaluate(`() => document.documentElement.scrollWidth`)
		require.NoError(t, err)
		require.LessOrEqual(t, w, 390, "%s is wider than the phone", what)
	}
	tall := func(what string, l playwright.Locator) {
		t.Helper()
		heights, err := l.EvaluateAll(`els => els.filter(e => e.getClientRects().length).map(e => Math.round(e.getBoundingClientRect().height))`)
		require.NoError(t, err)
		require.NotEmpty(t, heights, what)
		for _, h := range heights.([]any) {
			require.GreaterOrEqual(t, h, 44, "%s: a tap target under 44 px (%v)", what, heights)
		}
	}

	_, err = p.Goto("/composer")
	require.NoError(t, err)
	fits("the composer")
	tall("the composer's buttons", p.Locator(".composer .btn"))
	schedule := p.GetByTestId("composer-schedule-submit")
	require.NoError(t, expect.Locator(schedule).ToBeInViewport())
	box, err := schedule.BoundingBox()
	require.NoError(t, err)
	require.Greater(t, box.Y, 844.0/2, "the save buttons sit in the lower half, under the thumb")
	shot(t, b, "phone-composer", true)

	require.NoError(t, p.GetByTestId("composer-text").Fill("Reading on the train: our pocket editions are out."))
	require.NoError(t, p.GetByTestId("account-BLUESKY").Click())
	require.NoError(t, p.GetByTestId("account-TWITTER").Click())
	fits("the composer with two networks")
	tall("the network tabs", p.Locator(".composer [role=tab]"))
	require.NoError(t, p.GetByTestId("composer-now").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	require.NoError(t, expect.Locator(p.GetByTestId("target-BLUESKY").GetByTestId("permalink")).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(30000)}))
	require.NoError(t, expect.Locator(p.GetByTestId("target-TWITTER").GetByTestId("permalink")).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(30000)}))
	fits("the post page")
	tall("the post page's links and buttons", p.Locator(".post-page .btn, .post-page .target__permalink"))
	pill, err := p.GetByTestId("target-BLUESKY").Locator("[data-status]").First().BoundingBox()
	require.NoError(t, err)
	require.LessOrEqual(t, pill.X+pill.Width, 390.0, "Bluesky's status stays on the screen beside its long id")
	shot(t, b, "phone-post")

	// The top bar's menus: each item is a tap target too.
	require.NoError(t, p.GetByTestId("user-menu").Locator("summary").Click())
	tall("the user menu's items", p.Locator("[data-testid=user-menu][open] .menu__item"))
	fits("the page with the user menu open")
	shot(t, b, "phone-user-menu")
}
