package web

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
)

// render is the one way the dashboard writes HTML: the fragment for non-boosted htmx requests,
// the full page otherwise (and when fragment is nil). It renders into a buffer first, so a
// rendering error can still become an error page, then sets the content type, writes the status
// and the bytes. The request's CSRF token reaches the components through the context.
func render(c echo.Context, status int, page, fragment templ.Component) error {
	comp := page
	if fragment != nil && isFragmentRequest(c.Request()) {
		comp = fragment
	}
	ctx := components.WithCSRFToken(c.Request().Context(), csrfToken(c))
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("web: render: %w", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Add(echo.HeaderVary, headerHXRequest) // a cache must not serve a fragment for a page
	c.Response().WriteHeader(status)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	_, err := c.Response().Write(buf.Bytes())
	return err
}

// page is the <head> of a dashboard page titled title.
func page(title string, scripts ...string) layout.Page {
	return layout.Page{Title: title, Assets: pageAssets(), Scripts: scripts, HomeHref: pathHome}
}

// shell is the application frame for a page of the area active.
func (h *Handler) shell(c echo.Context, active, title string) layout.Shell {
	org, user := h.viewerSlots(c)
	return layout.Shell{
		Page:    page(title),
		Nav:     h.nav,
		Active:  active,
		Org:     org,
		User:    user,
		Bell:    h.bell(c),
		Banner:  h.viewerBanner(c),
		Flashes: h.takeFlashes(c),
	}
}
