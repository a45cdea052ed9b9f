package web

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/pages/portal"
)

// The hosted portal (BaseURL/portal/<token>): a public page, no login, in the organization's
// branding, where a marketer's client connects the team's accounts. Its forms post back here
// (with CSRF like every form of Crier), then go to the network's consent page, which returns to
// the portal with the outcome in the query. An unknown or expired token is a clear page with 404.

// PortalCSP is the server's policy, except that the organization's logo may come from any https
// origin and a connect may continue to a network's consent page (another origin).
const PortalCSP = "default-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'self'; form-action 'self' https:; frame-ancestors 'none'"

var accentColour = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

func (h *Handler) portalPage(c echo.Context) error {
	var out *portal.Outcome
	q := c.QueryParams()
	n := app.Network(q.Get("type"))
	switch {
	case q.Get("success") == "true" && n.Valid():
		out = &portal.Outcome{Kind: "connected", Text: n.DisplayName() + " connected."}
	case q.Get("success") == "false":
		out = &portal.Outcome{Kind: "failed", Text: "Connecting failed: " + callbackMessage(q)}
	case app.Network(q.Get("disconnected")).Valid():
		out = &portal.Outcome{Kind: "disconnected", Text: app.Network(q.Get("disconnected")).DisplayName() + " disconnected."}
	}
	return h.renderPortal(c, c.Param("token"), out, "")
}

func (h *Handler) portalConnect(c echo.Context) error {
	token := c.Param("token")
	n := app.Network(c.FormValue("type"))
	u, err := h.svc.PortalConnect(c.Request().Context(), token, n, strings.TrimSpace(c.FormValue("serverUrl")))
	if err != nil {
		switch app.ErrorCode(err) {
		case app.EInternal:
			return err
		case app.ENotFound:
			return h.renderPortal(c, token, nil, "")
		}
		return h.renderPortal(c, token, &portal.Outcome{Kind: "failed", Text: app.ErrorMessage(err)}, c.FormValue("serverUrl"))
	}
	c.Response().Header().Set("Content-Security-Policy", PortalCSP)
	return c.Redirect(http.StatusSeeOther, u)
}

func (h *Handler) portalDisconnect(c echo.Context) error {
	token := c.Param("token")
	n := app.Network(c.FormValue("type"))
	if err := h.svc.PortalDisconnect(c.Request().Context(), token, n); err != nil {
		if app.ErrorCode(err) == app.EInternal {
			return err
		}
		return h.renderPortal(c, token, &portal.Outcome{Kind: "failed", Text: app.ErrorMessage(err)}, "")
	}
	return c.Redirect(http.StatusSeeOther, app.PortalPath+token+"?disconnected="+string(n))
}

func (h *Handler) renderPortal(c echo.Context, token string, out *portal.Outcome, serverURL string) error {
	c.Response().Header().Set("Content-Security-Policy", PortalCSP)
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer") // the token is in the URL
	v, err := h.svc.Portal(c.Request().Context(), token)
	if err != nil {
		if app.ErrorCode(err) != app.ENotFound {
			return err
		}
		p := portal.Page{Head: page("Link not available"), Message: "This connection link has expired or does not exist."}
		return render(c, http.StatusNotFound, portal.View(p), nil)
	}
	p := portal.Page{Found: true, Brand: v.OrganizationName, TeamName: v.TeamName, Base: app.PortalPath + token, Outcome: out,
		ExpiresAt: v.ExpiresAt.UTC().Format("2 January 2006, 15:04 UTC")}
	if v.BrandName != nil && strings.TrimSpace(*v.BrandName) != "" {
		p.Brand = *v.BrandName
	}
	p.Head = page(p.Brand + " – connect your accounts")
	if v.LogoURL != nil && strings.HasPrefix(*v.LogoURL, "https://") {
		p.LogoURL = *v.LogoURL
	}
	if v.AccentColor != nil && accentColour.MatchString(*v.AccentColor) {
		p.AccentCSS = "/portal-accent/" + strings.TrimPrefix(strings.ToLower(*v.AccentColor), "#") + ".css"
	}
	if v.RedirectURL != nil {
		p.ReturnURL = *v.RedirectURL
	}
	d := v.Display
	p.ReturnText = "Go back"
	if d.GoBackButtonText != "" {
		p.ReturnText = d.GoBackButtonText
	}
	if d.HideGoBackButton {
		p.ReturnText = ""
	}
	if !d.HideUserName {
		p.UserName = v.UserName
	}
	if !d.HideUserLogo && strings.HasPrefix(v.UserLogoURL, "https://") {
		p.UserLogo = v.UserLogoURL
	}
	p.PoweredBy, p.Modal, p.Max = !d.HidePoweredBy, d.ShowModalOnConnectSuccess, v.MaxConnected
	connected := map[app.Network]app.SocialAccount{}
	for _, a := range v.Connected {
		connected[a.Type] = a
	}
	for _, t := range v.AllowedTypes {
		r := portal.Row{Type: string(t), Name: t.DisplayName()}
		if info := h.svc.Network(t); info.NeedsServer {
			r.NeedsServer, r.ServerURL = true, serverURL
		}
		if a, ok := connected[t]; ok {
			r.Connected = true
			p.Connected++
			if a.DisplayName != nil {
				r.Who = *a.DisplayName
			}
			if a.Username != nil {
				r.Username = *a.Username
				if r.Who == "" {
					r.Who = r.Username
				}
			}
		}
		p.Rows = append(p.Rows, r)
	}
	return render(c, http.StatusOK, portal.View(p), nil)
}

// portalAccent answers the stylesheet giving the portal its brand colour.
func portalAccent(c echo.Context) error {
	colour := strings.TrimSuffix(c.Param("colour"), ".css")
	if !accentColour.MatchString("#" + colour) {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "text/css; charset=utf-8", []byte(".portal{--portal-accent:#"+colour+"}\n"))
}
