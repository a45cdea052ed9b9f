// Package app is Crier's domain: its types, the one error type, and the Service that holds every
// business rule. The API (api/) and the dashboard (web/) are thin transports over the Service.
package app

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// Deps are the Service's collaborators. Every one is required: New refuses a missing one, so an
// instance never starts unable to, say, enqueue its jobs. What is optional by design says so with a
// value: OutboxOnly when there is no SMTP server, an empty Adapters when no network can be connected.
type Deps struct {
	DB       store.DB
	Log      *slog.Logger
	Jobs     Enqueuer        // inserts jobs in the caller's transaction (jobs.NewInserter)
	Mailer   Mailer          // delivers the outbox's mail (mail.SMTP), or OutboxOnly
	Storage  storage.Storage // holds the uploads' bytes (storage.Open)
	Networks Adapters        // each network's adapter (network.Adapters)
	Observer Observer        // hears settled outcomes (observe.Metrics); nil: NoObserver
}

// Options are the Service's settings, from the configuration; zero values take the defaults.
type Options struct {
	BaseURL    string
	Production bool
	Sandbox    bool
	// SandboxURL is where the sandbox's twins are served (SANDBOX_URL, else BaseURL).
	SandboxURL string
	// Secret is CRIER_SECRET (at least 32 bytes): it seals network tokens and the OAuth state, and
	// keys the webhook secrets at rest.
	Secret   []byte
	Uploads  UploadOptions
	Webhooks WebhookOptions
	// Now is the clock; time.Now when nil (tests move it).
	Now func() time.Time
	// PublishLease is how long a publish attempt is presumed alive; DefaultPublishLease when zero
	// (tests that kill workers shorten it).
	PublishLease time.Duration
	// RateLimits are the API's request budgets (the transports enforce them).
	RateLimits RateLimitOptions
}

// Service is the single service layer. Its methods scope every query by the caller's organization.
type Service struct {
	db       store.DB
	q        *store.Queries
	jobs     Enqueuer
	mailer   Mailer
	networks *networkDeps
	hooks    *webhookRuntime
	uploads  *uploadDeps
	log      *slog.Logger
	opts     Options
	now      func() time.Time
	obs      Observer
	// attempts throttle credential guesses; rateLimits caches organizations' API limits.
	attempts   *attemptThrottles
	rateLimits *rateLimitCache

	publishLease time.Duration
	keys         *keyCache // API keys answered from memory while RunKeyCache runs
}

// New builds the Service from its dependencies and settings; it fails on a missing dependency or
// a secret too short to derive keys from.
func New(deps Deps, opts Options) (*Service, error) {
	if err := deps.check(); err != nil {
		return nil, err
	}
	networks, err := newNetworkDeps(deps.Networks, opts.Secret)
	if err != nil {
		return nil, err
	}
	hooks, err := newWebhookRuntime(opts.Secret, opts.Webhooks)
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PublishLease <= 0 {
		opts.PublishLease = DefaultPublishLease
	}
	if deps.Observer == nil {
		deps.Observer = NoObserver{}
	}
	return &Service{obs: deps.Observer, db: deps.DB, q: store.New(deps.DB), jobs: deps.Jobs, mailer: deps.Mailer, networks: networks, hooks: hooks,
		uploads: newUploadDeps(deps.Storage, opts.Uploads), log: deps.Log, opts: opts, now: opts.Now, publishLease: opts.PublishLease,
		attempts: newAttemptThrottles(opts.Now), rateLimits: &rateLimitCache{orgs: map[string]cachedPolicy{}}, keys: newKeyCache()}, nil
}

func (d Deps) check() error {
	var missing []string
	for name, absent := range map[string]bool{"DB": d.DB == nil, "Log": d.Log == nil, "Jobs": d.Jobs == nil,
		"Mailer": d.Mailer == nil, "Storage": d.Storage == nil, "Networks": d.Networks == nil} {
		if absent {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("app: the Service needs Deps.%s", strings.Join(missing, ", Deps."))
	}
	return nil
}

// Core is what the capability packages built over app (publishing) share with it: the database
// and its queries, the job client, the uploads' storage, the clock and the publish lease.
// Service.Core hands it to their constructors.
type Core struct {
	DB           store.DB
	Queries      *store.Queries
	Jobs         Enqueuer
	Storage      storage.Storage
	Log          *slog.Logger
	Now          func() time.Time
	PublishLease time.Duration
	Observer     Observer
}

// Core answers the Service's core, for the capability packages' constructors.
func (s *Service) Core() Core {
	return Core{DB: s.db, Queries: s.q, Jobs: s.jobs, Storage: s.uploads.st, Log: s.log, Now: s.now, PublishLease: s.publishLease, Observer: s.obs}
}
