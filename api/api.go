// Package api serves /api/v1: handlers generated from the contract (openapi.json, oapi-codegen
// strict server) and thin glue that calls the app.Service. Every route is checked, in this order:
// credentials (401), the contract (400 with zod-style issues), then the handler; operations whose
// capability has not landed answer 501 (Unimplemented).
package api

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	"github.com/crier/crier/ratelimit"
	"github.com/crier/crier/session"
)

// Contract is the OpenAPI document, served verbatim at /api/v1/openapi.json.
//
//go:embed openapi.json
var Contract []byte

// Prefix is the path prefix of every API route.
const Prefix = "/api/v1"

// Request body caps. kin-openapi reads a body into memory to validate it, so multipart operations
// get a cap too; the uploads capability streams large files through signed URLs instead.
const (
	jsonBodyLimit      = "10M"
	multipartBodyLimit = "256M"
)

// LoadContract parses and checks the embedded contract.
func LoadContract() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(Contract)
	if err != nil {
		return nil, fmt.Errorf("api: load contract: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("api: invalid contract: %w", err)
	}
	return doc, nil
}

// Server implements the generated StrictServerInterface. Each capability adds its operations as
// methods (in <resource>.go files); the embedded Unimplemented answers the others.
type Server struct {
	Unimplemented
	svc      *app.Service
	pub      *publishing.Service // posts and comments
	sessions *sessions.CookieStore
	posts    *postCache // records of GET post and list, checked by version (post_cache.go)
	teams    *postCache // records of GET team, the same way (team.go)
	lists    *listPages // GET post list's last pages, to guess whether to read a page whole (post_list_pages.go)
}

// Register mounts /api/v1 on e.
//
// sessions is the dashboard's cookie store: the API accepts its session cookie besides x-api-key.
// postCacheBytes bounds the cache of posts' records (post_cache.go; 0: none), and an eighth of it
// that of teams' records.
func Register(e *echo.Echo, svc *app.Service, pub *publishing.Service, sessions *sessions.CookieStore, log *slog.Logger, postCacheBytes int) error {
	doc, err := LoadContract()
	if err != nil {
		return err
	}
	validator, err := NewValidator(doc)
	if err != nil {
		return err
	}
	ops := indexOperations(doc)
	guard := &guard{svc: svc, sessions: sessions, ops: ops, validator: validator, limiter: ratelimit.NewLimiter(svc.Core().Now)}

	e.GET(Prefix+"/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, Contract)
	})
	RegisterHandlers(routerWith{e: e, guard: guard, mw: []echo.MiddlewareFunc{newIdempotency(doc, svc, log).middleware}}, NewStrictHandler(&Server{svc: svc, pub: pub, sessions: sessions, posts: newPostCache(svc.Core().Now, postCacheBytes),
		teams: newPostCache(svc.Core().Now, postCacheBytes/8), lists: newListPages()}, nil))
	// Anything else under the prefix is an unknown route: 404 in the error body.
	notFound := func(c echo.Context) error { return echo.ErrNotFound }
	e.Any(Prefix+"/*", notFound)
	return nil
}

// operation is what the guard needs to know about a contract operation.
type operation struct {
	openapiPath string
	public      bool
	multipart   bool
	noStore     bool // a success may carry a credential (nostore.go)
}

// echoParam turns the contract's {param} into Echo's :param.
var openapiParam = regexp.MustCompile(`\{([^}]+)\}`)

func indexOperations(doc *openapi3.T) map[string]operation {
	ops := map[string]operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			o := operation{openapiPath: path}
			o.public = op.Security != nil && len(*op.Security) == 0
			o.noStore = carriesSecret(op)
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				_, o.multipart = op.RequestBody.Value.Content["multipart/form-data"]
			}
			ops[method+" "+openapiParam.ReplaceAllString(path, ":$1")] = o
		}
	}
	return ops
}

type guard struct {
	svc       *app.Service
	sessions  *sessions.CookieStore
	ops       map[string]operation
	validator *Validator
	limiter   *ratelimit.Limiter // request budgets (ratelimit.go)
}

