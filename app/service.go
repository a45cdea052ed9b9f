// Package app is Crier's domain: its types, the one error type, and the Service that holds every
// business rule. The API (api/) and the dashboard (web/) are thin transports over the Service.
package app

import (
	"log/slog"
	"time"

	"github.com/crier/crier/store"
)

// Options are the settings the Service needs from the configuration.
type Options struct {
	BaseURL    string
	Production bool
	Sandbox    bool
}

// Service is the single service layer. Its methods scope every query by the caller's organization.
type Service struct {
	db       store.DB
	q        *store.Queries
	jobs     Enqueuer
	mailer   Mailer
	networks *networkDeps    // UseNetworks
	hooks    *webhookRuntime // UseWebhooks
	log      *slog.Logger
	opts     Options
	now      func() time.Time

	uploads *uploadDeps // UseStorage

	publishLease time.Duration // SetPublishLease; DefaultPublishLease when zero
}

// New builds the Service. Call UseJobs once the River client exists (its workers need the Service).
func New(db store.DB, log *slog.Logger, opts Options) *Service {
	return &Service{db: db, q: store.New(db), log: log, opts: opts, now: time.Now}
}

// UseJobs sets the job enqueuer.
func (s *Service) UseJobs(e Enqueuer) { s.jobs = e }

// SetClock replaces the clock, for tests.
func (s *Service) SetClock(now func() time.Time) { s.now = now }
