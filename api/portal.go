package api

import (
	"context"
	"html/template"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// SocialAccountCreatePortalLink answers POST /social-account/create-portal-link with the portal URL.
func (s *Server) SocialAccountCreatePortalLink(ctx context.Context, req SocialAccountCreatePortalLinkRequestObject) (SocialAccountCreatePortalLinkResponseObject, error) {
	b := req.Body
	types := make([]app.Network, 0, len(b.SocialAccountTypes))
	for _, t := range b.SocialAccountTypes {
		types = append(types, app.Network(t))
	}
	p := app.PortalLinkParams{TeamID: b.TeamId, Types: types, RedirectURL: deref(b.RedirectUrl), ServerURL: deref(b.ServerUrl),
		ExpiresIn: b.ExpiresIn, LogoURL: deref(b.LogoUrl), UserName: deref(b.UserName), UserLogoURL: deref(b.UserLogoUrl),
		Options: app.ConnectOptions{DisableAutoLogin: flag(b.DisableAutoLogin), TikTokForceLogin: flag(b.TiktokForceLogin),
			ForceBrowserOAuth: flag(b.ForceBrowserOAuth), WithBusinessScope: flag(b.WithBusinessScope)}}
	if b.InstagramConnectionMethod != nil {
		p.Options.InstagramConnectionMethod = string(*b.InstagramConnectionMethod)
	}
	u, err := s.svc.CreatePortalLink(ctx, p)
	if err != nil {
		return nil, err
	}
	return SocialAccountCreatePortalLink200JSONResponse{Url: u}, nil
}

// PortalGet answers GET /portal/{token} (no key: the token is the credential).
func (s *Server) PortalGet(ctx context.Context, req PortalGetRequestObject) (PortalGetResponseObject, error) {
	v, err := s.svc.Portal(ctx, req.Token)
	if err != nil {
		return nil, err
	}
	return PortalGet200JSONResponse(toPortalView(v)), nil
}

// PortalConnect answers POST /portal/{token}/connect with the consent URL.
func (s *Server) PortalConnect(ctx context.Context, req PortalConnectRequestObject) (PortalConnectResponseObject, error) {
	u, err := s.svc.PortalConnect(ctx, req.Token, app.Network(req.Body.Type), deref(req.Body.ServerUrl))
	if err != nil {
		return nil, err
	}
	return PortalConnect200JSONResponse{Url: u}, nil
}

// PortalDisconnect answers POST /portal/{token}/disconnect.
func (s *Server) PortalDisconnect(ctx context.Context, req PortalDisconnectRequestObject) (PortalDisconnectResponseObject, error) {
	if err := s.svc.PortalDisconnect(ctx, req.Token, app.Network(req.Body.Type)); err != nil {
		return nil, err
	}
	return PortalDisconnect200JSONResponse{Success: true}, nil
}

func toPortalView(v *app.PortalView) PortalView {
	exp := v.ExpiresAt
	out := PortalView{OrganizationName: v.OrganizationName, BrandName: v.BrandName, LogoUrl: v.LogoURL, AccentColor: v.AccentColor,
		TeamName: v.TeamName, RedirectUrl: v.RedirectURL, ExpiresAt: &exp, AllowedTypes: []string{}}
	for _, t := range v.AllowedTypes {
		out.AllowedTypes = append(out.AllowedTypes, string(t))
	}
	type item = struct {
		AvatarUrl   *string `json:"avatarUrl,omitempty"`
		DisplayName *string `json:"displayName,omitempty"`
		Type        *string `json:"type,omitempty"`
		Username    *string `json:"username,omitempty"`
	}
	connected := make([]item, 0, len(v.Connected))
	for _, a := range v.Connected {
		t := string(a.Type)
		connected = append(connected, item{AvatarUrl: a.AvatarURL, DisplayName: a.DisplayName, Type: &t, Username: a.Username})
	}
	out.Connected = &connected
	return out
}

// The portal page (BaseURL/portal/<token>): a minimal branded page, served without login, whose
// buttons are plain forms posting to /portal/<token>/connect|disconnect (same origin, so the page
// needs no script). An unknown or expired token shows a clear page with 404.
var portalPage = template.Must(template.New("portal").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Brand}} – connect your accounts</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem">
{{if .View}}<header style="border-bottom:4px solid {{.Accent}};padding-bottom:.5rem">
{{with .View.LogoURL}}<img src="{{.}}" alt="" style="max-height:48px">{{end}}
<h1>{{.Brand}}</h1><p>Connect the accounts of <strong>{{.View.TeamName}}</strong>.</p></header>
{{with .Outcome}}<p role="status" data-outcome="{{.Kind}}">{{.Text}}</p>{{end}}
<ul style="list-style:none;padding:0">{{range .Rows}}
<li style="display:flex;gap:1rem;align-items:center;padding:.5rem 0;border-bottom:1px solid #ddd" data-network="{{.Type}}">
<span style="flex:1"><strong>{{.Name}}</strong>{{if .Connected}} — {{.Who}}{{end}}</span>
{{if .Connected}}<form method="post" action="{{$.Base}}/disconnect"><input type="hidden" name="type" value="{{.Type}}"><button>Disconnect</button></form>
{{else}}<form method="post" action="{{$.Base}}/connect"><input type="hidden" name="type" value="{{.Type}}">{{if .NeedsServer}}<input name="serverUrl" placeholder="https://mastodon.social" required>{{end}}<button style="background:{{$.Accent}};color:#fff;border:0;padding:.4rem .9rem">Connect</button></form>{{end}}
</li>{{end}}</ul>
<p><small>Link valid until {{.View.ExpiresAt.Format "2006-01-02 15:04 MST"}}.</small></p>
{{else}}<h1>Link not available</h1><p>{{.Message}}</p>{{end}}
</body></html>`))

var accentRE = regexp.MustCompile(`^#[0-9a-fA-F]{3,8}$`)

