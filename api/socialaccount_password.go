package api

import (
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// The password page (BaseURL/connect/<network>?state=…) of networks that connect with an app
// password instead of OAuth (Bluesky): the connect URL points here; the form posts back here; the
// outcome goes to the connect's redirectUrl like an OAuth callback's. The password is used once to
// open a session and never stored.
var passwordPage = template.Must(template.New("password").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect {{.Name}}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">
<h1>Connect {{.Name}}</h1>
{{if .Error}}<p role="alert" style="color:#b91c1c">{{.Error}}</p>{{end}}
{{if .State}}<form method="post">
<input type="hidden" name="state" value="{{.State}}">
<p><label>Handle or email<br><input name="identifier" autocomplete="username" required value="{{.Identifier}}"></label></p>
<p><label>App password<br><input name="password" type="password" autocomplete="off" required placeholder="xxxx-xxxx-xxxx-xxxx"></label></p>
<p><small>Server: {{.Server}}. Create an app password in {{.Name}}'s settings (Privacy and security → App passwords); never use your main password.</small></p>
<p><button>Connect</button></p>
</form>{{end}}
</body></html>`))

func registerPasswordPage(e *echo.Echo, svc *app.Service) {
	render := func(c echo.Context, status int, n app.Network, state, server, identifier, msg string) error {
		h := c.Response().Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'")
		c.Response().WriteHeader(status)
		return passwordPage.Execute(c.Response(), map[string]string{"Name": n.DisplayName(), "State": state, "Server": server,
			"Identifier": identifier, "Error": msg})
	}
	e.GET(app.PasswordPagePath+":network", func(c echo.Context) error {
		n, ok := app.NetworkFromPath(c.Param("network"))
		if !ok {
			return echo.ErrNotFound
		}
		st, err := svc.PasswordPageInfo(n, c.QueryParam("state"))
		if err != nil {
			return render(c, http.StatusBadRequest, n, "", "", "", app.ErrorMessage(err))
		}
		return render(c, http.StatusOK, n, c.QueryParam("state"), st.ServerURL, "", "")
	})
	e.POST(app.PasswordPagePath+":network", func(c echo.Context) error {
		n, ok := app.NetworkFromPath(c.Param("network"))
		if !ok {
			return echo.ErrNotFound
		}
		state, identifier := c.FormValue("state"), c.FormValue("identifier")
		res := svc.CompletePasswordConnect(c.Request().Context(), n, state, identifier, c.FormValue("password"))
		if res.RedirectURL != "" {
			return c.Redirect(http.StatusSeeOther, res.RedirectURL)
		}
		if res.Err != nil {
			st, err := svc.PasswordPageInfo(n, state)
			if err != nil {
				return render(c, http.StatusBadRequest, n, "", "", "", app.ErrorMessage(err))
			}
			return render(c, http.StatusUnprocessableEntity, n, state, st.ServerURL, identifier, app.ErrorMessage(res.Err))
		}
		return c.String(http.StatusOK, n.DisplayName()+" account connected. You can close this window.")
	})
}
