package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/labstack/echo/v4"
	"riverqueue.com/riverui"

	"github.com/crier/crier/migrations"
	"github.com/crier/crier/observe"
	"github.com/crier/crier/store"
	"github.com/crier/crier/web"
)

// What operators reach (README "Operating Crier").
const (
	HealthzPath = "/healthz"           // the process answers (no database)
	ReadyzPath  = "/readyz"            // the database answers and is migrated
	MetricsPath = "/metrics"           // on METRICS_ADDR only
	RiverUIPath = "/admin/river"       // instance administrators
	PprofPath   = "/admin/debug/pprof" // instance administrators, with CRIER_PPROF=1
	readyWithin = 2 * time.Second      // /readyz's database budget: a probe answers 503, never hangs
	opsShutdown = 5 * time.Second      // the metrics listener's shutdown budget
)

// adminCSP is CSP with inline styles allowed: River UI's React components and pprof's index set
// style attributes and elements (CSP violations in Chromium); scripts stay same-origin, without
// eval (River UI's zod probes for it once and falls back; e2e/admin_test.go).
const adminCSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// newMetrics builds the metrics when METRICS_ADDR is set (else nil: no collectors, no middleware).
func (s *Server) newMetrics() {
	if s.Config.MetricsAddr == "" {
		return
	}
	s.Metrics = observe.New()
	s.Metrics.WatchPool(s.Pool)
	s.Metrics.WatchQueues(s.Pool, s.log)
}

// mountOps adds the request metrics, the health endpoints and, for instance administrators
// (CRIER_ADMIN_EMAILS), the River UI and the profiler (CRIER_PPROF=1) to the main listener.
func (s *Server) mountOps(e *echo.Echo, w *web.Handler) error {
	if s.Metrics != nil {
		e.Pre(s.Metrics.Middleware) // wraps routing: the route template is known when it records
	}
	e.GET(HealthzPath, echo.WrapHandler(http.HandlerFunc(healthz)))
	e.GET(ReadyzPath, echo.WrapHandler(s.readyz()))
	if len(s.Config.AdminEmails) == 0 {
		return nil
	}
	admin := append(w.AdminOnly(s.Config.AdminEmails), func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set("Content-Security-Policy", adminCSP)
			return next(c)
		}
	})
	client := s.River
	if client == nil {
		client = s.inserter // --no-workers: River UI reads and acts through the database alike
	}
	ui, err := riverui.NewHandler(&riverui.HandlerOpts{Endpoints: riverui.NewEndpoints(client, nil), Logger: s.log, Prefix: RiverUIPath})
	if err != nil {
		return fmt.Errorf("server: river ui: %w", err)
	}
	s.riverUI = ui
	// RemoveTrailingSlash (e.Pre) turns /admin/river/ into /admin/river, which River UI redirects
	// back to /admin/river/: give it the slash it wants.
	uiHandler := echo.WrapHandler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == RiverUIPath {
			r.URL.Path, r.URL.RawPath = RiverUIPath+"/", ""
		}
		ui.ServeHTTP(rw, r)
	}))
	e.Any(RiverUIPath, uiHandler, admin...)
	e.Any(RiverUIPath+"/*", uiHandler, admin...)
	if s.Config.Pprof {
		// pprof.Index serves named profiles only under /debug/pprof/: name them here instead.
		e.GET(PprofPath, echo.WrapHandler(http.HandlerFunc(pprof.Index)), admin...)
		for name, h := range map[string]http.HandlerFunc{"cmdline": pprof.Cmdline, "profile": pprof.Profile, "symbol": pprof.Symbol, "trace": pprof.Trace} {
			e.Any(PprofPath+"/"+name, echo.WrapHandler(h), admin...)
		}
		e.GET(PprofPath+"/:name", func(c echo.Context) error {
			pprof.Handler(c.Param("name")).ServeHTTP(c.Response(), c.Request())
			return nil
		}, admin...)
	}
	return nil
}

// startOps starts what runs beside the server: River UI's background counts, job outcomes from
// River's events, and the metrics listener (METRICS_ADDR: /metrics, /healthz, /readyz), so an
// instance without HTTP (--no-http, workers only) is scraped and probed too. The returned stop
// shuts the listener down.
func (s *Server) startOps(ctx context.Context) (stop func(), err error) {
	if s.riverUI != nil {
		if err := s.riverUI.Start(ctx); err != nil {
			return nil, fmt.Errorf("server: river ui: %w", err)
		}
	}
	if s.Metrics == nil {
		return func() {}, nil
	}
	if s.working {
		s.Metrics.WatchJobs(ctx, s.River)
	}
	ln, err := net.Listen("tcp", s.Config.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("server: METRICS_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+MetricsPath, s.Metrics.Handler(s.Config.MetricsToken))
	mux.HandleFunc("GET "+HealthzPath, healthz)
	mux.Handle("GET "+ReadyzPath, s.readyz())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("metrics listener", "err", err)
		}
	}()
	s.log.Info("serving metrics", "addr", ln.Addr().String())
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), opsShutdown)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}, nil
}

// healthz answers that the process serves; it touches nothing else (a liveness probe must not
// restart an instance because the database is down).
func healthz(w http.ResponseWriter, _ *http.Request) {
	probeAnswer(w, http.StatusOK, "")
}

// readyz answers 200 when the database answers within readyWithin and is at the binary's
// migration (schema_version equals the embedded migrations' count), else 503 with the reason.
func (s *Server) readyz() http.Handler {
	return readiness(s.Pool, migrations.Latest())
}

func readiness(db store.DBTX, latest int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), readyWithin)
		defer cancel()
		v, err := store.SchemaVersion(ctx, db)
		switch {
		case err != nil:
			probeAnswer(w, http.StatusServiceUnavailable, "database unreachable")
		case v != latest:
			probeAnswer(w, http.StatusServiceUnavailable, fmt.Sprintf("database at migration %d, this build expects %d", v, latest))
		default:
			probeAnswer(w, http.StatusOK, "")
		}
	}
}

// probeAnswer writes {"status":"ok"} or {"status":"unavailable","reason":…}, never cached.
func probeAnswer(w http.ResponseWriter, status int, reason string) {
	body := map[string]string{"status": "ok"}
	if status != http.StatusOK {
		body = map[string]string{"status": "unavailable", "reason": reason}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
