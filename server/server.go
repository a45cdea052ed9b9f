// Package server is the composition root as a library: it connects PostgreSQL, migrates, builds the
// Service, the River client and the Echo server, and runs them until shutdown. cmd/crier calls it,
// and so do the tests (servertest), so they exercise exactly what production runs.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/riverqueue/river"
	"riverqueue.com/riverui"

	"github.com/crier/crier/api"
	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	"github.com/crier/crier/config"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/mail"
	"github.com/crier/crier/migrations"
	"github.com/crier/crier/network"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/observe"
	"github.com/crier/crier/session"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
	"github.com/crier/crier/web"
)

// CSP allows only Crier's own origin; pages never use inline scripts or styles.
const CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Shutdown budgets: in-flight requests, then running jobs.
const (
	HTTPShutdownTimeout = 15 * time.Second
	JobShutdownTimeout  = 30 * time.Second
)

// Connection timeouts: the headers must arrive within ReadHeaderTimeout; a keep-alive connection
// idle for IdleTimeout is closed.
const (
	ReadHeaderTimeout = 5 * time.Second
	IdleTimeout       = time.Minute
)

// Options choose what an instance runs (`crier serve --no-http` / `--no-workers` to scale out).
type Options struct {
	HTTP    bool
	Workers bool
	Logger  *slog.Logger
	// Pool, when set, is used instead of connecting to cfg.DatabaseURL (tests).
	Pool *pgxpool.Pool
	// FetchPoll shortens River's polling (tests).
	FetchPoll time.Duration
	// Now replaces the Service's clock (tests); PublishLease its publish attempt lease (tests that
	// kill workers).
	Now          func() time.Time
	PublishLease time.Duration
}

// Server is a running Crier instance's parts.
type Server struct {
	Config  config.Config
	Echo    *echo.Echo
	Service *app.Service
	// Publishing is the posts, comments and publish pipeline, over Service.
	Publishing *publishing.Service
	// River works the queues (nil when built without Workers); the Service enqueues through an
	// insert-only client of its own (jobs.NewInserter says why).
	River *river.Client[pgx.Tx]
	Pool  *pgxpool.Pool
	// Sandbox is the simulated networks mounted under /sandbox/ (SANDBOX=1), else nil.
	Sandbox *sandbox.Sandbox
	// Metrics are the Prometheus collectors (METRICS_ADDR set), else nil; ops.go wires them.
	Metrics  *observe.Metrics
	riverUI  *riverui.Handler      // CRIER_ADMIN_EMAILS set, else nil
	inserter *river.Client[pgx.Tx] // the Service's insert-only River client
	log      *slog.Logger
	ownPool  bool
	working  bool
}

// New connects, migrates and builds everything; it starts nothing.
func New(ctx context.Context, cfg config.Config, opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &Server{Config: cfg, Pool: opts.Pool, log: log, working: opts.Workers}
	if s.Pool == nil {
		pool, err := store.Connect(ctx, store.WithMaxConns(cfg.DatabaseURL, store.DefaultMaxConns))
		if err != nil {
			return nil, err
		}
		s.Pool, s.ownPool = pool, true
	}
	if err := migrations.Migrate(ctx, s.Pool); err != nil {
		s.Close()
		return nil, err
	}
	s.newMetrics()
	if err := s.build(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	if cfg.Sandbox && cfg.SandboxURL == "" {
		s.Sandbox = sandbox.New() // else `crier sandbox` serves it at SANDBOX_URL
	}
	if opts.HTTP {
		e, w, err := newEcho(cfg, s.Service, s.Publishing, s.Sandbox, log)
		if err == nil {
			err = s.mountOps(e, w)
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		s.Echo = e
	}
	return s, nil
}

// Run serves HTTP on ln (when built with HTTP) and works jobs (when built with Workers) until ctx
// ends, then shuts down gracefully: stop taking requests, let in-flight ones and running jobs finish
// within their budgets, cancel what remains.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	stopOps, err := s.startOps(ctx)
	if err != nil {
		return err
	}
	defer stopOps()
	errc := make(chan error, 1)
	var srv *http.Server
	if s.Echo != nil {
		// Header and idle timeouts close connections that trickle or linger (slowloris); bodies are not
		// timed (large uploads), a slow one holds one of the MaxInflight slots at most.
		srv = &http.Server{Handler: s.Echo, ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: IdleTimeout, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
		s.log.Info("serving", "addr", ln.Addr().String(), "base_url", s.Config.BaseURL)
	}
	keysDone := make(chan struct{})
	if s.Echo != nil {
		go func() { defer close(keysDone); s.Service.RunKeyCache(ctx, s.Pool) }()
	} else {
		close(keysDone)
	}
	if s.working {
		if err := s.River.Start(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("server: start river: %w", err)
		}
		go jobs.PromoteDue(ctx, s.Pool, s.log)
	}

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errc:
	}
	s.log.Info("shutting down")
	if srv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), HTTPShutdownTimeout)
		if err := srv.Shutdown(sctx); err != nil {
			s.log.Warn("http shutdown", "err", err)
		}
		cancel()
	}
	if s.working {
		jctx, cancel := context.WithTimeout(context.Background(), JobShutdownTimeout)
		if err := s.River.Stop(jctx); err != nil {
			s.log.Warn("jobs did not finish in time; cancelling them", "err", err)
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = s.River.StopAndCancel(cctx)
			ccancel()
		}
		cancel()
	}
	<-keysDone // its last lastUsedAt flush, before the pool closes
	return runErr
}

