package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/pages/portal"
)

// The password page (BaseURL/connect/<network>?state=…) of networks that connect with an app
// password instead of OAuth (Bluesky): a public page in the branding of the organization the
// account joins, like the portal. The form posts back here (CSRF-checked like every form); the
// outcome goes to the connect's redirectUrl as an OAuth callback's would. The password is used
// once to open a session and never stored.

const pathConnectPassword = app.PasswordPagePath + ":network"

// connectPasswordPage serves GET /connect/:network?state=.
func (h *Handler) connectPasswordPage(c echo.Context) error {
	n, ok := app.NetworkFromPath(c.Param("network"))
	if !ok {
		return echo.ErrNotFound
	}
	return h.renderPasswordPage(c, http.StatusOK, n, c.QueryParam("state"), "", "")
}

// connectPasswordSubmit serves POST /connect/:network: a refused password asks again with the
// handle kept; every other outcome goes where the connect said, else says it is done.
func (h *Handler) connectPasswordSubmit(c echo.Context) error {
	n, ok := app.NetworkFromPath(c.Param("network"))
	if !ok {
		return echo.ErrNotFound
	}
	state, identifier := c.FormValue("state"), c.FormValue("identifier")
	res := h.svc.CompletePasswordConnect(c.Request().Context(), n, state, identifier, c.FormValue("password"))
	if res.RedirectURL != "" {
		return c.Redirect(http.StatusSeeOther, res.RedirectURL)
	}
	if res.Err != nil {
		return h.renderPasswordPage(c, http.StatusUnprocessableEntity, n, state, identifier, app.ErrorMessage(res.Err))
	}
	return h.renderPasswordPage(c, http.StatusOK, n, "", "", "")
}

// renderPasswordPage shows the page for state; an invalid state is a 400 page without the form.
// No state and no problem means the account was connected.
func (h *Handler) renderPasswordPage(c echo.Context, status int, n app.Network, state, identifier, problem string) error {
	c.Response().Header().Set("Content-Security-Policy", PortalCSP)
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer") // the state is in the URL
	p := portal.Password{Network: string(n), Name: n.DisplayName(), Brand: "Crier", Action: app.PasswordPagePath + strings.ToLower(string(n)),
		Identifier: identifier, Error: problem, Done: state == "" && problem == ""}
	if state != "" {
		v, err := h.svc.PasswordPage(c.Request().Context(), n, state)
		switch {
		case err == nil:
			p.State, p.Brand, p.TeamName, p.Server, p.Sandbox, p.BackURL = state, v.Brand, v.TeamName, v.Server, v.Sandbox, v.BackURL
			if v.LogoURL != nil && strings.HasPrefix(*v.LogoURL, "https://") {
				p.LogoURL = *v.LogoURL
			}
			if v.AccentColor != nil && accentColour.MatchString(*v.AccentColor) {
				p.AccentCSS = "/portal-accent/" + strings.TrimPrefix(strings.ToLower(*v.AccentColor), "#") + ".css"
			}
		case app.ErrorCode(err) == app.EInternal:
			return err
		default:
			status, p.Error = http.StatusBadRequest, "This connection link has expired or is not valid. "+app.ErrorMessage(err)
		}
	} else if problem == "" && c.Request().Method == http.MethodGet {
		status, p.Error, p.Done = http.StatusBadRequest, "This connection link is not complete.", false
	}
	p.Head = page("Connect " + p.Name)
	return render(c, status, portal.PasswordView(p), nil)
}
