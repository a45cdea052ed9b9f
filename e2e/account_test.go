package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// signUpInBrowser creates an account through the /signup form and lands on the dashboard home.
func signUpInBrowser(t *testing.T, b *bundle, first, email, org string) {
	t.Helper()
	p := b.page
	_, err := p.Goto("/signup")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#firstName").Fill(first))
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("a long enough password"))
	if org != "" {
		require.NoError(t, p.Locator("#organizationName").Fill(org))
	}
	require.NoError(t, p.GetByTestId("signup-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
}

// shot is b.screenshot, cleaned up after: to hide the caret, Playwright leaves an empty style=""
// on every input, which htmx copies while settling a swap of those inputs, and the CSP reports
// that inline style as a console error (failing the journey).
func shot(t *testing.T, b *bundle, name string, viewportOnly ...bool) {
	t.Helper()
	_, err := b.page.Evaluate(`window.scrollTo(0, 0)`)
	require.NoError(t, err)
	b.screenshot(t, name, viewportOnly...)
	_, err = b.page.Evaluate(`document.querySelectorAll('[style=""]').forEach(function (e) { e.removeAttribute("style"); })`)
	require.NoError(t, err)
}

func testEmail(name string) string {
	return name + "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"
}

// The account pages in Chromium: sign up (with a mistake first), read the verification mail in the
// dev mailbox and follow its link, edit the profile and the password, create and switch
// organizations, sign out and back in. Screenshots land in e2e/screenshots/account-*.png.
func TestAccountJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	email := testEmail("ada")

	// Sign-up: a mistake is shown beside its field, what was typed stays.
	_, err := p.Goto("/signup")
	require.NoError(t, err)
	shot(t, b, "account-signup")

	// Names have a maximum: the input says it (maxlength); a browser that ignores it sends 101
	// characters and the service's refusal shows beside the field, the name kept.
	tooLong := strings.Repeat("Augusta", 14) + "Ada" // 101 characters
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToHaveAttribute("maxlength", "100"))
	_, err = p.Locator("#firstName").Evaluate(`el => el.removeAttribute("maxlength")`, nil)
	require.NoError(t, err)
	require.NoError(t, p.Locator("#firstName").Fill(tooLong))
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("a long enough password"))
	require.NoError(t, p.GetByTestId("signup-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#firstName-error")).ToHaveText("Use at most 100 characters"))
	require.NoError(t, expect.Locator(p.GetByTestId("field-firstName")).ToContainText("Use at most 100 characters"))
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToHaveValue(tooLong))
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToHaveAttribute("aria-invalid", "true"))
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToBeFocused())
	require.NoError(t, expect.Locator(p.Locator("#email")).ToHaveValue(email))
	shot(t, b, "account-signup-name-too-long")

	require.NoError(t, p.Locator("#firstName").Fill("Ada"))
	require.NoError(t, p.Locator("#lastName").Fill("Lovelace"))
	require.NoError(t, p.Locator("#email").Fill("ada@"))
	require.NoError(t, p.Locator("#password").Fill("short"))
	require.NoError(t, p.Locator("#organizationName").Fill("Analytical Engines"))
	require.NoError(t, p.GetByTestId("signup-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#email-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.Locator("#password-error")).ToContainText("at least 10"))
	require.NoError(t, expect.Locator(p.Locator("#email")).ToBeFocused())
	require.NoError(t, expect.Locator(p.Locator("#organizationName")).ToHaveValue("Analytical Engines"))
	shot(t, b, "account-signup-invalid")
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("a long enough password"))
	require.NoError(t, p.GetByTestId("signup-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	require.NoError(t, expect.Locator(p.GetByTestId("flash")).ToContainText("Welcome to Crier, Ada Lovelace!"))
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner")).ToContainText(email))
	// (The test server is not in production: the banner links the dev mailbox.)
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner-mailbox")).ToHaveAttribute("href", "/dev/mailbox"))
	require.NoError(t, expect.Locator(p.GetByTestId("current-org")).ToHaveText("Analytical Engines"))
	shot(t, b, "account-home-unverified", true)

	// Resending right away is refused politely, inside the banner.
	require.NoError(t, p.GetByTestId("resend-verification").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("resend-result")).ToContainText("less than a minute ago"))

	// The menus.
	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("sign-out")).ToBeVisible())
	shot(t, b, "account-user-menu", true)
	require.NoError(t, p.Keyboard().Press("Escape"))
	require.NoError(t, expect.Locator(p.GetByTestId("sign-out")).ToBeHidden())
	require.NoError(t, p.GetByTestId("org-switcher-button").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("new-org-link")).ToBeVisible())
	shot(t, b, "account-org-menu", true)
	require.NoError(t, p.GetByText("Write once, then publish or schedule").Click()) // outside: closes
	require.NoError(t, expect.Locator(p.GetByTestId("new-org-link")).ToBeHidden())

	// The dev mailbox, opened from the banner: the verification mail, its HTML in a sandboxed frame,
	// its button followed.
	require.NoError(t, p.GetByTestId("verify-banner-mailbox").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/dev/mailbox"))
	item := p.GetByTestId("mail-item").Filter(playwright.LocatorFilterOptions{HasText: email})
	require.NoError(t, expect.Locator(item.First()).ToContainText("Email verification"))
	shot(t, b, "account-mailbox")
	require.NoError(t, item.First().Click())
	require.NoError(t, expect.Locator(p.GetByTestId("mail-subject")).ToHaveText("Verify your email address for Crier"))
	frame := p.FrameLocator(`[data-testid="mail-html"]`)
	require.NoError(t, expect.Locator(frame.GetByText("Verify my email")).ToBeVisible())
	shot(t, b, "account-mailbox-mail")
	require.NoError(t, p.GetByTestId("view-text").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("mail-text")).ToContainText("/verify-email?token="))
	shot(t, b, "account-mailbox-text")
	require.NoError(t, p.GetByTestId("view-html").Click())
	require.NoError(t, frame.GetByText("Verify my email").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/verify-email\?token=`)))
	require.NoError(t, expect.Locator(p.GetByTestId("verify-result")).ToHaveText("Your email is verified"))
	shot(t, b, "account-verified")
	require.NoError(t, p.GetByTestId("continue").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner")).ToHaveCount(0))

	// Profile: name and time zone saved in place; the top bar follows.
	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, p.GetByTestId("profile-link").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/profile"))
	require.NoError(t, p.Locator("#firstName").Fill(""))
	require.NoError(t, p.GetByTestId("profile-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#firstName-error")).ToHaveText("This field is required"))
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToBeFocused())
	shot(t, b, "account-profile-invalid")
	require.NoError(t, p.Locator("#firstName").Fill("Augusta Ada"))
	_, err = p.Locator("#timezone").SelectOption(playwright.SelectOptionValues{Values: &[]string{"Europe/London"}})
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("profile-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("form-success")).ToContainText("saved"))
	require.NoError(t, expect.Locator(p.GetByTestId("user-menu-button")).ToContainText("Augusta Ada Lovelace"))
	require.NoError(t, expect.Locator(p.Locator("#timezone")).ToHaveValue("Europe/London"))

	// Password: this browser stays signed in.
	require.NoError(t, p.Locator("#currentPassword").Fill("a long enough password"))
	require.NoError(t, p.Locator("#newPassword").Fill("an even longer password"))
	require.NoError(t, p.Locator("#confirmPassword").Fill("an even longer password"))
	require.NoError(t, p.GetByTestId("password-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("profile-password").GetByTestId("form-success")).ToContainText("Your password has been changed"))
	shot(t, b, "account-profile")
	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.Locator("h1")).ToHaveText("Profile"))

	// A second organization, then back to the first through the switcher.
	require.NoError(t, p.GetByTestId("org-switcher-button").Click())
	require.NoError(t, p.GetByTestId("new-org-link").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/organizations/new"))
	shot(t, b, "account-new-org")
	require.NoError(t, p.Locator("#name").Fill("Difference Engines Ltd"))
	require.NoError(t, p.GetByTestId("new-organization-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	require.NoError(t, expect.Locator(p.GetByTestId("current-org")).ToHaveText("Difference Engines Ltd"))
	require.NoError(t, p.GetByTestId("org-switcher-button").Click())
	shot(t, b, "account-org-menu-two", true)
	require.NoError(t, p.GetByTestId("org-list").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Analytical Engines"}).Click())
	require.NoError(t, expect.Locator(p.GetByTestId("current-org")).ToHaveText("Analytical Engines"))
	require.NoError(t, expect.Locator(p.GetByTestId("flash").First()).ToContainText("Switched to Analytical Engines"))

	// Sign out, then in again with the new password.
	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, p.GetByTestId("sign-out").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/login"))
	require.NoError(t, expect.Locator(p.GetByTestId("flash")).ToContainText("You are signed out."))
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("a long enough password"))
	require.NoError(t, p.GetByTestId("login-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("form-error")).ToHaveText("Invalid email or password"))
	require.NoError(t, expect.Locator(p.GetByTestId("form-error")).ToBeFocused())
	shot(t, b, "account-login-invalid")
	require.NoError(t, p.Locator("#password").Fill("an even longer password"))
	require.NoError(t, p.GetByTestId("login-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	require.NoError(t, expect.Locator(p.GetByTestId("user-menu-button")).ToContainText("Augusta Ada Lovelace"))

	// Signed out, /profile asks to sign in and comes back.
	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, p.GetByTestId("sign-out").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/login"))
	_, err = p.Goto("/profile")
	require.NoError(t, err)
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/login\?next=%2Fprofile$`)))
	shot(t, b, "account-login")
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("an even longer password"))
	require.NoError(t, p.GetByTestId("login-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/profile"))

	// Forgot password: the confirmation, and the reset link from the mailbox.
	require.NoError(t, p.GetByTestId("user-menu-button").Click())
	require.NoError(t, p.GetByTestId("sign-out").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/login"))
	require.NoError(t, p.GetByTestId("forgot-link").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/forgot-password"))
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.GetByTestId("forgot-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("forgot-sent")).ToContainText(email))
	shot(t, b, "account-forgot-sent")
	// The dev mailbox shows only the signed-in user's own mail: sign in (in development the password
	// is still known) to read the reset link, which then works like any other.
	_, err = p.Goto("/login")
	require.NoError(t, err)
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("an even longer password"))
	require.NoError(t, p.GetByTestId("login-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	_, err = p.Goto("/dev/mailbox")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("mail-item").Filter(playwright.LocatorFilterOptions{HasText: "Password reset"}).First().Click())
	require.NoError(t, p.GetByTestId("mail-link").First().Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/reset-password\?token=`)))
	require.NoError(t, p.Locator("#password").Fill("the third long password"))
	require.NoError(t, p.Locator("#confirmPassword").Fill("not the same"))
	require.NoError(t, p.GetByTestId("reset-submit").Click())
	require.NoError(t, expect.Locator(p.Locator("#confirmPassword-error")).ToHaveText("The two passwords do not match"))
	shot(t, b, "account-reset-invalid")
	require.NoError(t, p.Locator("#password").Fill("the third long password"))
	require.NoError(t, p.Locator("#confirmPassword").Fill("the third long password"))
	require.NoError(t, p.GetByTestId("reset-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/login"))
	require.NoError(t, expect.Locator(p.GetByTestId("flash")).ToContainText("Your password has been changed"))

	// An invitation (made through the API with this session), accepted by someone new.
	require.NoError(t, p.Locator("#email").Fill(email))
	require.NoError(t, p.Locator("#password").Fill("the third long password"))
	require.NoError(t, p.GetByTestId("login-submit").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	invitee := testEmail("lin")
	res, err := p.Context().Request().Post(b.srv.URL+"/api/v1/user/invitations", playwright.APIRequestContextPostOptions{
		Data: map[string]any{"email": invitee, "role": "ADMIN"}, Headers: map[string]string{"Sec-Fetch-Site": "same-origin"}, // as the dashboard's own pages
	})
	require.NoError(t, err)
	body, _ := res.Text()
	require.Equal(t, 201, res.Status(), body)
	_, err = p.Goto("/dev/mailbox")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("mail-item").Filter(playwright.LocatorFilterOptions{HasText: invitee}).First().Click())
	require.NoError(t, p.GetByTestId("mail-link").First().Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/invitations/accept\?token=`)))
	require.NoError(t, expect.Locator(p.GetByTestId("invitation-switch-note")).ToContainText(email))
	require.NoError(t, expect.Locator(p.GetByTestId("invitation-role")).ToHaveText("Admin"))
	require.NoError(t, expect.Locator(p.GetByTestId("invitation-inviter")).ToHaveText("Augusta Ada Lovelace"))
	require.NoError(t, p.GetByTestId("invitation-accept").Click())
	require.NoError(t, expect.Locator(p.Locator("#firstName-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.Locator("#firstName")).ToBeFocused())
	shot(t, b, "account-invitation")
	require.NoError(t, p.Locator("#firstName").Fill("Lin"))
	require.NoError(t, p.Locator("#password").Fill("lin's long password"))
	require.NoError(t, p.GetByTestId("invitation-accept").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/"))
	require.NoError(t, expect.Locator(p.GetByTestId("current-org")).ToHaveText("Analytical Engines"))
	require.NoError(t, expect.Locator(p.GetByTestId("user-menu-button")).ToContainText("Lin"))
	require.NoError(t, expect.Locator(p.GetByTestId("verify-banner")).ToHaveCount(0))
}
