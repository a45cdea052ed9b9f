package web

import "github.com/labstack/echo/v4"

// registerWebhooks mounts the webhooks pages (list, create, edit, secret, test, deliveries) and the
// notifications page.
func (h *Handler) registerWebhooks(e *echo.Echo, signedIn []echo.MiddlewareFunc) {
	a := areaByID(areaWebhooks)
	e.GET(a.Path, h.showArea(a), signedIn...).Name = a.ID
}
