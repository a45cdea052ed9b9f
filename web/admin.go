package web

import (
	"slices"
	"strings"

	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"
)

// AdminOnly is the middleware of the instance administrators' pages (the River UI, the profiler;
// mounted by the server): the dashboard session; a signed-in user whose verified email is one of
// admins (lower-case), anyone else, signed in or not, getting the 404 of an unknown page (the pages
// are not advertised); then the CSRF check (same-origin requests pass on Sec-Fetch-Site, anything
// else needs the token, so another site cannot make an admin's browser retry or cancel jobs).
func (h *Handler) AdminOnly(admins []string) []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{echosession.Middleware(h.sessions), func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ok, err := h.authenticate(c)
			if err != nil {
				return err
			}
			if !ok {
				return echo.ErrNotFound
			}
			u := viewer(c).User
			if u.EmailVerifiedAt == nil || !slices.Contains(admins, strings.ToLower(u.Email)) {
				return echo.ErrNotFound
			}
			return next(c)
		}
	}, h.csrf}
}