// Close releases the pool if the server opened it.
func (s *Server) Close() {
	if s.ownPool && s.Pool != nil {
		s.Pool.Close()
	}
}

func newEcho(cfg config.Config, svc *app.Service, pub *publishing.Service, sim *sandbox.Sandbox, log *slog.Logger) (*echo.Echo, *web.Handler, error) {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Pre(middleware.RemoveTrailingSlash()) // rewrites /api/v1/team/ to /api/v1/team: never a redirect
	e.Pre(headAsGet)
	e.IPExtractor = ipExtractor(cfg.TrustedProxies)
	e.Use(shed(cfg.MaxInflight)) // first: a full instance refuses before doing any work
	e.Use(middleware.RequestID())
	e.Use(requestLogger(log))
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableErrorHandler: true, // the panic becomes an error for HTTPErrorHandler, which answers 500
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.ErrorContext(c.Request().Context(), "panic", "err", err, "request_id", requestID(c), "stack", string(stack))
			return err
		},
	}))
	e.Use(securityHeaders(hstsMaxAge(cfg)))
	e.HTTPErrorHandler = errorHandler(log)
	sessions := session.NewStore(cfg.Secret, cfg.Production())
	e.Use(withClientIP, limitPages(cfg.RateLimits.Share(cfg.Instances), sessions, svc.Core().Now))

	if err := api.Register(e, svc, pub, sessions, log, cfg.PostCacheMB<<20); err != nil {
		return nil, nil, err
	}
	if disk, ok := svc.Storage().(*storage.Disk); ok {
		e.Any(storage.FilesPrefix+"*", echo.WrapHandler(disk)) // the disk backend's signed URLs
	}
	api.RegisterOAuthCallback(e, svc)
	deps := web.Deps{Service: svc, Publishing: pub, Secret: cfg.Secret, Production: cfg.Production(), Logger: log}
	if sim != nil {
		sb := echo.WrapHandler(sim)
		e.Any("/sandbox", sb)
		e.Any("/sandbox/*", sb)
		deps.Sandbox = SandboxInspector(sim)
	}
	w := web.New(deps)
	w.Register(e)
	return e, w, nil
}

// build makes the Service over its dependencies, then the River client that works the queues over
// the Service (the Service enqueues through an insert-only client, so neither waits on the other).
func (s *Server) build(ctx context.Context, opts Options) error {
	cfg := s.Config
	inserter, err := jobs.NewInserter(s.Pool, jobs.Options{Logger: s.log, FetchPoll: opts.FetchPoll})
	if err != nil {
		return err
	}
	s.inserter = inserter
	mailer := app.OutboxOnly // without SMTP_URL mail stays in the outbox (the dev mailbox reads it)
	if cfg.SMTPURL != "" {
		smtp, err := mail.New(cfg.SMTPURL, mail.Options{BaseURL: cfg.BaseURL})
		if err != nil {
			return err
		}
		mailer = smtp
	}
	st, err := storage.Open(ctx, cfg.StorageURL, storage.Options{BaseURL: cfg.BaseURL, Secret: cfg.Secret,
		AccessKey: cfg.AWSAccessKeyID, SecretKey: cfg.AWSSecretAccessKey})
	if err != nil {
		return fmt.Errorf("server: STORAGE_URL: %w", err)
	}
	deps := app.Deps{DB: s.Pool, Log: s.log, Jobs: inserter, Mailer: mailer, Storage: st,
		Networks: network.Adapters(network.Options{Sandbox: cfg.Sandbox, BaseURL: cfg.BaseURL, SandboxURL: cfg.SandboxBase(), Getenv: os.Getenv, AllowPrivate: cfg.AllowPrivateURLs})}
	if s.Metrics != nil {
		deps.Observer = s.Metrics // (a nil *Metrics in the interface would not be a nil Observer)
	}
	settings := app.Options{BaseURL: cfg.BaseURL, Production: cfg.Production(), Sandbox: cfg.Sandbox, SandboxURL: cfg.SandboxBase(), Secret: cfg.Secret,
		Uploads:  uploadOptions(cfg),
		Webhooks: app.WebhookOptions{AllowPrivateURLs: cfg.AllowPrivateURLs, RequireHTTPS: cfg.Production(), DeactivateAfter: cfg.WebhookDeactivateAfter},
		Now:      opts.Now, PublishLease: opts.PublishLease,
		RateLimits: app.RateLimitOptions{Default: cfg.RateLimits, Instances: cfg.Instances}}
	if s.Service, err = app.New(deps, settings); err != nil {
		return err
	}
	if s.Publishing, err = publishing.New(s.Service.Core(), s.Service); err != nil {
		return err
	}
	if opts.Workers {
		s.River, err = jobs.NewClient(s.Pool, s.Service, s.Publishing, jobs.Options{Logger: s.log, FetchPoll: opts.FetchPoll})
	}
	return err
}

