package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// newTeamInBrowser creates a team on /teams and opens its accounts page from the team's page.
func newTeamInBrowser(t *testing.T, b *bundle, name string) {
	t.Helper()
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	_, err := p.Goto("/teams")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#team-name").Fill(name))
	require.NoError(t, p.GetByTestId("team-create-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("teams-table")).ToContainText(name))
	require.NoError(t, p.GetByTestId("team-link").Filter(playwright.LocatorFilterOptions{HasText: name}).Click())
	require.NoError(t, expect.Locator(p.GetByTestId("team-accounts")).ToContainText("No accounts connected yet"))
	require.NoError(t, p.GetByTestId("manage-accounts").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/teams/[^/]+/accounts$`)))
	require.NoError(t, expect.Locator(p.Locator("h1")).ToHaveText("Social accounts"))
}

// approveOnConsentPage signs in as login on a sandbox network's consent page and clicks Authorize.
func approveOnConsentPage(t *testing.T, p playwright.Page, login string) {
	t.Helper()
	expect := playwright.NewPlaywrightAssertions()
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/sandbox/`)))
	require.NoError(t, expect.Locator(p.Locator("h1")).ToContainText("sandbox"))
	require.NoError(t, p.Locator("input[name=login]").Fill(login))
	require.NoError(t, p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Authorize"}).Click())
}

// A marketer connects Facebook (then picks the page it publishes to), X and Mastodon (server
// address) through the sandbox networks' consent pages, sees them on the team's accounts page and
// the team's page; X revokes the access, a check flags it and the marketer reconnects it; then
// disconnects X after a confirmation. Screenshots: e2e/screenshots/accounts-*.png.
func TestSocialAccountsJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Marta", testEmail("marta"), "Northwind Agency")
	newTeamInBrowser(t, b, "Northwind Bakery")
	require.NoError(t, expect.Locator(p.GetByTestId("connected-count")).ToHaveText("0 of 15"))
	require.NoError(t, expect.Locator(p.GetByTestId("network-grid").Locator("li")).ToHaveCount(15))
	require.NoError(t, expect.Locator(p.Locator(`[data-network-icon]`)).ToHaveCount(15+15)) // tiles and portal checkboxes
	shot(t, b, "accounts-empty")

	// Facebook: consent, back with the outcome, then the page picker.
	require.NoError(t, p.GetByTestId("connect-FACEBOOK-button").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/sandbox/facebook/`)))
	require.NoError(t, expect.Locator(p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Authorize"})).ToBeVisible())
	b.screenshot(t, "accounts-consent-facebook")
	approveOnConsentPage(t, p, "northwind_bakery")
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/teams/[^/]+/accounts`)))
	outcome := p.GetByTestId("accounts-outcome")
	require.NoError(t, expect.Locator(outcome).ToHaveAttribute("data-outcome", "connected"))
	require.NoError(t, expect.Locator(outcome).ToContainText("Facebook connected as Sandbox northwind_bakery"))
	require.NoError(t, expect.Locator(outcome).ToContainText("Choose the page it publishes to"))
	// The outcome is shown once: the address loses it (a reload does not repeat it).
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/teams/[^/?]+/accounts$`)))
	fb := p.GetByTestId("account-FACEBOOK")
	require.NoError(t, expect.Locator(fb.GetByTestId("account-state")).ToContainText("Choose a page"))
	require.NoError(t, expect.Locator(fb.GetByTestId("account-initials")).ToHaveText("SN"))
	shot(t, b, "accounts-facebook-connected")
	_, err := fb.GetByTestId("channel-select").SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Sandbox Bikes (@sandboxbikes)"}})
	require.NoError(t, err)
	require.NoError(t, fb.GetByTestId("set-channel").Click())
	fb = p.GetByTestId("account-FACEBOOK")
	require.NoError(t, expect.Locator(fb.GetByTestId("account-flash")).ToHaveText("Facebook now publishes to Sandbox Bikes."))
	require.NoError(t, expect.Locator(fb.GetByTestId("account-name")).ToHaveText("Sandbox Bikes"))
	require.NoError(t, expect.Locator(fb.GetByTestId("account-username")).ToHaveText("@sandboxbikes"))
	require.NoError(t, expect.Locator(fb.GetByTestId("account-state")).ToHaveText("Connected"))
	require.NoError(t, expect.Locator(fb.GetByTestId("unset-channel")).ToBeVisible())

	// X.
	require.NoError(t, p.GetByTestId("connect-TWITTER-button").Click())
	approveOnConsentPage(t, p, "northwind")
	require.NoError(t, expect.Locator(p.GetByTestId("accounts-outcome")).ToContainText("X connected as"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-TWITTER").GetByTestId("account-username")).ToHaveText("@northwind"))

	// Mastodon asks for a server: the field is empty with an example (never the sandbox's own
	// address); a wrong one is refused in its tile, a server's name is accepted (the sandbox
	// serves any from its twin) and kept on the account as its https address.
	mastodon := p.GetByTestId("connect-MASTODON")
	require.NoError(t, expect.Locator(mastodon.GetByTestId("server-url")).ToHaveValue(""))
	require.NoError(t, expect.Locator(mastodon.GetByTestId("server-url")).ToHaveAttribute("placeholder", "mastodon.social"))
	require.NoError(t, mastodon.GetByTestId("server-url").Fill("not a server"))
	require.NoError(t, mastodon.GetByTestId("connect-MASTODON-button").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("connect-MASTODON").GetByTestId("connect-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("connect-MASTODON").GetByTestId("server-url")).ToHaveValue("not a server"))
	shot(t, b, "accounts-mastodon-refused")
	require.NoError(t, p.GetByTestId("connect-MASTODON").GetByTestId("server-url").Fill("mastodon.social"))
	require.NoError(t, p.GetByTestId("connect-MASTODON").GetByTestId("connect-MASTODON-button").Click())
	approveOnConsentPage(t, p, "bakery")
	require.NoError(t, expect.Locator(p.GetByTestId("accounts-outcome")).ToContainText("Mastodon connected"))
	var server string
	require.NoError(t, b.srv.Pool.QueryRow(context.Background(), `SELECT s.server_url FROM social_accounts a JOIN mastodon_servers s ON s.id = a.mastodon_server_id
		WHERE a.type = 'MASTODON' AND a.deleted_at IS NULL`).Scan(&server))
	require.Equal(t, "https://mastodon.social", server)

	require.NoError(t, expect.Locator(p.GetByTestId("connected-count")).ToHaveText("3 of 15"))
	require.NoError(t, expect.Locator(p.GetByTestId("network-grid").Locator("li")).ToHaveCount(12))
	for _, n := range []string{"FACEBOOK", "TWITTER", "MASTODON"} {
		require.NoError(t, expect.Locator(p.GetByTestId("account-"+n)).ToBeVisible())
	}
	shot(t, b, "accounts-three-connected")

	// X revokes Crier's access: a check flags the account, Reconnect goes through the consent again.
	res, err := p.Context().Request().Post(b.srv.URL+"/sandbox/x/_sandbox/revoke-tokens", playwright.APIRequestContextPostOptions{})
	require.NoError(t, err)
	require.Equal(t, 200, res.Status())
	x := p.GetByTestId("account-TWITTER")
	require.NoError(t, x.GetByTestId("check-connection").Click())
	x = p.GetByTestId("account-TWITTER")
	require.NoError(t, expect.Locator(x.GetByTestId("account-state")).ToHaveText("Reconnect needed"))
	require.NoError(t, expect.Locator(x.GetByTestId("reconnect-prompt")).ToContainText("X no longer accepts Crier’s access"))
	require.NoError(t, expect.Locator(x.GetByTestId("account-error")).ToContainText("token was invalid"))
	shot(t, b, "accounts-reconnect-needed")
	require.NoError(t, x.GetByTestId("reconnect-prompt").GetByTestId("reconnect").Click())
	approveOnConsentPage(t, p, "northwind")
	require.NoError(t, expect.Locator(p.GetByTestId("accounts-outcome")).ToContainText("X connected as"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-TWITTER").GetByTestId("account-state")).ToHaveText("Connected"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-TWITTER").GetByTestId("reconnect-prompt")).ToHaveCount(0))

	// Disconnect X after the confirmation; the list reloads without it.
	require.NoError(t, p.GetByTestId("disconnect-TWITTER").Click())
	dialog := p.GetByTestId("confirm-dialog")
	require.NoError(t, expect.Locator(dialog).ToBeVisible())
	require.NoError(t, expect.Locator(dialog).ToContainText("Disconnect X from “Northwind Bakery”?"))
	shot(t, b, "accounts-disconnect-dialog", true)
	require.NoError(t, dialog.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("flash")).ToContainText("disconnected"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-TWITTER")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("connected-count")).ToHaveText("2 of 15"))
	require.NoError(t, expect.Locator(p.GetByTestId("connect-TWITTER")).ToBeVisible())

	// The team's page lists what is connected.
	require.NoError(t, p.GetByTestId("back-to-team").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("team-account-FACEBOOK")).ToContainText("Sandbox Bikes"))
	require.NoError(t, expect.Locator(p.GetByTestId("team-account-MASTODON")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("team-account-TWITTER")).ToHaveCount(0))
	shot(t, b, "accounts-team-page")

	// The teams list shows each team's networks, linking to its accounts page.
	require.NoError(t, p.GetByTestId("back-link").Or(p.GetByText("All teams")).First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("team-networks").Locator("svg[data-network-icon]")).ToHaveCount(2))
	shot(t, b, "accounts-teams-list")
}

// The portal: the marketer makes a link for four networks on the accounts page; a client opens it
// in a fresh browser context (no cookies, no login), connects LinkedIn and TikTok through their
// consent pages; the marketer's accounts page, reloaded, shows both.
func TestPortalJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Pablo", testEmail("pablo"), "Pablo Media")
	newTeamInBrowser(t, b, "Client Coffee")

	card := p.GetByTestId("portal-card")
	// Offer four networks only: none at first is refused beside the list.
	boxes, err := card.Locator(`input[name=socialAccountTypes]`).All()
	require.NoError(t, err)
	require.Len(t, boxes, 15)
	for _, box := range boxes {
		require.NoError(t, box.Uncheck())
	}
	require.NoError(t, card.GetByTestId("create-portal-link").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("portal-networks-error")).ToHaveText("Choose at least one network"))
	for _, n := range []string{"LINKEDIN", "TIKTOK", "INSTAGRAM", "YOUTUBE"} {
		require.NoError(t, p.GetByTestId("portal-network-"+n).Check())
	}
	_, err = p.GetByTestId("portal-lifetime").SelectOption(playwright.SelectOptionValues{Values: &[]string{"60"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("portal-card").GetByTestId("create-portal-link").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("portal-result")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("copy-portal-url")).ToBeVisible())
	link, err := p.GetByTestId("portal-url").InputValue()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(link, b.srv.URL+"/portal/"), link)
	shot(t, b, "accounts-portal-link")

	// The client: a fresh context, no cookies.
	client, err := p.Context().Browser().NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1000, Height: 800}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = client.Close() })
	cookies, err := client.Cookies()
	require.NoError(t, err)
	require.Empty(t, cookies)
	cp, err := client.NewPage()
	require.NoError(t, err)
	var clientErrors []string
	cp.OnConsole(func(m playwright.ConsoleMessage) {
		if m.Type() == "error" {
			clientErrors = append(clientErrors, m.Text())
		}
	})
	_, err = cp.Goto(link)
	require.NoError(t, err)
	require.NoError(t, expect.Locator(cp.Locator("h1")).ToHaveText("Pablo Media"))
	require.NoError(t, expect.Locator(cp.Locator("[data-network]")).ToHaveCount(4))
	portalShot(t, cp, "portal-open")
	for _, n := range []struct{ network, login string }{{"LINKEDIN", "client_coffee"}, {"TIKTOK", "clientcoffee"}} {
		require.NoError(t, cp.Locator(`[data-network="`+n.network+`"] button`).Click())
		approveOnConsentPage(t, cp, n.login)
		require.NoError(t, cp.WaitForURL(regexp.MustCompile(`/portal/[^/?]+\?`)))
		require.NoError(t, expect.Locator(cp.Locator(`[data-outcome]`)).ToHaveAttribute("data-outcome", "connected"))
		require.NoError(t, expect.Locator(cp.Locator(`[data-network="`+n.network+`"]`)).ToContainText("Disconnect"))
	}
	portalShot(t, cp, "portal-two-connected")
	require.Empty(t, clientErrors)

	// The marketer reloads the accounts page: both are there, LinkedIn waiting for its page.
	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("connected-count")).ToHaveText("2 of 15"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-LINKEDIN")).ToContainText("client_coffee"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-LINKEDIN").GetByTestId("account-state")).ToHaveText("Choose a page"))
	require.NoError(t, expect.Locator(p.GetByTestId("account-TIKTOK").GetByTestId("account-username")).ToBeVisible())
	shot(t, b, "accounts-after-portal")

	// On a phone the columns stack.
	require.NoError(t, p.SetViewportSize(390, 844))
	require.NoError(t, expect.Locator(p.GetByTestId("account-LINKEDIN").GetByTestId("channel-select")).ToBeVisible())
	shot(t, b, "accounts-narrow")
}

// portalShot saves a screenshot of the client's page.
func portalShot(t *testing.T, p playwright.Page, name string) {
	t.Helper()
	_, err := p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(repoRoot() + "/e2e/screenshots/" + name + ".png"), FullPage: playwright.Bool(true)})
	require.NoError(t, err)
}
