package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// The longest names sign-up takes (100 characters each, one unbroken word) keep the top bar whole:
// the user chip ends in an ellipsis, the menu wraps the full name, the page does not scroll sideways.
// Screenshot: e2e/screenshots/account-longest-name.png.
func TestLongestNamesKeepTheTopBar(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	first, last := strings.Repeat("Maximiliana", 9)+"X", strings.Repeat("Wolfeschlegel", 7)+"Steinhaus"
	require.Len(t, first, 100)
	require.Len(t, last, 100)

	_, err := p.Goto("/signup")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#firstName").Fill(first))
	require.NoError(t, p.Locator("#lastName").Fill(last))
	require.NoError(t, p.Locator("#email").Fill(testEmail("max")))
	require.NoError(t, p.Locator("#password").Fill("a long enough password"))
	require.NoError(t, p.GetByTestId("signup-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))

	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("user-name")).ToHaveText(first+" "+last))
	fits, err := p.Evaluate(`() => {
		const bar = document.querySelector('[data-testid="topbar"]');
		const chip = document.querySelector('[data-testid="user-menu-button"]');
		const name = document.querySelector('[data-testid="user-name"]');
		return bar.scrollWidth <= bar.clientWidth && document.documentElement.scrollWidth <= document.documentElement.clientWidth &&
			chip.getBoundingClientRect().width <= 320 && name.scrollWidth <= name.clientWidth;
	}`)
	require.NoError(t, err)
	require.Equal(t, true, fits, "the top bar, the chip and the menu keep their widths")
	shot(t, b, "account-longest-name", true)
}
