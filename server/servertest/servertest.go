// Package servertest starts the whole Crier server in-process, on a fresh migrated database and a
// random port, for API and e2e tests: the same wiring as `crier serve`, River workers included.
package servertest

import (
	"context"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/config"
	"github.com/crier/crier/server"
	"github.com/crier/crier/store/storetest"
)

// Server is a running test server.
type Server struct {
	*server.Server
	URL string // base URL, e.g. http://127.0.0.1:41234
	// Clock is the Service's clock: the time until a test moves it.
	Clock *apptest.Clock
}

// Options tune the test server.
type Options struct {
	// Env adds or overrides environment variables of the configuration.
	Env map[string]string
	// NoWorkers starts the server without River workers (the test runs its own clients).
	NoWorkers bool
	// MaxConns, when set, serves from a pool of that many connections (benchmarks) instead of the
	// test database's small shared pool.
	MaxConns int
	// PublishLease shortens the publish attempt lease (tests that kill workers).
	PublishLease time.Duration
	// ProductionTiming keeps River's and the due-time loop's production timing instead of the
	// tests' short polling (tests of an idle server).
	ProductionTiming bool
	// Tracer, when set, sees every statement of the server's pool (tests that count round trips).
	Tracer pgx.QueryTracer
}

// Start runs a server until the test ends.
func Start(t testing.TB, opts ...Options) *Server {
	t.Helper()
	pool, dbURL := storetest.NewDB(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("servertest: listen: %v", err)
	}
	base := "http://" + ln.Addr().String()
	env := map[string]string{
		"DATABASE_URL":       dbURL,
		"ADDR":               ln.Addr().String(),
		"BASE_URL":           base,
		"CRIER_DATA_DIR":     t.TempDir(),
		"SANDBOX":            "1",
		"ALLOW_PRIVATE_URLS": "1",
		// Tests and benchmarks call far faster than a client may; the limiter still runs. Tests of
		// the limits set their own (server/ratelimit_test.go).
		"CRIER_RATE_LIMITS": "1000000/1s",
		"CRIER_ENV":         "development", // the dev mailbox and the dev secret; tests override it
	}
	workers := true
	var lease time.Duration
	fetchPoll := 50 * time.Millisecond
	for _, o := range opts {
		if o.ProductionTiming {
			fetchPoll = 0
		}
		if o.PublishLease > 0 {
			lease = o.PublishLease
		}
		for k, v := range o.Env {
			env[k] = v
		}
		workers = workers && !o.NoWorkers
		if o.MaxConns > 0 || o.Tracer != nil {
			cfg, err := pgxpool.ParseConfig(dbURL)
			if err != nil {
				t.Fatalf("servertest: pool: %v", err)
			}
			if o.MaxConns > 0 {
				cfg.MaxConns = int32(o.MaxConns)
			}
			cfg.ConnConfig.Tracer = o.Tracer
			big, err := pgxpool.NewWithConfig(context.Background(), cfg)
			if err != nil {
				t.Fatalf("servertest: pool: %v", err)
			}
			t.Cleanup(big.Close)
			pool = big
		}
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("servertest: config: %v", err)
	}
	level := slog.LevelWarn
	if os.Getenv("CRIER_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, cancel := context.WithCancel(context.Background())
	clock := apptest.NewClock()
	srv, err := server.New(ctx, cfg, server.Options{HTTP: true, Workers: workers, Logger: log, Pool: pool, FetchPoll: fetchPoll,
		Now: clock.Now, PublishLease: lease})
	if err != nil {
		cancel()
		t.Fatalf("servertest: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("servertest: run: %v", err)
		}
	})
	return &Server{Server: srv, URL: base, Clock: clock}
}
