package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/web"
)

// browser is a cookie-keeping client of the dashboard (like a browser without Sec-Fetch-Site, so
// CSRF goes through the token path).
type browser struct {
	t   *testing.T
	e   *echo.Echo
	jar map[string]*http.Cookie
}

// anon is a browser nobody signed in with.
func (b *testBundle) anon(t *testing.T) *browser {
	return &browser{t: t, e: b.e, jar: map[string]*http.Cookie{}}
}

// user is a browser signed in as the bundle's user.
func (b *testBundle) user(t *testing.T) *browser {
	br := b.anon(t)
	br.jar[web.SessionCookie] = b.cookie
	return br
}

func (br *browser) do(req *http.Request) *httptest.ResponseRecorder {
	br.t.Helper()
	for _, c := range br.jar {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	br.e.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(br.jar, c.Name)
		} else {
			br.jar[c.Name] = c
		}
	}
	return rec
}

func (br *browser) get(path string, header ...string) *httptest.ResponseRecorder {
	br.t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return br.do(req)
}

// csrf is the browser's CSRF token (a GET of a public page sets it first).
func (br *browser) csrf() string {
	br.t.Helper()
	if c, ok := br.jar["_csrf"]; ok {
		return c.Value
	}
	br.get("/forgot-password")
	c, ok := br.jar["_csrf"]
	require.True(br.t, ok, "no _csrf cookie")
	return c.Value
}

// post submits a form with the CSRF token.
func (br *browser) post(path string, form url.Values, header ...string) *httptest.ResponseRecorder {
	br.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("_csrf", br.csrf())
	return br.postRaw(path, form, header...)
}

// postRaw submits a form as is (no CSRF token added).
func (br *browser) postRaw(path string, form url.Values, header ...string) *httptest.ResponseRecorder {
	br.t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return br.do(req)
}

var htmx = []string{"HX-Request", "true"}

// fieldError is the error shown beside a field, or "".
func fieldError(doc *goquery.Document, name string) string {
	return strings.TrimSpace(doc.Find(`[data-testid="field-` + name + `"] .field__error`).Text())
}

// ownerCtx is a context acting as the bundle's user in their organization.
func (b *testBundle) ownerCtx(t *testing.T) context.Context {
	t.Helper()
	ctx := context.Background()
	p, err := b.svc.AuthenticateSession(ctx, b.session.User.ID, *b.session.CurrentOrganizationID, b.session.Generation)
	require.NoError(t, err)
	return app.WithPrincipal(ctx, p)
}

// lastMail is the newest outbox mail to the address.
func (b *testBundle) lastMail(t *testing.T, to string) app.OutboxMail {
	t.Helper()
	mails, err := b.svc.DevMailbox(context.Background(), app.DevMailboxMaxLimit)
	require.NoError(t, err)
	for _, m := range mails {
		if m.To == to {
			return m
		}
	}
	t.Fatalf("no mail to %s", to)
	return app.OutboxMail{}
}

var tokenRe = regexp.MustCompile(`token=([^\s"&<]+)`)

// mailToken is the token of the link in a mail.
func mailToken(t *testing.T, m app.OutboxMail) string {
	t.Helper()
	s := tokenRe.FindStringSubmatch(m.Text)
	require.NotNil(t, s, m.Text)
	tok, err := url.QueryUnescape(s[1])
	require.NoError(t, err)
	return tok
}

func uniqueEmail(prefix string) string {
	return prefix + "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"
}

func TestSignupPageAndSignedInRedirect(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.anon(t).get("/signup")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	for _, name := range []string{"firstName", "lastName", "email", "password", "organizationName"} {
		f := doc.Find(`[data-testid="field-` + name + `"]`)
		require.Equal(t, 1, f.Length(), name)
		id := f.Find("input").AttrOr("id", "")
		require.Equal(t, id, f.Find("label").AttrOr("for", ""), name)
	}
	form := doc.Find(`form[data-testid="signup-form"]`)
	require.Equal(t, "/signup", form.AttrOr("action", ""))
	require.Equal(t, "post", form.AttrOr("method", ""))
	require.Equal(t, "/signup", form.AttrOr("hx-post", ""))
	require.NotEmpty(t, form.Find(`input[name="_csrf"]`).AttrOr("value", ""))
	require.Equal(t, "/login", doc.Find(`[data-testid="login-link"]`).AttrOr("href", ""))
	require.Equal(t, 1, doc.Find("h1").Length())

	// Signed-in users go home from /signup and /login.
	for _, path := range []string{"/signup", "/login"} {
		rec := b.user(t).get(path)
		require.Equal(t, http.StatusSeeOther, rec.Code, path)
		require.Equal(t, "/", rec.Header().Get("Location"), path)
	}
}

