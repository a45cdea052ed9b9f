// Package web serves the dashboard: HTML pages rendered from templ components (views), htmx
// fragments, the embedded assets (static) and the API reference page. Handlers are thin: bind,
// call one Service method, render.
//
// Sessions (gorilla/sessions cookies) and CSRF protection (echo's middleware) are attached to the
// dashboard routes only: /api/v1 authenticates on its own.
//
// Start at routes.go: every route with its handler, middleware and name. The handlers live in a
// file per area (team.go, media*.go, composer*.go, …); what they share is in render.go (pages and
// fragments), htmx.go, form.go (binding and refusals beside fields), errors.go (how the Service's
// errors answer), confirm.go, paging.go, viewer.go and nav.go (the sidebar).
package web

import (
	"log/slog"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	"github.com/crier/crier/views/layout"
)

// Deps are the dashboard's dependencies.
type Deps struct {
	Service    *app.Service
	Publishing *publishing.Service
	Secret     []byte // keys the session cookie (see NewSessionStore)
	Production bool   // Secure cookies
	Logger     *slog.Logger
	// Sandbox, when the server runs with SANDBOX=1, shows the sandbox inspector page (nil: no page).
	Sandbox SandboxInspector
}

// Handler serves the dashboard.
type Handler struct {
	svc      *app.Service
	pub      *publishing.Service
	log      *slog.Logger
	sessions sessions.Store
	csrf     echo.MiddlewareFunc
	nav      []layout.NavGroup
	// production hides the development pages (the dev mailbox).
	production bool
	sandbox    SandboxInspector // nil without SANDBOX=1
}

// New builds the dashboard handler. Deps.Secret must not be empty.
func New(d Deps) *Handler {
	if len(d.Secret) == 0 {
		panic("web: Deps.Secret is required")
	}
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Handler{
		svc:      d.Service,
		pub:      d.Publishing,
		log:      log,
		sessions: NewSessionStore(d.Secret, d.Production),
		csrf:     csrfMiddleware(d.Production),
		nav:      navigation(d.Sandbox != nil),

		production: d.Production,
		sandbox:    d.Sandbox,
	}
}
