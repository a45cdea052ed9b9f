package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// The organization pages in a real browser: teams (create, the FREE limit, inline rename, delete
// in a dialog, detail), settings (branding preview), members (invite), API keys (secret once, roll)
// and the audit log. Screenshots land in e2e/screenshots/org-*.png.
func TestOrganizationPagesScreens(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	res, err := p.Context().Request().Post(b.srv.URL+"/api/v1/auth/signup", playwright.APIRequestContextPostOptions{
		Data: map[string]any{"email": "grace-" + time.Now().Format("150405.000") + "@example.com", "password": "a long enough password",
			"firstName": "Grace", "lastName": "Hopper", "organizationName": "Hopper & Co"},
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, res.Status())

	// Teams: empty, then three created through the htmx form, then the FREE plan's limit.
	_, err = p.Goto("/teams")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.Locator("h1")).ToHaveText("Teams"))
	b.screenshot(t, "org-teams-empty")

	for _, name := range []string{"Acme Coffee", "Northwind Studio", "Blue Bottle"} {
		require.NoError(t, p.Locator("#team-name").Fill(name))
		require.NoError(t, p.GetByTestId("team-create-submit").Click())
		require.NoError(t, expect.Locator(p.GetByTestId("form-saved")).ToContainText(name))
		require.NoError(t, expect.Locator(p.GetByTestId("teams-table")).ToContainText(name))
	}
	require.NoError(t, p.Locator("#team-name").Fill("Fourth team"))
	require.NoError(t, p.GetByTestId("team-create-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("form-error")).ToContainText("at most 3 teams"))
	require.NoError(t, expect.Locator(p.Locator("#team-name")).ToHaveValue("Fourth team"))
	b.screenshot(t, "org-teams-limit")

	// Validation beside the field.
	require.NoError(t, p.Locator("#team-name").Fill("ab"))
	require.NoError(t, p.Locator("#team-avatarUrl").Fill("not a url"))
	require.NoError(t, p.GetByTestId("team-create-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#team-name-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.Locator("#team-avatarUrl-error")).ToBeVisible())
	b.screenshot(t, "org-teams-invalid")

	// Inline rename.
	row := p.GetByTestId("team-row").Filter(playwright.LocatorFilterOptions{HasText: "Northwind Studio"})
	require.NoError(t, row.GetByTestId("team-rename").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("rename-form")).ToBeVisible())
	b.screenshot(t, "org-teams-rename")
	require.NoError(t, p.GetByTestId("rename-form").Locator("input[name=name]").Fill("Northwind Agency"))
	require.NoError(t, p.GetByTestId("rename-save").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("teams-table")).ToContainText("Northwind Agency"))

	// Delete in a dialog.
	row = p.GetByTestId("team-row").Filter(playwright.LocatorFilterOptions{HasText: "Blue Bottle"})
	require.NoError(t, row.GetByTestId("team-delete").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToBeVisible())
	b.screenshot(t, "org-teams-delete-dialog", true)
	require.NoError(t, p.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("teams-table")).Not().ToContainText("Blue Bottle"))
	require.NoError(t, expect.Locator(p.GetByTestId("flash").Filter(playwright.LocatorFilterOptions{HasText: "deleted"})).ToBeVisible())
	b.screenshot(t, "org-teams-list")

	// Search as you type (htmx), then clear.
	require.NoError(t, p.Locator("#teams-q").Fill("acme"))
	require.NoError(t, expect.Locator(p.GetByTestId("team-row")).ToHaveCount(1))
	require.NoError(t, p.WaitForURL(b.srv.URL+"/teams?q=acme"))
	b.screenshot(t, "org-teams-search")
	require.NoError(t, p.Locator("#teams-q").Fill(""))
	require.NoError(t, expect.Locator(p.GetByTestId("team-row")).ToHaveCount(2))
	require.NoError(t, expect.Locator(p.GetByTestId("team-limit")).ToHaveCount(0))

	// Team page.
	require.NoError(t, p.GetByTestId("team-link").First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("team-detail")).ToBeVisible())
	b.screenshot(t, "org-team-detail")

	// Settings with the live branding preview.
	_, err = p.Goto("/settings")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.Locator("h1")).ToHaveText("Settings"))
	b.screenshot(t, "org-settings")
	require.NoError(t, p.Locator("#branding-portalBrandName").Fill("Hopper Media"))
	require.NoError(t, p.Locator("#branding-portalAccentColor").Fill("#0f766e"))
	require.NoError(t, p.Locator("#branding-portalLogoUrl").Fill("https://cdn.example.com/logo.png"))
	require.NoError(t, expect.Locator(p.Locator(".portal-card__brand")).ToHaveText("Hopper Media"))
	require.NoError(t, expect.Locator(p.Locator(".portal-card__button")).ToHaveCSS("background-color", "rgb(15, 118, 110)"))
	require.NoError(t, p.Locator("#settings-branding").ScrollIntoViewIfNeeded())
	b.screenshot(t, "org-settings-branding", true)
	require.NoError(t, p.GetByTestId("branding-save").Click())
	require.NoError(t, expect.Locator(p.Locator("#settings-branding [data-testid=form-saved]")).ToBeVisible())

	require.NoError(t, p.Locator("#settings-deleteDisconnectedAfterHours").Fill("500"))
	require.NoError(t, p.GetByTestId("settings-save").Click())
	require.NoError(t, expect.Locator(p.Locator("#settings-deleteDisconnectedAfterHours-error")).ToBeVisible())
	require.NoError(t, p.Locator("#settings-general").ScrollIntoViewIfNeeded())
	b.screenshot(t, "org-settings-invalid", true)

	// Members: invite.
	_, err = p.Goto("/settings/members")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#invite-email").Fill("ada@example.com"))
	_, err = p.Locator("#invite-role").SelectOption(playwright.SelectOptionValues{Values: &[]string{"ADMIN"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("invite-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("invitations-table")).ToContainText("ada@example.com"))
	require.NoError(t, p.GetByTestId("invitation-resend").First().Click())
	require.NoError(t, expect.Locator(p.GetByText("Invitation sent again to ada@example.com.")).ToBeVisible())
	// A role change asks first; Cancel puts the select back.
	_, err = p.GetByTestId("role-select").First().SelectOption(playwright.SelectOptionValues{Values: &[]string{"ADMIN"}})
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToContainText("Admins manage API keys"))
	b.screenshot(t, "org-members-role-confirm")
	require.NoError(t, p.GetByTestId("confirm-dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Cancel"}).Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("role-select").First()).ToHaveValue("OWNER"))
	// The only OWNER cannot demote themselves: the dialog says why.
	_, err = p.GetByTestId("role-select").First().SelectOption(playwright.SelectOptionValues{Values: &[]string{"ADMIN"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-error")).ToContainText("last OWNER"))
	b.screenshot(t, "org-members")

	// API keys: the secret once, then a roll in a dialog.
	_, err = p.Goto("/settings/api-keys")
	require.NoError(t, err)
	b.screenshot(t, "org-api-keys-empty")
	require.NoError(t, p.Locator("#key-name").Fill("Production server"))
	require.NoError(t, p.GetByTestId("create-key-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("new-secret")).ToBeVisible())
	require.NoError(t, p.GetByTestId("copy-secret").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("copy-secret")).ToContainText("Copied"))
	b.screenshot(t, "org-api-keys-secret")
	require.NoError(t, p.GetByTestId("key-roll").First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToBeVisible())
	require.NoError(t, p.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("rolled-dialog")).ToBeVisible())
	b.screenshot(t, "org-api-keys-rolled", true)
	require.NoError(t, p.GetByTestId("rolled-dialog").GetByText("Done").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("rolled-dialog")).ToHaveCount(0))
	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("new-secret")).ToHaveCount(0))

	// Audit log.
	_, err = p.Goto("/settings/audit-log")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("audit-row").First()).ToBeVisible())
	b.screenshot(t, "org-audit-log")

	// Narrow screen.
	require.NoError(t, p.SetViewportSize(390, 844))
	_, err = p.Goto("/settings")
	require.NoError(t, err)
	b.screenshot(t, "org-settings-mobile")
}
