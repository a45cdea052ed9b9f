package web

import "github.com/labstack/echo/v4"

// registerMedia mounts the media library: uploads with progress, the grid, filters, deletion and
// the picker the composer reuses.
func (h *Handler) registerMedia(e *echo.Echo, signedIn []echo.MiddlewareFunc) {
	a := areaByID(areaMedia)
	e.GET(a.Path, h.showArea(a), signedIn...).Name = a.ID
}