var (
	limitJSON      = middleware.BodyLimit(jsonBodyLimit)
	limitMultipart = middleware.BodyLimit(multipartBodyLimit)
)

// route is the guard of one route (method, Echo's path): its operation and the validator's route
// are looked up once here, and the chain after the credentials built once, not per request.
func (g *guard) route(method, path string) echo.MiddlewareFunc {
	op, ok := g.ops[method+" "+path]
	var vroute *routers.Route
	err := fmt.Errorf("api: route %s %s is not in the contract index", method, path)
	if ok {
		vroute, err = g.validator.Route(method, op.openapiPath)
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if err != nil {
			return func(echo.Context) error { return err }
		}
		validated := func(c echo.Context) error {
			var params map[string]string
			if names := c.ParamNames(); len(names) > 0 {
				params = make(map[string]string, len(names))
				for i, v := range c.ParamValues()[:len(names)] {
					params[names[i]] = v
				}
			} else {
				params = map[string]string{}
			}
			r := c.Request()
			if err := g.validator.ValidateRoute(r.Context(), r, vroute, params); err != nil {
				return err
			}
			return next(c)
		}
		limited := limitJSON(validated)
		if op.multipart {
			limited = limitMultipart(validated)
		}
		return func(c echo.Context) error {
			if op.noStore { // no cache, shared or the browser's, keeps a key or a webhook secret
				c.Response().Header().Set("Cache-Control", "no-store")
			}
			if !op.public {
				p, err := g.authenticate(c)
				if err != nil {
					return err
				}
				req := c.Request()
				c.SetRequest(req.WithContext(app.WithPrincipal(req.Context(), p)))
			}
			if err := g.limit(c); err != nil { // after authentication: the key's or the session's budget
				return err
			}
			if c.Request().Body == http.NoBody { // net/http's for a request without a body: nothing to limit
				return sized(c, validated)
			}
			return sized(c, limited)
		}
	}
}

// authenticate resolves the caller from the x-api-key header, else from the dashboard session
// cookie. Cookie-authenticated writes must pass the CSRF check; key calls are not affected.
func (g *guard) authenticate(c echo.Context) (*app.Principal, error) {
	r := c.Request()
	if key := strings.TrimSpace(r.Header.Get("x-api-key")); key != "" {
		return g.svc.AuthenticateAPIKey(r.Context(), key)
	}
	d, ok := session.Load(g.sessions, r)
	if !ok {
		return nil, app.Errorf(app.EUnauthorized, "Missing API key: send it in the x-api-key header")
	}
	p, err := g.svc.AuthenticateSession(r.Context(), d.UserID, d.OrganizationID, d.Generation)
	if err != nil {
		return nil, err
	}
	if session.CrossSiteWrite(r) {
		return nil, app.Errorf(app.EForbidden, "CSRF check failed: send the %s header with the value of the %s cookie", session.CSRFHeader, session.CSRFCookie)
	}
	return p, nil
}

// routerWith registers the generated routes with extra route-level middleware, which (unlike group
// middleware) sees the matched route's path.
type routerWith struct {
	e     *echo.Echo
	guard *guard // first, then mw
	mw    []echo.MiddlewareFunc
}

func (r routerWith) add(method, path string, h echo.HandlerFunc, m []echo.MiddlewareFunc) *echo.Route {
	return r.e.Add(method, path, h, append(append([]echo.MiddlewareFunc{r.guard.route(method, path)}, r.mw...), m...)...)
}

func (r routerWith) CONNECT(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodConnect, p, h, m)
}
func (r routerWith) DELETE(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodDelete, p, h, m)
}
func (r routerWith) GET(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodGet, p, h, m)
}
func (r routerWith) HEAD(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodHead, p, h, m)
}
func (r routerWith) OPTIONS(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodOptions, p, h, m)
}
func (r routerWith) PATCH(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPatch, p, h, m)
}
func (r routerWith) POST(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPost, p, h, m)
}
func (r routerWith) PUT(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPut, p, h, m)
}
func (r routerWith) TRACE(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodTrace, p, h, m)
}

func notImplemented(route string) error {
	return app.Errorf(app.ENotImplemented, "%s is not implemented yet", route)
}
