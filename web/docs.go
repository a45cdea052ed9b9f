package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/views/pages/docs"
)

// DocsCSP is the Content-Security-Policy of /docs. Redoc injects <style> elements and starts its
// search worker from a blob: URL, so this page alone relaxes style-src and worker-src; scripts
// stay 'self' only (no inline script: static/js/docs.js starts Redoc).
const DocsCSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// docs serves GET /docs: the API reference of OpenAPIPath, rendered by Redoc.
func (h *Handler) docs(c echo.Context) error {
	c.Response().Header().Set("Content-Security-Policy", DocsCSP) // overrides the server's strict CSP
	p := page("API reference", assetURL("vendor/redoc.standalone.js"), assetURL("js/docs.js"))
	d := docs.Data{SpecURL: OpenAPIPath, Home: templ.SafeURL(pathHome)}
	return render(c, http.StatusOK, docs.Page(p, d), nil)
}
