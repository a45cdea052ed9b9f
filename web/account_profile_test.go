package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/web"
)

func TestProfile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.user(t)

	rec := br.get("/profile")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Ada", doc.Find(`input[name="firstName"]`).AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="profile-email"]`).Text(), b.session.User.Email)
	require.Contains(t, doc.Find(`[data-testid="profile-email"]`).Text(), "Not verified")
	require.Positive(t, doc.Find(`select[name="timezone"] option[value="Europe/Paris"]`).Length())
	require.Contains(t, doc.Find(`select[name="timezone"] option[value="Europe/Paris"]`).Text(), "Paris (UTC+0")
	require.Equal(t, "timezone", doc.Find(`label[for="timezone"]`).AttrOr("for", ""))

	// Errors beside the fields, values kept.
	rec = br.post("/profile", url.Values{"firstName": {""}, "lastName": {"King"}, "timezone": {"Mars/Olympus"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "This field is required", fieldError(doc, "firstName"))
	require.Contains(t, fieldError(doc, "timezone"), "Unknown timezone")
	require.Equal(t, "true", doc.Find(`select[name="timezone"]`).AttrOr("aria-invalid", ""))
	require.Equal(t, "King", doc.Find(`input[name="lastName"]`).AttrOr("value", ""))

	// htmx save: the card with a confirmation, and the top bar's name out of band.
	rec = br.post("/profile", url.Values{"firstName": {"Augusta"}, "lastName": {"King"}, "timezone": {"Europe/London"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="form-success"]`).Text(), "saved")
	require.Equal(t, "Europe/London", doc.Find(`select[name="timezone"] option[selected]`).AttrOr("value", ""))
	require.Equal(t, "innerHTML", doc.Find(`#user-slot`).AttrOr("hx-swap-oob", ""))
	require.Equal(t, "Augusta King", doc.Find(`#user-slot [data-testid="user-name"]`).Text())

	// Plain post: redirect with a flash.
	rec = br.post("/profile", url.Values{"firstName": {"Ada"}, "lastName": {""}, "timezone": {"UTC"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/profile", rec.Header().Get("Location"))
	doc = parse(t, br.get("/profile"))
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Your profile has been saved.")
	require.Equal(t, "UTC", doc.Find(`select[name="timezone"] option[selected]`).AttrOr("value", ""))
	require.Empty(t, doc.Find(`input[name="lastName"]`).AttrOr("value", ""))
}

func TestChangePasswordKeepsThisSession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.user(t)

	rec := br.post("/profile/password", url.Values{"currentPassword": {"wrong password!"}, "newPassword": {"another long password"}, "confirmPassword": {"another long password"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Equal(t, "The current password is wrong", fieldError(parse(t, rec), "currentPassword"))

	rec = br.post("/profile/password", url.Values{"currentPassword": {"a long enough password"}, "newPassword": {"another long password"}, "confirmPassword": {"nope"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "The two passwords do not match", fieldError(parse(t, rec), "confirmPassword"))

	rec = br.post("/profile/password", url.Values{"currentPassword": {"a long enough password"}, "newPassword": {"short"}, "confirmPassword": {"short"}}, htmx...)
	require.Equal(t, "Use at least 10 characters", fieldError(parse(t, rec), "newPassword"))

	rec = br.post("/profile/password", url.Values{"currentPassword": {"a long enough password"}, "newPassword": {"another long password"}, "confirmPassword": {"another long password"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="form-success"]`).Text(), "Your password has been changed")
	require.NotNil(t, cookie(rec, web.SessionCookie))
	// This browser stays signed in; the old cookie (another session) does not.
	require.Equal(t, http.StatusOK, br.get("/").Code)
	require.Equal(t, http.StatusSeeOther, b.user(t).get("/").Code)
}

func TestCreateAndSwitchOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.user(t)
	first := b.session.Memberships[0]

	doc := parse(t, br.get("/organizations/new"))
	require.Equal(t, "/organizations/new", doc.Find(`form[data-testid="new-organization-form"]`).AttrOr("action", ""))

	rec := br.post("/organizations/new", url.Values{"name": {"   "}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Equal(t, "This field is required", fieldError(parse(t, rec), "name"))
	rec = br.post("/organizations/new", url.Values{"name": {strings.Repeat("x", 101)}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Use at most 100 characters", fieldError(doc, "name"))
	require.Equal(t, strings.Repeat("x", 101), doc.Find(`input[name="name"]`).AttrOr("value", ""))

	rec = br.post("/organizations/new", url.Values{"name": {"Second Org"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/", rec.Header().Get("Location"))
	doc = parse(t, br.get("/"))
	require.Equal(t, "Second Org", doc.Find(`[data-testid="current-org"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Second Org is ready")
	require.Equal(t, 2, doc.Find(`[data-testid="org-list"] li`).Length())
	// The other organization is a switch form; the current one is not.
	sw := doc.Find(`[data-testid="org-` + first.OrganizationID + `"]`)
	require.Equal(t, "submit", sw.AttrOr("type", ""))
	require.Equal(t, first.OrganizationID, sw.Closest("form").Find(`input[name="organizationId"]`).AttrOr("value", ""))
	require.Equal(t, "/organizations/switch", sw.Closest("form").AttrOr("action", ""))
	require.NotEmpty(t, sw.Closest("form").Find(`input[name="_csrf"]`).AttrOr("value", ""))
	require.Equal(t, "true", doc.Find(`[data-testid="org-list"] [aria-current="true"]`).AttrOr("aria-current", ""))

	rec = br.post("/organizations/switch", url.Values{"organizationId": {first.OrganizationID}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	doc = parse(t, br.get("/"))
	require.Equal(t, first.OrganizationName, doc.Find(`[data-testid="current-org"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Switched to "+first.OrganizationName)

	// Someone else's organization (or nonsense) is refused.
	other, err := b.svc.Signup(context.Background(), app.SignupParams{Email: uniqueEmail("eve"), Password: "a long enough password", FirstName: "Eve"})
	require.NoError(t, err)
	for _, id := range []string{*other.CurrentOrganizationID, "not-a-uuid"} {
		rec = br.post("/organizations/switch", url.Values{"organizationId": {id}})
		require.Equal(t, http.StatusSeeOther, rec.Code)
		doc = parse(t, br.get("/"))
		require.Equal(t, first.OrganizationName, doc.Find(`[data-testid="current-org"]`).Text())
		require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "not one of yours")
	}
}

func TestShellUserMenu(t *testing.T) {
	t.Parallel()
	b := setup(t)

	doc := parse(t, b.user(t).get("/teams"))
	menu := doc.Find(`[data-testid="user-menu"]`)
	require.Equal(t, "/profile", menu.Find(`[data-testid="profile-link"]`).AttrOr("href", ""))
	out := menu.Find(`[data-testid="sign-out"]`).Closest("form")
	require.Equal(t, "/logout", out.AttrOr("action", ""))
	require.Equal(t, "post", out.AttrOr("method", ""))
	require.NotEmpty(t, out.Find(`input[name="_csrf"]`).AttrOr("value", ""))
	require.Equal(t, "/organizations/new", doc.Find(`[data-testid="new-org-link"]`).AttrOr("href", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="org-placeholder"], [data-testid="user-placeholder"]`).Length())
}

func TestDevMailbox(t *testing.T) {
	t.Parallel()
	b := setup(t)
	require.NoError(t, b.svc.ForgotPassword(context.Background(), b.session.User.Email))
	mine, err := b.svc.DevMailbox(b.ctx(t), 0)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(mine), 2)

	// Signed in only; the caller's own mail, newest first; the page says it is a development tool.
	require.Equal(t, http.StatusSeeOther, b.anon(t).get("/dev/mailbox").Code)
	rec := b.user(t).get("/dev/mailbox")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="mailbox-notice"]`).Text(), "A development tool, absent in production")
	items := doc.Find(`[data-testid="mail-item"]`)
	require.Equal(t, len(mine), items.Length())
	require.Equal(t, mine[0].ID, items.First().AttrOr("data-mail-id", ""))
	require.Contains(t, items.First().Text(), "Password reset")

	// A mail: HTML in a sandboxed srcdoc iframe whose links open in the window, and its links listed.
	reset := mine[0]
	rec = b.user(t).get("/dev/mailbox/" + reset.ID)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, web.DevMailboxCSP, rec.Header().Get("Content-Security-Policy"))
	doc = parse(t, rec)
	frame := doc.Find(`iframe[data-testid="mail-html"]`)
	require.Equal(t, "allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation", frame.AttrOr("sandbox", ""))
	require.NotContains(t, frame.AttrOr("sandbox", ""), "allow-scripts")
	require.Contains(t, frame.AttrOr("srcdoc", ""), `<base target="_top">`)
	require.Contains(t, frame.AttrOr("srcdoc", ""), "Choose a new password")
	link := doc.Find(`[data-testid="mail-link"]`).First().AttrOr("href", "")
	require.Contains(t, link, "http://crier.test/reset-password?token=")
	require.Equal(t, "true", doc.Find(`[data-testid="mail-item"][data-mail-id="`+reset.ID+`"]`).AttrOr("aria-current", ""))

	// The text, with its links clickable.
	doc = parse(t, b.user(t).get("/dev/mailbox/"+reset.ID+"?view=text"))
	require.Equal(t, 0, doc.Find("iframe").Length())
	require.Equal(t, link, doc.Find(`[data-testid="mail-text"] a`).First().AttrOr("href", ""))
	require.Equal(t, "page", doc.Find(`[data-testid="view-text"]`).AttrOr("aria-current", ""))

	require.Equal(t, http.StatusNotFound, b.user(t).get("/dev/mailbox/00000000-0000-0000-0000-000000000000").Code)
	require.Equal(t, http.StatusNotFound, b.user(t).get("/dev/mailbox/nope").Code)

	// Another signed-in user (even of the same organization) neither lists nor opens this reset
	// link: reading it would be an account takeover.
	other, _ := b.addMember(t, app.RoleAdmin, "Mallory")
	doc = parse(t, b.getAs(t, other, "/dev/mailbox"))
	require.Equal(t, 0, doc.Find(`[data-testid="mail-item"][data-mail-id="`+reset.ID+`"]`).Length())
	rec = b.getAs(t, other, "/dev/mailbox/"+reset.ID)
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.NotContains(t, rec.Body.String(), "reset-password?token=")
}

func TestDevMailboxAbsentInProduction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	e := echo.New()
	web.New(web.Deps{Service: b.svc, Publishing: b.pub, Secret: testSecret, Production: true, Logger: slog.New(slog.DiscardHandler)}).Register(e)
	for _, path := range []string{"/dev/mailbox", "/dev/mailbox/" + b.lastMail(t, b.session.User.Email).ID} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, http.StatusNotFound, rec.Code, path)
	}
}
