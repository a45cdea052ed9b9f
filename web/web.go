// Package web serves the dashboard: HTML pages rendered from templ components (views), htmx
// fragments, the embedded assets (static) and the API reference page. Handlers are thin: bind,
// call one Service method, render.
//
// Sessions (gorilla/sessions cookies) and CSRF protection (echo's middleware) are attached to the
// dashboard routes only: /api/v1 authenticates on its own.
package web

import (
	"log/slog"

	"github.com/gorilla/sessions"
	echosession "github.com/labstack/echo-contrib/session"
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

// Register mounts the dashboard on e: GET / (home), GET /docs (API reference), GET /static/*
// (embedded assets), the pages of each area and a "coming later" page for areas not built yet.
// Route names are the constants of routes.go.
func (h *Handler) Register(e *echo.Echo) {
	// Public pages (sign-in, sign-up, tokens from emails): session, then CSRF (its token is rendered
	// into forms and hx-headers). Dashboard pages also need a signed-in user.
	public := []echo.MiddlewareFunc{echosession.Middleware(h.sessions), h.csrf}
	signedIn := append(append([]echo.MiddlewareFunc{}, public...), h.requireUser)

	e.GET(pathHome, h.home, signedIn...).Name = routeHome
	h.registerAccount(e, public, signedIn)
	h.registerOrganization(e, signedIn)
	h.registerTeamAccounts(e, signedIn)
	h.registerPortal(e, public)
	h.registerMedia(e, signedIn)
	h.registerWebhooks(e, signedIn)
	h.registerComposer(e, signedIn)
	h.registerCalendar(e, signedIn)
	h.registerPosts(e, signedIn)
	h.registerSandbox(e, signedIn)
	for _, a := range areas {
		if !a.Built {
			e.GET(a.Path, h.showArea(a), signedIn...).Name = a.ID
		}
	}
	// The API reference and the assets are public and stateless: no session, no CSRF cookie.
	e.GET(pathDocs, h.docs).Name = routeDocs
	e.GET(pathStatic+"*", serveStatic).Name = routeStatic
	// Browsers ask for /favicon.ico on pages without an icon link (the portal, the networks'
	// consent pages of the sandbox): answer Crier's icon rather than a 404.
	e.GET("/favicon.ico", func(c echo.Context) error {
		c.SetParamNames("*")
		c.SetParamValues("img/favicon.svg")
		return serveStatic(c)
	})
}
