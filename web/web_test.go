package web_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/app/publishing"
	"github.com/crier/crier/session"
	"github.com/crier/crier/store/storetest"
	"github.com/crier/crier/web"
)

// strictCSP stands in for the server's CSP, which /docs must override.
const strictCSP = "default-src 'self'"

// testSecret keys the session cookie in these tests.
var testSecret = []byte("0123456789abcdef0123456789abcdef")

func operational() *app.Health {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := &app.Health{Status: app.StatusOperational, CreatedAt: now, Note: "All systems operational", Platforms: map[app.Network]app.PlatformStatus{}}
	for _, n := range app.Networks {
		h.Platforms[n] = app.PlatformStatus{Status: app.StatusOperational, Note: "No known issues"}
	}
	return h
}

type testBundle struct {
	e       *echo.Echo
	svc     *app.Service
	pub     *publishing.Service
	clock   *apptest.Clock // the Service's
	pool    *pgxpool.Pool
	session *app.Session // the signed-in user (sign-up through the Service)
	cookie  *http.Cookie // their session cookie, sent by get
}

// setup mounts the dashboard over a real Service on a fresh database, on an Echo configured like
// the server (request ids, a strict CSP, an error handler that renders ErrorPage), and signs a new
// user up. deps adjust the dashboard's dependencies (e.g. a sandbox).
func setup(t *testing.T, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	return setupService(t, nil, nil, deps...)
}

// setupService is setup with the Service's settings adjusted by settings and its dependencies by
// with (either may be nil), as the server's configuration would.
func setupService(t *testing.T, settings func(*app.Options), with func(*app.Deps), deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	pool, _ := storetest.NewDB(t)
	clock := apptest.NewClock()
	opts := app.Options{BaseURL: "http://crier.test", Secret: testSecret, Now: clock.Now}
	if settings != nil {
		settings(&opts)
	}
	var adjust []func(*app.Deps)
	if with != nil {
		adjust = append(adjust, with)
	}
	svc := apptest.New(t, pool, opts, adjust...)
	pub := apptest.Publishing(t, svc)
	e := echo.New()
	e.Use(middleware.RequestID())
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{ContentSecurityPolicy: strictCSP}))
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		status := http.StatusInternalServerError
		message := "Internal Server Error"
		var he *echo.HTTPError
		if errors.As(err, &he) {
			status = he.Code
			message = http.StatusText(status)
		}
		require.NoError(t, web.ErrorPage(c, status, message, c.Response().Header().Get(echo.HeaderXRequestID)))
	}
	d := web.Deps{Service: svc, Publishing: pub, Secret: testSecret, Logger: slog.New(slog.DiscardHandler)}
	for _, f := range deps {
		f(&d)
	}
	web.New(d).Register(e)
	sess, err := svc.Signup(context.Background(), app.SignupParams{Email: "ada-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com",
		Password: "a long enough password", FirstName: "Ada"})
	require.NoError(t, err)
	cookie, err := session.NewCookie(web.NewSessionStore(testSecret, false), session.Data{UserID: sess.User.ID, OrganizationID: *sess.CurrentOrganizationID, Generation: sess.Generation})
	require.NoError(t, err)
	return &testBundle{e: e, svc: svc, pub: pub, clock: clock, pool: pool, session: sess, cookie: cookie}
}

// setHealth records the statuses of h through the Service, as the operator's CLI does.
func (b *testBundle) setHealth(t *testing.T, h *app.Health) {
	t.Helper()
	for n, p := range h.Platforms {
		_, err := b.svc.SetPlatformStatus(context.Background(), app.SetPlatformStatusParams{Network: n, Status: p.Status, Note: p.Note, Until: p.Until})
		require.NoError(t, err)
	}
}