// uploadOptions are the upload limits of the configuration.
func uploadOptions(cfg config.Config) app.UploadOptions {
	const mb = 1 << 20
	return app.UploadOptions{
		MaxImage: int64(cfg.UploadMaxImageMB) * mb, MaxVideo: int64(cfg.UploadMaxVideoMB) * mb,
		MaxDocument: int64(cfg.UploadMaxDocumentMB) * mb, PartSize: int64(cfg.UploadPartSizeMB) * mb,
		Retention: time.Duration(cfg.UploadRetentionDays) * 24 * time.Hour, AllowPrivateURLs: cfg.AllowPrivateURLs,
	}
}

// headAsGet answers HEAD like GET (monitors use it); net/http drops the body of a HEAD response.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method == http.MethodHead {
			c.Request().Method = http.MethodGet
		}
		return next(c)
	}
}

// securityHeaders writes what Echo's Secure middleware wrote with Crier's settings (nosniff, DENY,
// the referrer policy, CSP, and HSTS over https when hstsMaxAge is set), from values made once:
// Secure built each field's value anew on every request. The values are shared between answers,
// which is safe as header values are only ever replaced or appended to (a new array), never
// written in place.
func securityHeaders(hstsMaxAge int) echo.MiddlewareFunc {
	fields := http.Header{}
	fields.Set(echo.HeaderXContentTypeOptions, "nosniff")
	fields.Set(echo.HeaderXFrameOptions, "DENY")
	fields.Set(echo.HeaderContentSecurityPolicy, CSP)
	fields.Set(echo.HeaderReferrerPolicy, "strict-origin-when-cross-origin")
	hsts := []string{fmt.Sprintf("max-age=%d; includeSubdomains", hstsMaxAge)}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			for k, v := range fields {
				h[k] = v[:1:1]
			}
			if hstsMaxAge != 0 && c.Scheme() == "https" {
				h[echo.HeaderStrictTransportSecurity] = hsts[:1:1]
			}
			return next(c)
		}
	}
}

func hstsMaxAge(cfg config.Config) int {
	if strings.HasPrefix(cfg.BaseURL, "https://") {
		return 31536000
	}
	return 0
}

func requestID(c echo.Context) string { return c.Response().Header().Get(echo.HeaderXRequestID) }

// errorHandler answers every error once: the error body under /api, an HTML page elsewhere.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		retryAfter(c.Response().Header(), err)
		path := c.Request().URL.Path
		if path == "/api" || strings.HasPrefix(path, "/api/") {
			api.WriteError(c, err, log)
			return
		}
		status, body := api.Body(err, requestID(c))
		if status >= 500 && !api.Shed(err) {
			log.ErrorContext(c.Request().Context(), "page error", "err", err, "path", path, "request_id", requestID(c))
		}
		if err := web.ErrorPage(c, status, body.Message, requestID(c)); err != nil {
			log.ErrorContext(c.Request().Context(), "render error page", "err", err)
		}
	}
}

// requestLogger writes one structured line per request.
func requestLogger(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRequestID: true, LogError: true, HandleError: true,
		Skipper: func(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/static/") },
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			switch r := c.Request(); {
			case v.Status >= 500:
				level = slog.LevelError
			case v.Status == http.StatusNoContent && r.Method == http.MethodGet && r.Header.Get("HX-Request") == "true":
				level = slog.LevelDebug // an htmx poll that found nothing new (the sandbox inspector's, every 3 s)
			}
			log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("uri", v.URI), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("request_id", v.RequestID))
			return nil
		},
	})
}

// Version is the module version, for logs.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return "devel"
}
