package web_test

import (
	"context"
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
	mails, err := b.svc.Outbox(context.Background(), app.DevMailboxMaxLimit)
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

func cookie(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