func (b *testBundle) get(t *testing.T, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.AddCookie(b.cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

func parse(t *testing.T, rec *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(rec.Body.String()))
	require.NoError(t, err)
	return doc
}

var navIDs = []string{"home", "teams", "composer", "calendar", "posts", "media", "webhooks", "settings", "docs"}

var areaPaths = map[string]string{
	"inbox": "/inbox", "automations": "/automations",
	"bio":     "/bio",
	"billing": "/billing",
}

func TestHomeRendersLayout(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "text/html; charset=UTF-8", rec.Header().Get("Content-Type"))
	doc := parse(t, rec)

	require.Equal(t, "en", doc.Find("html").AttrOr("lang", ""))
	require.Equal(t, "Home · Crier", doc.Find("title").Text())
	require.Equal(t, `{"includeIndicatorStyles":false,"attributesToSettle":["class","width","height"]}`, doc.Find(`meta[name="htmx-config"]`).AttrOr("content", ""))
	require.Equal(t, 1, doc.Find(`link[rel="icon"]`).Length())
	require.Equal(t, 1, doc.Find(`a.skip-link[href="#main"]`).Length())
	require.Equal(t, 1, doc.Find("nav[aria-label]").Length())
	require.Equal(t, 1, doc.Find("header.topbar").Length())
	require.Equal(t, 1, doc.Find("main#main").Length())
	require.Equal(t, 1, doc.Find("h1").Length())
	for _, id := range navIDs {
		link := doc.Find(`nav [data-testid="nav-` + id + `"]`)
		require.Equal(t, 1, link.Length(), id)
		require.NotEmpty(t, link.AttrOr("href", ""), id)
	}
	require.Equal(t, "page", doc.Find(`[data-testid="nav-home"]`).AttrOr("aria-current", ""))
	require.Equal(t, 1, doc.Find(`[aria-current="page"]`).Length())

	// No inline scripts or styles: the CSP forbids them.
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		require.NotEmpty(t, s.AttrOr("src", ""))
		require.Empty(t, strings.TrimSpace(s.Text()))
	})
	require.Equal(t, 0, doc.Find("style, [style]").Length())

	// Every htmx request carries the CSRF token, which the CSRF cookie holds.
	var csrfCookie *http.Cookie
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "_csrf" {
			csrfCookie = ck
		}
	}
	require.NotNil(t, csrfCookie)
	require.True(t, csrfCookie.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, csrfCookie.SameSite)
	require.Equal(t, `{"X-CSRF-Token":"`+csrfCookie.Value+`"}`, doc.Find("body").AttrOr("hx-headers", ""))
}

func TestHomeShowsChecklistStatsAndNetworks(t *testing.T) {
	t.Parallel()
	health := operational()
	until := time.Date(2099, 1, 15, 14, 0, 0, 0, time.UTC)
	health.Status = app.StatusDegraded
	health.Platforms[app.Twitter] = app.PlatformStatus{Status: app.StatusOutage, Note: "Posting fails"}
	health.Platforms[app.Reddit] = app.PlatformStatus{Status: app.StatusMaintenance, Note: "Planned maintenance", Until: &until}
	b := setup(t)
	b.setHealth(t, health)

	doc := parse(t, b.get(t, "/"))

	steps := map[string]string{"connect": "/teams", "upload": "/media", "compose": "/composer", "api-key": "/settings"}
	for id, href := range steps {
		require.Equal(t, href, doc.Find(`[data-testid="step-`+id+`"] a`).AttrOr("href", ""), id)
	}
	require.Equal(t, "0", doc.Find(`[data-testid="progress"] progress`).AttrOr("value", ""))
	require.Equal(t, "4", doc.Find(`[data-testid="progress"] progress`).AttrOr("max", ""))
	for _, id := range []string{"stat-scheduled", "stat-published", "stat-failed"} {
		require.Equal(t, "0", doc.Find(`[data-testid="`+id+`-value"]`).Text(), id)
	}

	rows := doc.Find(`[data-testid="network-status"] li[data-testid^="network-"]`)
	require.Equal(t, len(app.Networks), rows.Length())
	rows.Each(func(i int, s *goquery.Selection) {
		require.Equal(t, "network-"+string(app.Networks[i]), s.AttrOr("data-testid", ""))
	})
	x := doc.Find(`[data-testid="network-TWITTER"]`)
	require.Contains(t, x.Text(), "X")
	require.Equal(t, "danger", x.Find(`[data-testid="status-pill"]`).AttrOr("data-tone", ""))
	require.Equal(t, "Outage", x.Find(`[data-testid="status-pill"]`).Text())
	reddit := doc.Find(`[data-testid="network-REDDIT"]`)
	require.Equal(t, "Maintenance", reddit.Find(`[data-testid="status-pill"]`).Text())
	require.Contains(t, reddit.Text(), "until Jan 15, 14:00 UTC")
	require.Equal(t, "Operational", doc.Find(`[data-testid="network-TIKTOK"] [data-testid="status-pill"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="network-status"]`).Text(), "Crier is operational; some networks report issues: Reddit (maintenance), X (outage)")
}

func TestHomeHealthErrorIsServerErrorPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.pool.Close() // the database goes away

	rec := b.get(t, "/")
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find(`[data-testid="server-error"]`).Length())
	require.Equal(t, rec.Header().Get(echo.HeaderXRequestID), doc.Find(`[data-testid="request-id"] code`).Text())
	require.NotContains(t, rec.Body.String(), "closed pool")
}

func TestAreaPages(t *testing.T) {
	t.Parallel()
	b := setup(t)

	for id, path := range areaPaths {
		rec := b.get(t, path)
		require.Equal(t, http.StatusOK, rec.Code, path)
		doc := parse(t, rec)
		// Not built: no sidebar entry, so nothing in the sidebar is the current page.
		require.Equal(t, 0, doc.Find(`[data-testid="nav-`+id+`"]`).Length(), path)
		require.Equal(t, 0, doc.Find(`[aria-current="page"]`).Length(), path)
		require.Equal(t, 1, doc.Find(`[data-testid="area-`+id+`"]`).Length(), path)
		require.Contains(t, doc.Find(`[data-testid="empty-state"] h2`).Text(), "Coming in a later release", path)
		require.Positive(t, doc.Find(`[data-testid="area-plans"] li`).Length(), path)
		require.Equal(t, "/", doc.Find(`[data-testid="empty-state-action"]`).AttrOr("href", ""), path)
		// Headings in order: one h1, then h2.
		require.Equal(t, 1, doc.Find("h1").Length(), path)
	}
}

func TestFragmentForHTMXRequests(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/inbox", "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "text/html; charset=UTF-8", rec.Header().Get("Content-Type"))
	require.Contains(t, rec.Header().Values("Vary"), "HX-Request")
	body := rec.Body.String()
	require.NotContains(t, body, "<html")
	require.NotContains(t, body, "<nav")
	require.Contains(t, body, `data-testid="area-inbox"`)

	home := b.get(t, "/", "HX-Request", "true")
	require.NotContains(t, home.Body.String(), "<html")
	require.Contains(t, home.Body.String(), `data-testid="network-status"`)

	// Boosted requests swap the whole body: they get the full page.
	boosted := b.get(t, "/inbox", "HX-Request", "true", "HX-Boosted", "true")
	require.Contains(t, boosted.Body.String(), "<html")
}

