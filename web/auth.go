package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/session"
)

// viewerKey is where requireUser leaves the signed-in user's *app.Session in the echo context.
const viewerKey = "crier.viewer"

// requireUser lets signed-in users through with their Principal in the request context (every
// Service call of the handler is then scoped by it) and their Session in the echo context (for
// the shell). Anyone else goes to the sign-in page, which brings them back afterwards.
func (h *Handler) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ok, err := h.authenticate(c)
		if err != nil {
			return err
		}
		if !ok {
			return h.toSignIn(c)
		}
		// A signed-in page shows the organization's data (and at times a key or a link): no cache,
		// shared or the browser's, keeps it for the next user of the machine. A handler may loosen it.
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// authenticate reads the session cookie: signed in, it leaves the Principal in the request context
// and the Session in the echo context and answers true; signed out (or a session ended elsewhere,
// whose cookie it clears), false.
func (h *Handler) authenticate(c echo.Context) (bool, error) {
	sess, err := echosession.Get(SessionCookie, c)
	if err != nil && sess == nil {
		return false, err
	}
	d, ok := session.Get(sess)
	if !ok {
		return false, nil
	}
	ctx := c.Request().Context()
	p, err := h.svc.AuthenticateSession(ctx, d.UserID, d.OrganizationID, d.Generation)
	if app.ErrorCode(err) == app.EUnauthorized {
		session.Clear(sess)
		return false, sess.Save(c.Request(), c.Response())
	}
	if err != nil {
		return false, err
	}
	ctx = app.WithPrincipal(ctx, p)
	c.SetRequest(c.Request().WithContext(ctx))
	v, err := h.svc.CurrentSession(ctx)
	if err != nil {
		return false, err
	}
	c.Set(viewerKey, v)
	return true, nil
}

// viewer is the signed-in user's session (nil outside requireUser).
func viewer(c echo.Context) *app.Session {
	v, _ := c.Get(viewerKey).(*app.Session)
	return v
}

// principal is the caller of a requireUser route.
func principal(c echo.Context) *app.Principal { return app.PrincipalFrom(c.Request().Context()) }

// toSignIn redirects to the sign-in page with the current path as next (htmx: HX-Redirect).
func (h *Handler) toSignIn(c echo.Context) error {
	target := pathLogin
	if r := c.Request(); r.Method == http.MethodGet && r.URL.Path != pathHome {
		target += "?next=" + url.QueryEscape(r.URL.RequestURI())
	}
	return redirect(c, target)
}

// redirect answers a See Other, or HX-Redirect for htmx requests (htmx does not follow a 303 into
// a full page).
func redirect(c echo.Context, to string) error {
	if c.Request().Header.Get(headerHXRequest) == "true" {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// safeNext keeps a post-sign-in destination on this site: a local absolute path, else home.
func safeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return pathHome
	}
	return next
}

// signIn makes the dashboard session belong to s (sign-up, sign-in, accepting an invitation,
// switching organization).
func (h *Handler) signIn(c echo.Context, s *app.Session) error {
	sess, err := echosession.Get(SessionCookie, c)
	if err != nil && sess == nil {
		return err
	}
	if s == nil || s.CurrentOrganizationID == nil {
		return errors.New("web: sign in: session without an organization")
	}
	session.Set(sess, session.Data{UserID: s.User.ID, OrganizationID: *s.CurrentOrganizationID, Generation: s.Generation})
	return sess.Save(c.Request(), c.Response())
}

// signOut ends the dashboard session.
func (h *Handler) signOut(c echo.Context) error {
	sess, err := echosession.Get(SessionCookie, c)
	if err != nil && sess == nil {
		return err
	}
	session.Clear(sess)
	return sess.Save(c.Request(), c.Response())
}
