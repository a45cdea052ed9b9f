package e2e

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// The identity capability end to end, as a new customer meets it: sign up, verify the email from
// the dev mailbox, create a team, create an API key, and call /api/v1/team with that key (outside
// the browser, as an integrator would) to see the team.
func TestIdentityJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	email := testEmail("grace")

	signUpInBrowser(t, b, "Grace", email, "Hopper Media")
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner")).ToContainText(email))

	// The verification mail, from the dev mailbox; its link verifies the address.
	_, err := p.Goto("/dev/mailbox")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("mail-item").Filter(playwright.LocatorFilterOptions{HasText: email}).First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("mail-subject")).ToHaveText("Verify your email address for Crier"))
	require.NoError(t, p.GetByTestId("mail-link").First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("verify-result")).ToHaveText("Your email is verified"))
	require.NoError(t, p.GetByTestId("continue").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner")).ToHaveCount(0))

	// A team.
	require.NoError(t, p.GetByTestId("nav-teams").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/teams"))
	require.NoError(t, p.Locator("#team-name").Fill("Harbour Coffee"))
	require.NoError(t, p.GetByTestId("team-create-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("teams-table")).ToContainText("Harbour Coffee"))
	shot(t, b, "identity-team")

	// An API key: the secret is shown once.
	_, err = p.Goto("/settings/api-keys")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#key-name").Fill("Integration"))
	require.NoError(t, p.GetByTestId("create-key-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("new-secret")).ToBeVisible())
	secret, err := p.GetByTestId("new-secret").Locator("input").First().InputValue()
	require.NoError(t, err)
	require.Regexp(t, `^crier_[A-Za-z0-9]+_[A-Za-z0-9_-]+$`, secret)
	shot(t, b, "identity-api-key")

	// The key works against the API and sees the team; the page no longer shows the secret.
	req, err := http.NewRequest(http.MethodGet, b.srv.URL+"/api/v1/team", nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", secret)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var list struct {
		Items []struct {
			Name         string `json:"name"`
			Organization struct {
				Name string `json:"name"`
			} `json:"organization"`
		} `json:"items"`
		Total float64 `json:"total"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&list))
	require.Equal(t, float64(1), list.Total)
	require.Equal(t, "Harbour Coffee", list.Items[0].Name)
	require.Equal(t, "Hopper Media", list.Items[0].Organization.Name)

	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("new-secret")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("key-row")).ToContainText("Integration"))
}