func TestSignupValidationKeepsValues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.anon(t)

	rec := br.post("/signup", url.Values{"firstName": {"  "}, "lastName": {"Lovelace"}, "email": {"not-an-email"},
		"password": {"short"}, "organizationName": {"Analytical Engines"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "This field is required", fieldError(doc, "firstName"))
	require.Contains(t, fieldError(doc, "email"), "valid email")
	require.Equal(t, "Use at least 10 characters", fieldError(doc, "password"))
	require.Empty(t, fieldError(doc, "lastName"))
	// Typed values are kept; the password is not echoed.
	require.Equal(t, "Lovelace", doc.Find(`input[name="lastName"]`).AttrOr("value", ""))
	require.Equal(t, "not-an-email", doc.Find(`input[name="email"]`).AttrOr("value", ""))
	require.Equal(t, "Analytical Engines", doc.Find(`input[name="organizationName"]`).AttrOr("value", ""))
	require.Empty(t, doc.Find(`input[name="password"]`).AttrOr("value", ""))
	// Accessible errors: aria-invalid, described by the error, focus on the first invalid field.
	email := doc.Find(`input[name="email"]`)
	require.Equal(t, "true", email.AttrOr("aria-invalid", ""))
	require.Contains(t, email.AttrOr("aria-describedby", ""), "email-error")
	require.Equal(t, 1, doc.Find(`#email-error`).Length())
	require.Equal(t, 1, doc.Find("[autofocus]").Length())
	_, focus := doc.Find(`input[name="firstName"]`).Attr("autofocus")
	require.True(t, focus)
	require.Empty(t, doc.Find(`input[name="lastName"]`).AttrOr("aria-invalid", ""))

	// A registered email is refused beside the field.
	rec = br.post("/signup", url.Values{"firstName": {"Ada"}, "email": {b.session.User.Email}, "password": {"a long enough password"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Equal(t, "This email is already registered", fieldError(parse(t, rec), "email"))
}

func TestSignupSignsInAndWelcomes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.anon(t)
	email := uniqueEmail("grace")

	rec := br.post("/signup", url.Values{"firstName": {"Grace"}, "lastName": {"Hopper"}, "email": {email},
		"password": {"a long enough password"}, "organizationName": {"Compilers Inc"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	require.Equal(t, "/", rec.Header().Get("Location"))
	sess := cookie(rec, web.SessionCookie)
	require.NotNil(t, sess)
	require.True(t, sess.HttpOnly)

	home := br.get("/")
	require.Equal(t, http.StatusOK, home.Code)
	doc := parse(t, home)
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Welcome to Crier, Grace Hopper!")
	require.Equal(t, "Compilers Inc", doc.Find(`[data-testid="current-org"]`).Text())
	require.Equal(t, "Grace Hopper", doc.Find(`[data-testid="user-name"]`).Text())
	require.Equal(t, email, doc.Find(`[data-testid="user-email"]`).Text())
	// Not verified yet: the banner offers a resend.
	banner := doc.Find(`[data-testid="verify-banner"]`)
	require.Equal(t, 1, banner.Length())
	require.Contains(t, banner.Text(), email)
	require.Equal(t, "/verify-email/resend", banner.Find("form").AttrOr("hx-post", ""))
	// The verification mail went out.
	require.Equal(t, string(app.MailVerifyEmail), b.lastMail(t, email).Kind)
}

func TestSignupWithHTMX(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.anon(t)

	rec := br.post("/signup", url.Values{"firstName": {"Ada"}, "email": {"x"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code) // htmx swaps 200s only
	body := rec.Body.String()
	require.NotContains(t, body, "<html")
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find(`#signup`).Length())
	require.NotEmpty(t, fieldError(doc, "email"))
	require.Equal(t, "Ada", doc.Find(`input[name="firstName"]`).AttrOr("value", ""))

	rec = br.post("/signup", url.Values{"firstName": {"Ada"}, "email": {uniqueEmail("ada")}, "password": {"a long enough password"}}, htmx...)
	require.Equal(t, http.StatusNoContent, rec.Code)
	require.Equal(t, "/", rec.Header().Get("HX-Redirect"))
	require.NotNil(t, cookie(rec, web.SessionCookie))
}

func TestAccountPostsRequireCSRF(t *testing.T) {
	t.Parallel()
	b := setup(t)

	for _, path := range []string{"/signup", "/login", "/logout", "/forgot-password", "/reset-password", "/invitations/accept",
		"/profile", "/profile/password", "/organizations/new", "/organizations/switch", "/verify-email/resend"} {
		br := b.user(t)
		br.csrf()
		require.Equal(t, http.StatusBadRequest, br.postRaw(path, url.Values{}).Code, path+": no token")
		require.Equal(t, http.StatusForbidden, br.postRaw(path, url.Values{"_csrf": {"wrong"}}).Code, path+": wrong token")
		// The header (hx-headers) works as well as the field.
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(""))
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
		req.Header.Set(echo.HeaderXCSRFToken, br.csrf())
		rec := br.do(req)
		require.NotEqual(t, http.StatusForbidden, rec.Code, path+": header token")
		require.NotContains(t, rec.Body.String(), `data-testid="error"`, path+": header token") // not the CSRF error page
	}
}

func TestLoginErrorsAndNext(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.session.User.Email

	// Empty fields: errors beside them.
	rec := b.anon(t).post("/login", url.Values{})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Enter your email address", fieldError(doc, "email"))
	require.Equal(t, "Enter your password", fieldError(doc, "password"))

	// Wrong credentials: one message for the form, the email kept, next kept.
	rec = b.anon(t).post("/login", url.Values{"email": {email}, "password": {"wrong password!"}, "next": {"/teams"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Invalid email or password", strings.TrimSpace(doc.Find(`[data-testid="form-error"]`).Text()))
	require.Equal(t, "alert", doc.Find(`[data-testid="form-error"]`).AttrOr("role", ""))
	_, focus := doc.Find(`[data-testid="form-error"]`).Attr("autofocus") // no field to focus: the message takes it
	require.True(t, focus)
	require.Equal(t, email, doc.Find(`input[name="email"]`).AttrOr("value", ""))
	require.Equal(t, "/teams", doc.Find(`input[name="next"]`).AttrOr("value", ""))
	require.Nil(t, cookie(rec, web.SessionCookie))

	// next survives the sign-in page.
	doc = parse(t, b.anon(t).get("/login?next=%2Fteams%3Fq%3Dx"))
	require.Equal(t, "/teams?q=x", doc.Find(`input[name="next"]`).AttrOr("value", ""))

	// Success goes to next; off-site destinations go home.
	for next, want := range map[string]string{
		"/teams": "/teams", "": "/", "//evil.example": "/", "https://evil.example/x": "/", `/\evil.example`: "/",
		"javascript:alert(1)": "/",
	} {
		br := b.anon(t)
		rec := br.post("/login", url.Values{"email": {email}, "password": {"a long enough password"}, "next": {next}})
		require.Equal(t, http.StatusSeeOther, rec.Code, next)
		require.Equal(t, want, rec.Header().Get("Location"), next)
		require.Equal(t, http.StatusOK, br.get("/").Code, next)
	}
	// An off-site next is not even put in the form.
	doc = parse(t, b.anon(t).get("/login?next=%2F%2Fevil.example"))
	require.Equal(t, 0, doc.Find(`input[name="next"]`).Length())
	// Signed in: /login goes straight to a safe next.
	require.Equal(t, "/teams", b.user(t).get("/login?next=/teams").Header().Get("Location"))
	require.Equal(t, "/", b.user(t).get("/login?next=//evil.example").Header().Get("Location"))

	// htmx: HX-Redirect.
	rec = b.anon(t).post("/login", url.Values{"email": {email}, "password": {"a long enough password"}}, htmx...)
	require.Equal(t, "/", rec.Header().Get("HX-Redirect"))
}

func TestSignedInPagesSendToLoginWithNext(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.anon(t).get("/profile")
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/login?next=%2Fprofile", rec.Header().Get("Location"))
}

func TestLogout(t *testing.T) {
	t.Parallel()
	b := setup(t)
	br := b.user(t)

	rec := br.post("/logout", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/login", rec.Header().Get("Location"))
	login := br.get("/login")
	require.Equal(t, http.StatusOK, login.Code)
	require.Contains(t, parse(t, login).Find(`[data-testid="flash"]`).Text(), "You are signed out.")
	require.Equal(t, http.StatusSeeOther, br.get("/").Code)
}

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
	before, err := b.svc.DevMailbox(context.Background(), app.DevMailboxMaxLimit)
	require.NoError(t, err)
	rec = br.post("/verify-email/resend", nil, htmx...)
	require.Contains(t, parse(t, rec).Find(`[data-testid="resend-result"]`).Text(), "Sent.")
	after, err := b.svc.DevMailbox(context.Background(), app.DevMailboxMaxLimit)
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
	mails, err := b.svc.DevMailbox(context.Background(), 0)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(mails), 2)

	// No sign-in needed; newest first.
	rec := b.anon(t).get("/dev/mailbox")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	items := doc.Find(`[data-testid="mail-item"]`)
	require.Equal(t, len(mails), items.Length())
	require.Equal(t, mails[0].ID, items.First().AttrOr("data-mail-id", ""))
	require.Contains(t, items.First().Text(), "Password reset")

	// A mail: HTML in a sandboxed srcdoc iframe whose links open in the window, and its links listed.
	reset := mails[0]
	rec = b.anon(t).get("/dev/mailbox/" + reset.ID)
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
	doc = parse(t, b.anon(t).get("/dev/mailbox/"+reset.ID+"?view=text"))
	require.Equal(t, 0, doc.Find("iframe").Length())
	require.Equal(t, link, doc.Find(`[data-testid="mail-text"] a`).First().AttrOr("href", ""))
	require.Equal(t, "page", doc.Find(`[data-testid="view-text"]`).AttrOr("aria-current", ""))

	require.Equal(t, http.StatusNotFound, b.anon(t).get("/dev/mailbox/00000000-0000-0000-0000-000000000000").Code)
	require.Equal(t, http.StatusNotFound, b.anon(t).get("/dev/mailbox/nope").Code)
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

func cookie(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
