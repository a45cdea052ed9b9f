package web

import (
	"net/http"

	"github.com/gorilla/sessions"
	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/crier/crier/session"
	"github.com/crier/crier/views/components"
)

// SessionCookie is the name of the dashboard's session cookie.
const SessionCookie = session.Cookie

// SessionMaxAge is how long a session cookie lives, in seconds (30 days).
const SessionMaxAge = session.MaxAge

// NewSessionStore is the dashboard's cookie store (see package session); whoever else reads
// the dashboard session (the API accepts it) builds its store with the same secret.
func NewSessionStore(secret []byte, production bool) *sessions.CookieStore {
	return session.NewStore(secret, production)
}

// csrfContextKey is where echo's CSRF middleware leaves the token (read only through csrfToken).
const csrfContextKey = "csrf"

// csrfMiddleware protects state-changing dashboard requests. A token lives in the _csrf cookie and
// must come back in the X-CSRF-Token header (htmx, via hx-headers on <body>) or the _csrf form
// field (components.CSRFInput).
//
// echo checks the browser's Sec-Fetch-Site first: same-origin and direct navigations pass without
// a token, cross-site writes are refused, and on those requests the context holds the placeholder
// middleware.CSRFUsingSecFetchSite instead of a token (and no cookie is set). Rendering that
// placeholder is harmless: the browser that sent Sec-Fetch-Site sends it again with the form.
// Clients without Sec-Fetch-Site (old browsers, Go tests) use the token.
func csrfMiddleware(production bool) echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "header:" + echo.HeaderXCSRFToken + ",form:_csrf",
		ContextKey:     csrfContextKey,
		CookieName:     session.CSRFCookie,
		CookiePath:     "/",
		CookieSameSite: http.SameSiteLaxMode,
		CookieHTTPOnly: true,
		CookieSecure:   production,
	})
}

// csrfToken is the request's CSRF token ("" outside the CSRF middleware, e.g. on error pages).
func csrfToken(c echo.Context) string {
	t, _ := c.Get(csrfContextKey).(string)
	return t
}

// flashKinds is the order flashes are shown in; each kind is its own flash key in the session.
var flashKinds = []components.FlashKind{components.FlashError, components.FlashWarning, components.FlashSuccess, components.FlashInfo}

// addFlash queues a one-time message for the next page of this session.
func addFlash(c echo.Context, kind components.FlashKind, text string) error {
	sess, err := echosession.Get(SessionCookie, c)
	if err != nil {
		return err
	}
	sess.AddFlash(text, string(kind))
	return sess.Save(c.Request(), c.Response())
}

// takeFlashes removes and returns the session's flash messages. It must run before the response
// status is written, since it may set the cookie. Outside the session middleware it returns nil.
func (h *Handler) takeFlashes(c echo.Context) []components.Flash {
	sess, err := echosession.Get(SessionCookie, c)
	if err != nil {
		// No session middleware on this route, or a cookie that no longer decodes (e.g. the secret
		// changed): the latter yields a fresh session as well, which we use.
		if sess == nil {
			return nil
		}
		h.log.DebugContext(c.Request().Context(), "web: session cookie ignored", "err", err)
	}
	var out []components.Flash
	for _, k := range flashKinds {
		for _, v := range sess.Flashes(string(k)) {
			if s, ok := v.(string); ok {
				out = append(out, components.Flash{Kind: k, Text: s})
			}
		}
	}
	if len(out) > 0 {
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			h.log.WarnContext(c.Request().Context(), "web: save session", "err", err)
		}
	}
	return out
}