type portalRow struct {
	Type, Name, Who        string
	Connected, NeedsServer bool
}

// RegisterPortalPage mounts the portal page and its form posts.
func RegisterPortalPage(e *echo.Echo, svc *app.Service) {
	render := func(c echo.Context, token string, outcome map[string]string) error {
		v, err := svc.Portal(c.Request().Context(), token)
		data := map[string]any{"Base": app.PortalPath + token, "Accent": "#4f46e5", "Outcome": outcome}
		status := http.StatusOK
		if err != nil {
			if app.ErrorCode(err) != app.ENotFound {
				return err
			}
			status, data["Message"] = http.StatusNotFound, app.ErrorMessage(err)
		} else {
			data["View"] = v
			data["Brand"] = v.OrganizationName
			if v.BrandName != nil && *v.BrandName != "" {
				data["Brand"] = *v.BrandName
			}
			if v.AccentColor != nil && accentRE.MatchString(*v.AccentColor) {
				data["Accent"] = *v.AccentColor
			}
			connected := map[app.Network]app.SocialAccount{}
			for _, a := range v.Connected {
				connected[a.Type] = a
			}
			var rows []portalRow
			for _, t := range v.AllowedTypes {
				r := portalRow{Type: string(t), Name: t.DisplayName(), NeedsServer: t == app.Mastodon}
				if a, ok := connected[t]; ok {
					r.Connected = true
					switch {
					case a.DisplayName != nil:
						r.Who = *a.DisplayName
					case a.Username != nil:
						r.Who = *a.Username
					}
				}
				rows = append(rows, r)
			}
			data["Rows"] = rows
		}
		c.Response().Header().Set("Content-Type", "text/html; charset=utf-8")
		c.Response().Header().Set("Cache-Control", "no-store")
		c.Response().Header().Set("Referrer-Policy", "no-referrer") // the token is in the URL
		// Connect posts here, then redirects to the network's consent page (another origin); logos are
		// the organization's own URLs; the page styles itself inline with the brand's accent.
		c.Response().Header().Set("Content-Security-Policy", "default-src 'none'; img-src https: data: 'self'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'")
		c.Response().WriteHeader(status)
		return portalPage.Execute(c.Response(), data)
	}
	e.GET(app.PortalPath+":token", func(c echo.Context) error {
		var outcome map[string]string
		switch c.QueryParam("success") {
		case "true":
			outcome = map[string]string{"Kind": "connected", "Text": app.Network(c.QueryParam("type")).DisplayName() + " connected."}
		case "false":
			outcome = map[string]string{"Kind": "failed", "Text": "Connecting failed: " + c.QueryParam("message")}
		}
		return render(c, c.Param("token"), outcome)
	})
	e.POST(app.PortalPath+":token/connect", func(c echo.Context) error {
		token := c.Param("token")
		u, err := svc.PortalConnect(c.Request().Context(), token, app.Network(c.FormValue("type")), c.FormValue("serverUrl"))
		if err != nil {
			if app.ErrorCode(err) == app.ENotFound {
				return render(c, token, nil)
			}
			return render(c, token, map[string]string{"Kind": "failed", "Text": app.ErrorMessage(err)})
		}
		c.Response().Header().Set("Content-Security-Policy", "form-action *")
		return c.Redirect(http.StatusSeeOther, u)
	})
	e.POST(app.PortalPath+":token/disconnect", func(c echo.Context) error {
		token := c.Param("token")
		n := app.Network(c.FormValue("type"))
		if err := svc.PortalDisconnect(c.Request().Context(), token, n); err != nil {
			return render(c, token, map[string]string{"Kind": "failed", "Text": app.ErrorMessage(err)})
		}
		return c.Redirect(http.StatusSeeOther, app.PortalPath+token+"?disconnected="+string(n))
	})
}
