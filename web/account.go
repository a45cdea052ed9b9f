package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// registerAccount mounts the account pages: sign-up, sign-in, sign-out, password reset, email
// verification, invitations, profile, organization creation and switching, the dev mailbox.
func (h *Handler) registerAccount(e *echo.Echo, public, signedIn []echo.MiddlewareFunc) {
}

// viewerSlots are the top bar's organization switcher and user menu for the signed-in user (nil
// slots show placeholders).
func (h *Handler) viewerSlots(c echo.Context) (org, user templ.Component) {
	return nil, nil
}
