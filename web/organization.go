package web

import "github.com/labstack/echo/v4"

// registerOrganization mounts the organization's pages: teams, settings (with portal branding),
// members and invitations, API keys and the audit log.
func (h *Handler) registerOrganization(e *echo.Echo, signedIn []echo.MiddlewareFunc) {
	for _, id := range []string{areaTeams, areaSettings} {
		a := areaByID(id)
		e.GET(a.Path, h.showArea(a), signedIn...).Name = a.ID
	}
}
