package server

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/ratelimit"
	"github.com/crier/crier/session"
	"github.com/crier/crier/storage"
)

// shedRetry is the Retry-After of a request refused because the instance is full.
const shedRetry = time.Second

// exemptFromShedding are paths a full instance still answers: probes must tell "busy" from "dead".
var exemptFromShedding = []string{"/healthz", "/readyz"}

// shed serves at most max requests at once and refuses the next ones at once with a 503 and
// Retry-After, instead of queueing them (a flood at twice the capacity queued 21,000 requests until
// the process ran out of file descriptors).
func shed(max int) echo.MiddlewareFunc {
	slots := make(chan struct{}, max)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			for _, p := range exemptFromShedding {
				if c.Request().URL.Path == p {
					return next(c)
				}
			}
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
				return next(c)
			default:
				return &app.Error{Code: app.EUnavailable, RetryAfter: shedRetry, Message: "Crier is busy; retry shortly"}
			}
		}
	}
}

// ipExtractor is where the client's address comes from: the connection's peer, unless trusted
// proxies are configured, whose X-Forwarded-For is then believed (a client could otherwise name
// any address and escape its per-IP limits).
func ipExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// withClientIP hands the client's address to the Service (its sign-in and token throttles).
func withClientIP(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(app.WithClientIP(r.Context(), c.RealIP())))
		return next(c)
	}
}

// pagesUnlimited are paths outside the dashboard's budget: the API has its own (api/ratelimit.go),
// static files are cheap, and the sandbox twins and signed file URLs are called by Crier's own
// workers and the networks, not by a browser.
var pagesUnlimited = []string{"/api/", "/static/", "/sandbox", storage.FilesPrefix, "/healthz", "/readyz"}

// limitPages gives the dashboard a request budget per signed-in session (user and organization of
// its cookie), else per client IP, in this instance's memory.
func limitPages(policy ratelimit.Policy, store *sessions.CookieStore, now func() time.Time) echo.MiddlewareFunc {
	limiter := ratelimit.NewLimiter(now)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			for _, p := range pagesUnlimited {
				if strings.HasPrefix(r.URL.Path, p) {
					return next(c)
				}
			}
			key := "ip:" + c.RealIP()
			if d, ok := session.Load(store, r); ok {
				key = "session:" + d.UserID + ":" + d.OrganizationID
			}
			d := limiter.Allow(key, policy)
			d.SetHeaders(c.Response().Header())
			if !d.Allowed {
				return &app.Error{Code: app.ERateLimited, RetryAfter: d.RetryAfter,
					Message: "Too many requests; wait a moment and try again"}
			}
			return next(c)
		}
	}
}

// retryAfter sets the Retry-After field of a refusal that says when to come back.
func retryAfter(h http.Header, err error) {
	if d := app.RetryAfter(err); d > 0 {
		h.Set("Retry-After", strconv.Itoa(ratelimit.Seconds(d)))
	}
}
