package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/web"
)

func TestForgotPasswordSameAnswer(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.anon(t).post("/forgot-password", url.Values{"email": {""}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Equal(t, "Enter your email address", fieldError(parse(t, rec), "email"))

	known := b.anon(t).post("/forgot-password", url.Values{"email": {b.session.User.Email}})
	unknown := b.anon(t).post("/forgot-password", url.Values{"email": {"nobody@example.com"}})
	require.Equal(t, http.StatusOK, known.Code)
	require.Equal(t, http.StatusOK, unknown.Code)
	k := parse(t, known).Find(`[data-testid="forgot-sent"]`).Text()
	u := parse(t, unknown).Find(`[data-testid="forgot-sent"]`).Text()
	require.Equal(t, strings.Replace(k, b.session.User.Email, "X", 1), strings.Replace(u, "nobody@example.com", "X", 1))
	require.Equal(t, string(app.MailResetPassword), b.lastMail(t, b.session.User.Email).Kind)

	// htmx: the card alone.
	rec = b.anon(t).post("/forgot-password", url.Values{"email": {"nobody@example.com"}}, htmx...)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Contains(t, rec.Body.String(), `data-testid="forgot-sent"`)
}

func TestResetPassword(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.session.User.Email
	require.NoError(t, b.svc.ForgotPassword(context.Background(), email))
	token := mailToken(t, b.lastMail(t, email))

	// Without a token: the link is incomplete.
	doc := parse(t, b.anon(t).get("/reset-password"))
	require.Equal(t, 1, doc.Find(`[data-testid="reset-missing-token"]`).Length())

	doc = parse(t, b.anon(t).get("/reset-password?token="+url.QueryEscape(token)))
	require.Equal(t, token, doc.Find(`input[name="token"]`).AttrOr("value", ""))

	rec := b.anon(t).post("/reset-password", url.Values{"token": {token}, "password": {"a new long password"}, "confirmPassword": {"different"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Equal(t, "The two passwords do not match", fieldError(parse(t, rec), "confirmPassword"))

	rec = b.anon(t).post("/reset-password", url.Values{"token": {token}, "password": {"short"}, "confirmPassword": {"short"}})
	require.Equal(t, "Use at least 10 characters", fieldError(parse(t, rec), "password"))

	rec = b.anon(t).post("/reset-password", url.Values{"token": {"bogus"}, "password": {"a new long password"}, "confirmPassword": {"a new long password"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="token-error"]`).Text(), "This password reset link is not valid")
	require.Equal(t, "/forgot-password", doc.Find(`[data-testid="token-error"] a`).AttrOr("href", ""))

	br := b.anon(t)
	rec = br.post("/reset-password", url.Values{"token": {token}, "password": {"a new long password"}, "confirmPassword": {"a new long password"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/login", rec.Header().Get("Location"))
	require.Contains(t, parse(t, br.get("/login")).Find(`[data-testid="flash"]`).Text(), "Your password has been changed")
	// The old session ended; the new password works.
	require.Equal(t, http.StatusSeeOther, b.user(t).get("/").Code)
	require.Equal(t, http.StatusSeeOther, b.anon(t).post("/login", url.Values{"email": {email}, "password": {"a new long password"}}).Code)
}

func TestVerifyEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	token := mailToken(t, b.lastMail(t, b.session.User.Email))

	rec := b.anon(t).get("/verify-email")
	require.Equal(t, http.StatusBadRequest, rec.Code)

	br := b.user(t)
	require.Equal(t, 1, parse(t, br.get("/")).Find(`[data-testid="verify-banner"]`).Length())
	rec = br.get("/verify-email?token=" + url.QueryEscape(token))
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "true", doc.Find(`[data-testid="verify-result"]`).AttrOr("data-verified", ""))
	require.Equal(t, "/", doc.Find(`[data-testid="continue"]`).AttrOr("href", ""))
	// Verified: no banner any more.
	require.Equal(t, 0, parse(t, br.get("/")).Find(`[data-testid="verify-banner"]`).Length())

	// Used again: a clear error; signed in, a resend button; signed out, a sign-in link.
	rec = br.get("/verify-email?token=" + url.QueryEscape(token))
	require.Equal(t, http.StatusBadRequest, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="verify-error"]`).Text(), "This verification link was already used")
	require.Equal(t, 1, doc.Find(`[data-testid="verify-resend"]`).Length())
	doc = parse(t, b.anon(t).get("/verify-email?token="+url.QueryEscape(token)))
	require.Equal(t, 0, doc.Find(`[data-testid="verify-resend"]`).Length())
	require.Equal(t, "/login", doc.Find(`[data-testid="verify-login"]`).AttrOr("href", ""))
}

func TestResendVerification(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.user(t)

	// Just signed up: the last mail is under a minute old.
	rec := br.post("/verify-email/resend", nil, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotContains(t, rec.Body.String(), "<html")
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="resend-result"]`).Text(), "less than a minute ago")
	require.True(t, doc.Find(`[data-testid="resend-result"]`).HasClass("verify-banner__result--error"))

	b.clock.Set(func() time.Time { return time.Now().Add(2 * time.Minute) })
	before, err := b.svc.Outbox(context.Background(), app.DevMailboxMaxLimit)
	require.NoError(t, err)
	rec = br.post("/verify-email/resend", nil, htmx...)
	require.Contains(t, parse(t, rec).Find(`[data-testid="resend-result"]`).Text(), "Sent.")
	after, err := b.svc.Outbox(context.Background(), app.DevMailboxMaxLimit)
	require.NoError(t, err)
	require.Len(t, after, len(before)+1)

	// Without htmx: a flash on the home page.
	b.clock.Set(func() time.Time { return time.Now().Add(4 * time.Minute) })
	rec = br.post("/verify-email/resend", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Contains(t, parse(t, br.get("/")).Find(`[data-testid="flash"]`).Text(), "Sent.")
}

func TestAcceptInvitationNewUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := uniqueEmail("lin")
	_, err := b.svc.CreateInvitation(b.ownerCtx(t), email, app.RoleAdmin)
	require.NoError(t, err)
	token := mailToken(t, b.lastMail(t, email))
	orgName := b.session.Memberships[0].OrganizationName

	doc := parse(t, b.anon(t).get("/invitations/accept?token="+url.QueryEscape(token)))
	require.Equal(t, orgName, doc.Find(`[data-testid="invitation-org"]`).Text())
	require.Equal(t, "Admin", strings.TrimSpace(doc.Find(`[data-testid="invitation-role"]`).Text()))
	require.Equal(t, "Ada", doc.Find(`[data-testid="invitation-inviter"]`).Text())
	require.Equal(t, email, doc.Find(`[data-testid="invitation-email"]`).Text())
	require.Equal(t, 1, doc.Find(`[data-testid="field-firstName"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="field-password"]`).Length())

	br := b.anon(t)
	rec := br.post("/invitations/accept", url.Values{"token": {token}, "firstName": {"Lin"}, "password": {"short"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Use at least 10 characters", fieldError(doc, "password"))
	require.Equal(t, "Lin", doc.Find(`input[name="firstName"]`).AttrOr("value", ""))
	require.Equal(t, orgName, doc.Find(`[data-testid="invitation-org"]`).Text())

	rec = br.post("/invitations/accept", url.Values{"token": {token}, "firstName": {"Lin"}, "password": {"a long enough password"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/", rec.Header().Get("Location"))
	doc = parse(t, br.get("/"))
	require.Equal(t, orgName, doc.Find(`[data-testid="current-org"]`).Text())
	require.Equal(t, "Lin", doc.Find(`[data-testid="user-name"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "You joined "+orgName)
	require.Equal(t, 0, doc.Find(`[data-testid="verify-banner"]`).Length()) // the mail proved the address

	// Used: the page explains.
	rec = b.anon(t).get("/invitations/accept?token=" + url.QueryEscape(token))
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="invitation-problem"]`).Text(), "This invitation was already used")
}

func TestAcceptInvitationExistingUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	other, err := b.svc.Signup(context.Background(), app.SignupParams{Email: uniqueEmail("bob"), Password: "a long enough password", FirstName: "Bob"})
	require.NoError(t, err)
	_, err = b.svc.CreateInvitation(b.ownerCtx(t), other.User.Email, app.RoleMember)
	require.NoError(t, err)
	token := mailToken(t, b.lastMail(t, other.User.Email))

	// Signed in as someone else: the page says who accepting signs in.
	doc := parse(t, b.user(t).get("/invitations/accept?token="+url.QueryEscape(token)))
	require.Equal(t, 0, doc.Find(`[data-testid="field-password"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="invitation-switch-note"]`).Text(), other.User.Email)

	br := b.anon(t)
	rec := br.post("/invitations/accept", url.Values{"token": {token}}, htmx...)
	require.Equal(t, "/", rec.Header().Get("HX-Redirect"))
	doc = parse(t, br.get("/"))
	require.Equal(t, b.session.Memberships[0].OrganizationName, doc.Find(`[data-testid="current-org"]`).Text())
	require.Equal(t, 2, doc.Find(`[data-testid="org-list"] li`).Length())

	// A bad token.
	rec = b.anon(t).get("/invitations/accept?token=nope")
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="invitation-problem"]`).Text(), "This invitation is not valid")
}

// The unverified banner links the dev mailbox, where the link can be read, only where the mailbox
// exists: in development, never in production.
func TestVerifyBannerLinksTheDevMailboxOutsideProduction(t *testing.T) {
	t.Parallel()
	dev := setup(t)
	banner := parse(t, dev.get(t, "/")).Find(`[data-testid="verify-banner"]`)
	require.Equal(t, 1, banner.Length())
	link := banner.Find(`a[data-testid="verify-banner-mailbox"]`)
	require.Equal(t, 1, link.Length())
	require.Equal(t, "/dev/mailbox", link.AttrOr("href", ""))
	require.Equal(t, "Open the dev mailbox", link.Text())
	require.Equal(t, http.StatusOK, dev.user(t).get(link.AttrOr("href", "")).Code)

	prod := setup(t, func(d *web.Deps) { d.Production = true })
	rec := prod.get(t, "/")
	require.Equal(t, http.StatusOK, rec.Code)
	banner = parse(t, rec).Find(`[data-testid="verify-banner"]`)
	require.Equal(t, 1, banner.Length(), "still unverified: the banner shows")
	require.Equal(t, 0, banner.Find(`[data-testid="verify-banner-mailbox"]`).Length())
	require.NotContains(t, rec.Body.String(), "/dev/mailbox")
	require.Equal(t, http.StatusNotFound, prod.get(t, "/dev/mailbox").Code)
}
