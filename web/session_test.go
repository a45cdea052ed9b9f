package web

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
)

type sessionBundle struct {
	e *echo.Echo
	h *Handler
}

// setupSession mounts the dashboard plus, behind the same middleware as the public pages, a page
// that renders the flashes and the CSRF token and a form endpoint that queues a flash and
// redirects to that page. These tests need no database: the Service is never called.
func setupSession(t *testing.T, production bool) *sessionBundle {
	t.Helper()
	h := New(Deps{Service: &app.Service{}, Secret: []byte("a test secret that is long enough!"), Production: production, Logger: slog.New(slog.DiscardHandler)})
	e := echo.New()
	h.Register(e)
	mw := []echo.MiddlewareFunc{echosession.Middleware(h.sessions), h.csrf}
	e.GET("/test/page", func(c echo.Context) error {
		var b strings.Builder
		for _, f := range h.takeFlashes(c) {
			b.WriteString(`<p data-testid="flash">` + f.Text + "</p>")
		}
		b.WriteString("<p>token " + csrfToken(c) + "</p>")
		return c.HTML(http.StatusOK, b.String())
	}, mw...)
	e.POST("/test/flash", func(c echo.Context) error {
		if err := addFlash(c, components.FlashSuccess, "Saved "+c.FormValue("what")); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, "/test/page")
	}, mw...)
	return &sessionBundle{e: e, h: h}
}

func (b *sessionBundle) do(req *http.Request, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

func cookie(t *testing.T, rec *httptest.ResponseRecorder, name string) *http.Cookie {
	t.Helper()
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func postForm(form url.Values) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/test/flash", strings.NewReader(form.Encode()))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	return req
}

func TestCSRFTokenRequiredForWrites(t *testing.T) {
	t.Parallel()
	b := setupSession(t, false)

	page := b.do(httptest.NewRequest(http.MethodGet, "/test/page", nil))
	require.Equal(t, http.StatusOK, page.Code)
	csrf := cookie(t, page, "_csrf")
	require.NotNil(t, csrf)
	require.Equal(t, "/", csrf.Path)

	// No token: refused.
	require.Equal(t, http.StatusBadRequest, b.do(postForm(url.Values{"what": {"x"}}), csrf).Code)
	// Wrong token: refused.
	require.Equal(t, http.StatusForbidden, b.do(postForm(url.Values{"_csrf": {"wrong"}}), csrf).Code)
	// Form field (components.CSRFInput) and header (hx-headers) both work.
	require.Equal(t, http.StatusSeeOther, b.do(postForm(url.Values{"_csrf": {csrf.Value}}), csrf).Code)
	req := postForm(url.Values{})
	req.Header.Set(echo.HeaderXCSRFToken, csrf.Value)
	require.Equal(t, http.StatusSeeOther, b.do(req, csrf).Code)
	// A browser's cross-site write is refused whatever it carries.
	req = postForm(url.Values{"_csrf": {csrf.Value}})
	req.Header.Set(echo.HeaderSecFetchSite, "cross-site")
	require.Equal(t, http.StatusForbidden, b.do(req, csrf).Code)
	// A browser's same-origin request passes on Sec-Fetch-Site; pages then render the placeholder.
	req = httptest.NewRequest(http.MethodGet, "/test/page", nil)
	req.Header.Set(echo.HeaderSecFetchSite, "same-origin")
	rec := b.do(req)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), middleware.CSRFUsingSecFetchSite)
}

func TestFlashShownOnceThroughSession(t *testing.T) {
	t.Parallel()
	b := setupSession(t, true)

	page := b.do(httptest.NewRequest(http.MethodGet, "/test/page", nil))
	csrf := cookie(t, page, "_csrf")
	require.True(t, csrf.Secure)

	rec := b.do(postForm(url.Values{"_csrf": {csrf.Value}, "what": {"the draft"}}), csrf)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	sess := cookie(t, rec, SessionCookie)
	require.NotNil(t, sess)
	require.True(t, sess.HttpOnly)
	require.True(t, sess.Secure)
	require.Equal(t, http.SameSiteLaxMode, sess.SameSite)
	require.Equal(t, "/", sess.Path)
	require.NotContains(t, sess.Value, "the draft") // encrypted

	home := b.do(httptest.NewRequest(http.MethodGet, "/test/page", nil), csrf, sess)
	require.Contains(t, home.Body.String(), "Saved the draft")
	require.Contains(t, home.Body.String(), `data-testid="flash"`)
	next := cookie(t, home, SessionCookie)
	require.NotNil(t, next)

	again := b.do(httptest.NewRequest(http.MethodGet, "/test/page", nil), csrf, next)
	require.NotContains(t, again.Body.String(), "Saved the draft")
}

func TestForgedSessionCookieIsIgnored(t *testing.T) {
	t.Parallel()
	b := setupSession(t, false)

	// Treated as no session: the page is served and a dashboard page asks to sign in.
	rec := b.do(httptest.NewRequest(http.MethodGet, "/test/page", nil), &http.Cookie{Name: SessionCookie, Value: "forged"})
	require.Equal(t, http.StatusOK, rec.Code)
	rec = b.do(httptest.NewRequest(http.MethodGet, "/", nil), &http.Cookie{Name: SessionCookie, Value: "forged"})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, pathLogin, rec.Header().Get(echo.HeaderLocation))
}

func TestRouteNames(t *testing.T) {
	t.Parallel()
	b := setupSession(t, false)

	require.Equal(t, pathHome, b.e.Reverse(routeHome))
	require.Equal(t, pathDocs, b.e.Reverse(routeDocs))
	built := 0
	for _, a := range areas {
		require.Equal(t, a.Path, b.e.Reverse(a.ID))
		if a.Built {
			built++
		}
	}
	nav := 0
	for _, g := range b.h.nav {
		nav += len(g.Items)
	}
	require.Equal(t, built+2, nav) // the built areas, home and docs
}