func TestNotFoundPage(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/no/such/page")
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Equal(t, "text/html; charset=UTF-8", rec.Header().Get("Content-Type"))
	doc := parse(t, rec)
	require.Equal(t, "en", doc.Find("html").AttrOr("lang", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="not-found"]`).Length())
	require.Equal(t, "/", doc.Find(`[data-testid="home-link"]`).AttrOr("href", ""))
	require.Equal(t, 1, doc.Find("main h1").Length())
	require.Equal(t, 0, doc.Find(`[data-testid="request-id"]`).Length())
}

func TestErrorPageByStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status  int
		testID  string
		text    string
		showsID bool
	}{
		{http.StatusNotFound, "not-found", "Page not found", false},
		{http.StatusInternalServerError, "server-error", "Something went wrong", true},
		{http.StatusBadGateway, "server-error", "Something went wrong", true},
		{http.StatusForbidden, "error", "invalid csrf token", true},
	} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			t.Parallel()
			e := echo.New()
			rec := httptest.NewRecorder()
			c := e.NewContext(httptest.NewRequest(http.MethodGet, "/x", nil), rec)
			require.NoError(t, web.ErrorPage(c, tc.status, "invalid csrf token", "req-123"))
			require.Equal(t, tc.status, rec.Code)
			doc := parse(t, rec)
			panel := doc.Find(`[data-testid="` + tc.testID + `"]`)
			require.Equal(t, 1, panel.Length())
			require.Contains(t, panel.Text(), tc.text)
			require.Equal(t, tc.showsID, strings.Contains(rec.Body.String(), "req-123"))
			require.Equal(t, "/", doc.Find(`[data-testid="home-link"]`).AttrOr("href", ""))
		})
	}
}

func TestDocsPage(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/docs")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, web.DocsCSP, rec.Header().Get("Content-Security-Policy"))
	require.Len(t, rec.Header().Values("Content-Security-Policy"), 1)
	doc := parse(t, rec)
	require.Equal(t, web.OpenAPIPath, doc.Find("#redoc").AttrOr("data-spec-url", ""))

	var srcs []string
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		src := s.AttrOr("src", "")
		require.NotEmpty(t, src, "inline script")
		require.Empty(t, strings.TrimSpace(s.Text()))
		srcs = append(srcs, src[:strings.Index(src+"?", "?")])
	})
	require.Contains(t, srcs, "/static/vendor/redoc.standalone.js")
	require.Contains(t, srcs, "/static/js/docs.js")
	require.Less(t, indexOf(srcs, "/static/vendor/redoc.standalone.js"), indexOf(srcs, "/static/js/docs.js"))

	// Every script the page loads is served.
	for _, src := range srcs {
		res := b.get(t, src)
		require.Equal(t, http.StatusOK, res.Code, src)
	}
	// The strict CSP stays on dashboard pages.
	require.Equal(t, strictCSP, b.get(t, "/").Header().Get("Content-Security-Policy"))
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestStaticAssets(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/static/js/htmx.min.js")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "text/javascript; charset=utf-8", rec.Header().Get("Content-Type"))
	require.Equal(t, web.StaticCacheControl, rec.Header().Get("Cache-Control"))
	require.Equal(t, "public, max-age=3600", rec.Header().Get("Cache-Control"))
	require.True(t, strings.HasPrefix(rec.Body.String(), "var htmx="))
	require.Contains(t, rec.Body.String(), `version:"2.0.11"`)
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)
	require.Equal(t, http.StatusNotModified, b.get(t, "/static/js/htmx.min.js", "If-None-Match", etag).Code)

	for path, ctype := range map[string]string{
		"/static/css/app.css":                "text/css; charset=utf-8",
		"/static/img/favicon.svg":            "image/svg+xml",
		"/static/js/app.js":                  "text/javascript; charset=utf-8",
		"/static/vendor/redoc.standalone.js": "text/javascript; charset=utf-8",
	} {
		res := b.get(t, path)
		require.Equal(t, http.StatusOK, res.Code, path)
		require.Equal(t, ctype, res.Header().Get("Content-Type"), path)
	}
	for _, path := range []string{"/static/", "/static/js", "/static/js/", "/static/nope.js", "/static/../web.go", "/static/static.go"} {
		require.Equal(t, http.StatusNotFound, b.get(t, path).Code, path)
	}
}

func TestPageAssetsAreServed(t *testing.T) {
	t.Parallel()
	b := setup(t)

	doc := parse(t, b.get(t, "/"))
	var urls []string
	doc.Find(`link[href^="/static/"]`).Each(func(_ int, s *goquery.Selection) { urls = append(urls, s.AttrOr("href", "")) })
	doc.Find(`script[src]`).Each(func(_ int, s *goquery.Selection) { urls = append(urls, s.AttrOr("src", "")) })
	require.Len(t, urls, 4) // favicon, css, app.js, htmx
	for _, u := range urls {
		require.Contains(t, u, "?v=")
		res := b.get(t, u)
		require.Equal(t, http.StatusOK, res.Code, u)
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.NotEmpty(t, body, u)
	}
}
