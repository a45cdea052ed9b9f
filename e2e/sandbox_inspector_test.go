package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
)

// apiFetch calls /api/v1 from the page, as the dashboard's own scripts would (the session cookie,
// a same-origin request), and answers the JSON body.
func apiFetch(t *testing.T, p playwright.Page, method, path string, body any) map[string]any {
	t.Helper()
	out, err := p.Evaluate(`async ([method, path, body]) => {
		const r = await fetch(path, {method, headers: {"content-type": "application/json"}, body: body === null ? undefined : JSON.stringify(body)});
		return {status: r.status, body: await r.json()};
	}`, []any{method, path, body})
	require.NoError(t, err)
	res := out.(map[string]any)
	require.Less(t, int(res["status"].(int)), 300, "%s %s: %v", method, path, res["body"])
	return res["body"].(map[string]any)
}

// The sandbox inspector in Chromium: empty networks explain how to fill them; an X account
// connected through the sandbox's consent page appears with its calls and token; a post that lands
// on the network shows up without a reload (polling); a failure injected through the form is
// listed and counted in the network list; the knobs save. Screenshots land in
// e2e/screenshots/sandbox-inspector-*.png.
func TestSandboxInspectorJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	signUpInBrowser(t, b, "Ada", testEmail("sandbox"), "Analytical Engines")

	// The sidebar links the inspector (the test server runs with SANDBOX=1); nothing happened yet.
	require.NoError(t, p.GetByTestId("nav-sandbox").Click())
	require.NoError(t, p.WaitForURL("**/sandbox-inspector"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-name")).ToHaveText("TikTok"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-users")).ToContainText("No one signed in yet"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-held")).ToContainText("Nothing published on TikTok yet"))
	shot(t, b, "sandbox-inspector-empty")

	// Connect X: Crier's connect answers the sandbox's consent URL; approving it (approve=1, as a
	// script does) goes through Crier's callback and back to the inspector.
	team := apiFetch(t, p, "POST", "/api/v1/team", map[string]any{"name": "Engines"})
	conn := apiFetch(t, p, "POST", "/api/v1/social-account/connect", map[string]any{"type": "TWITTER", "teamId": team["id"],
		"redirectUrl": b.srv.URL + "/sandbox-inspector/twitter"})
	_, err := p.Goto(conn["url"].(string) + "&login=ada_lovelace&approve=1")
	require.NoError(t, err)
	require.NoError(t, p.WaitForURL("**/sandbox-inspector/twitter**"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-name")).ToHaveText("X"))
	require.NoError(t, expect.Locator(p.GetByTestId("user-login")).ToHaveText("@ada_lovelace"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-token")).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.GetByTestId("call-path").Filter(playwright.LocatorFilterOptions{HasText: "/2/oauth2/token"})).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-TWITTER")).ToContainText("1 account"))

	// Things land on the network while the page is open: the poller shows them, no reload.
	sb := b.srv.Sandbox
	hold := func(h sandbox.Held) {
		_, err := sb.Hold(app.Twitter, h)
		require.NoError(t, err)
	}
	hold(sandbox.Held{Kind: sandbox.KindMedia, ID: "1860000000000000001", User: "ada_lovelace", Media: []string{"engine-diagram.png"}})
	hold(sandbox.Held{Kind: sandbox.KindPost, ID: "1860000000000000002", User: "ada_lovelace", Media: []string{"1860000000000000001"},
		Text: "The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves.",
		URL:  "https://x.com/ada_lovelace/status/1860000000000000002"})
	gone := time.Now().UTC()
	hold(sandbox.Held{Kind: sandbox.KindPost, ID: "1860000000000000003", User: "ada_lovelace", Text: "A draft posted by mistake",
		URL: "https://x.com/ada_lovelace/status/1860000000000000003", DeletedAt: &gone})
	hold(sandbox.Held{Kind: sandbox.KindComment, ID: "1860000000000000004", User: "ada_lovelace", Parent: "1860000000000000002",
		Text: "Notes by the translator, A.A.L.", URL: "https://x.com/ada_lovelace/status/1860000000000000004"})
	items := p.GetByTestId("held-item")
	require.NoError(t, expect.Locator(items).ToHaveCount(4, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(10000)}))
	require.NoError(t, expect.Locator(items.First()).ToContainText("Notes by the translator"))
	require.NoError(t, expect.Locator(p.GetByTestId("stat-posts")).ToContainText("1"))

	// Inject a failure through the form: it is listed, counted, and the network list flags it.
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-failures")).ToContainText("No failures queued"))
	_, err = p.GetByTestId("fail-status").SelectOption(playwright.SelectOptionValues{Values: &[]string{"429"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("fail-code").Fill("UsageCapExceeded"))
	require.NoError(t, p.GetByTestId("fail-message").Fill("Too Many Requests"))
	require.NoError(t, p.GetByTestId("fail-times").Fill("3"))
	require.NoError(t, p.GetByTestId("fail-path").Fill("/2/tweets"))
	require.NoError(t, p.GetByTestId("fail-reset").Fill("120"))
	require.NoError(t, p.GetByTestId("fail-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-fail-form").GetByTestId("form-saved")).ToContainText("next 3 calls to paths containing /2/tweets on X answer 429"))
	failure := p.GetByTestId("sandbox-failure")
	require.NoError(t, expect.Locator(failure).ToHaveCount(1))
	require.NoError(t, expect.Locator(failure).ToContainText("UsageCapExceeded"))
	require.NoError(t, expect.Locator(failure).ToContainText("resets in 120 s"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-TWITTER").GetByTestId("net-failures")).ToContainText("1"))
	st, err := sb.Inspect(app.Twitter, 0)
	require.NoError(t, err)
	require.Equal(t, []sandbox.Failure{{Status: 429, Code: "UsageCapExceeded", Message: "Too Many Requests", ResetInSeconds: 120, Times: 3, Path: "/2/tweets"}}, st.Failures)

	// A second failure, on the profile Crier's connection check reads: the check meets it, the
	// failure is used up, and the call is listed with the injected status.
	_, err = p.GetByTestId("fail-status").SelectOption(playwright.SelectOptionValues{Values: &[]string{"503"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("fail-code").Fill("over_capacity"))
	require.NoError(t, p.GetByTestId("fail-path").Fill("/2/users/me"))
	require.NoError(t, p.GetByTestId("fail-reset").Fill("0"))
	require.NoError(t, p.GetByTestId("fail-submit").Click())
	require.NoError(t, expect.Locator(failure).ToHaveCount(2))
	// (Outside the page, with the browser's cookies: the check answers 502, which the page would log
	// as a console error.)
	res, err := p.Context().Request().Post(b.srv.URL+"/api/v1/social-account/connection-check", playwright.APIRequestContextPostOptions{
		Headers: map[string]string{"Sec-Fetch-Site": "same-origin"}, Data: map[string]any{"teamId": team["id"], "type": "TWITTER"}})
	require.NoError(t, err)
	body, _ := res.Text()
	require.Equal(t, http.StatusBadGateway, res.Status(), "the network is down: no verdict: %s", body)
	require.NoError(t, expect.Locator(failure).ToHaveCount(1, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(10000)}))
	require.NoError(t, expect.Locator(p.GetByTestId("call").First().GetByTestId("call-status")).ToHaveText("503"))
	require.NoError(t, expect.Locator(p.GetByTestId("call").First().GetByTestId("call-path")).ToHaveText("/2/users/me"))

	// Knobs: a refused value stays beside its field; a good one saves.
	require.NoError(t, p.GetByTestId("knob-latency").Fill("-1"))
	require.NoError(t, p.GetByTestId("knobs-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("field-latencyMs")).ToContainText("whole number from 0 to 60000"))
	require.NoError(t, p.GetByTestId("knob-latency").Fill("150"))
	require.NoError(t, p.GetByTestId("knob-ttl").Fill("600"))
	require.NoError(t, p.GetByTestId("knobs-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-knobs-form").GetByTestId("form-saved")).ToContainText("150 ms latency"))
	shot(t, b, "sandbox-inspector-x")

	// Expire the tokens: the live token disappears from the list.
	require.NoError(t, p.GetByTestId("sandbox-expire").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-token")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("flashes")).ToContainText("access token expired"))
	shot(t, b, "sandbox-inspector-x-viewport", true)

	// X by the name people know it by: /sandbox-inspector/x is the same page; its links keep the id.
	_, err = p.Goto(b.srv.URL + "/sandbox-inspector/x")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-name")).ToHaveText("X"))
	require.NoError(t, expect.Locator(p.GetByTestId("user-login")).ToHaveText("@ada_lovelace"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-TWITTER")).ToHaveAttribute("aria-current", "page"))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-net-TWITTER")).ToHaveAttribute("href", "/sandbox-inspector/twitter"))

	// A narrow window: the network list becomes a scrolling row above one column.
	require.NoError(t, p.SetViewportSize(820, 1000))
	require.NoError(t, expect.Locator(p.GetByTestId("sandbox-nets")).ToBeVisible())
	shot(t, b, "sandbox-inspector-narrow", true)
}
