// Package apptest builds an app.Service for tests with every dependency the server gives it, sized
// for a test, and a clock tests can move while the Service reads it.
package apptest

import (
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// Secret is the test Services' CRIER_SECRET unless their Options say otherwise.
var Secret = []byte("0123456789abcdef0123456789abcdef")

// New builds a Service over db: River's insert-only client (jobs are inserted in the caller's
// transaction and never worked), mail kept in the outbox, uploads on disk in a temporary directory,
// no network adapters, and a discarding logger. with replaces any of them; opts are the Service's
// settings (Secret when they have none).
func New(t testing.TB, db store.DB, opts app.Options, with ...func(*app.Deps)) *app.Service {
	t.Helper()
	if opts.Secret == nil {
		opts.Secret = Secret
	}
	inserter, err := jobs.NewInserter(nil, jobs.Options{})
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	disk, err := storage.NewDisk(t.TempDir(), opts.BaseURL, opts.Secret)
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	deps := app.Deps{DB: db, Log: slog.New(slog.DiscardHandler), Jobs: inserter, Mailer: app.OutboxOnly,
		Storage: disk, Networks: app.Adapters{}}
	for _, f := range with {
		f(&deps)
	}
	svc, err := app.New(deps, opts)
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	return svc
}

// Publishing builds the publishing service over svc, as the server does.
func Publishing(t testing.TB, svc *app.Service) *publishing.Service {
	t.Helper()
	pub, err := publishing.New(svc.Core(), svc)
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	return pub
}

// Clock is a clock a test moves while a running Service reads it (app.Options.Now = clock.Now).
type Clock struct {
	now atomic.Pointer[func() time.Time]
}

// NewClock answers a Clock that reads time.Now until Set.
func NewClock() *Clock {
	c := &Clock{}
	c.Set(time.Now)
	return c
}

// Now is the time the clock shows.
func (c *Clock) Now() time.Time { return (*c.now.Load())() }

// Set makes the clock read now from here on.
func (c *Clock) Set(now func() time.Time) { c.now.Store(&now) }
