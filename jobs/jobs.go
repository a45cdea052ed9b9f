// Package jobs builds River's clients — the insert-only one the Service enqueues through and the
// one that works Crier's queues — and holds the workers and periodic jobs.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
)

// Queues is the worker count of each queue (app names them, with the jobs' arguments). Publishing
// and webhooks are network-bound (mostly waiting), so they get more workers than CPU-bound work
// would; imports are long and rate-limited by the networks, so fewer.
var Queues = map[string]river.QueueConfig{
	app.QueuePublish:  {MaxWorkers: 20},
	app.QueueImports:  {MaxWorkers: 4},
	app.QueueWebhooks: {MaxWorkers: 20},
	app.QueueDefault:  {MaxWorkers: 10},
}

// RescueStuckJobsAfter is how long a job may stay running before River's rescuer (every 30 s)
// takes its worker for dead (killed, machine lost) and retries it; River's default is an hour. The
// rescuer also waits out the job's own Timeout, so a minute applies to every kind whose Timeout is
// at most that (publish: its lease heartbeat guards the longer attempts; webhooks: 30 s; mail), and
// a longer job (upload cleanup: 10 min) is rescued when its Timeout has passed. README "Recovery".
const RescueStuckJobsAfter = time.Minute

// River's fetch timing. Producers fetch when notified (River's inserts, its scheduler and
// PromoteDue notify), at most every FetchCooldown; FetchPollInterval is only the backstop, long so
// that an idle Crier stays quiet (each queue's poll is a transaction). Under a burst a producer
// fetches again, for the workers freed meanwhile, at most every FetchCooldown: a freed worker waits
// half of it on average, so the cooldown bounds the publish queue's rate (River's no-op jobs with
// its 20 workers: 780/s at 25 ms, 1,600/s at 10 ms). At 25 ms a quiet 2-core machine's 10,000-post
// burst ran at exactly that bound with a third of its CPU idle; a fetch costs about 0.4 ms of
// PostgreSQL's, and an idle queue is not fetched (notifications and the poll bring the work).
const (
	FetchCooldown     = 10 * time.Millisecond
	FetchPollInterval = 5 * time.Second
)

// Options configure the clients.
type Options struct {
	Logger *slog.Logger
	// FetchPoll shortens the polling intervals (tests); zero keeps FetchPollInterval.
	FetchPoll time.Duration
	// RescueStuckJobsAfter shortens River's rescue of jobs a dead worker left running (tests that
	// kill workers); zero keeps RescueStuckJobsAfter.
	RescueStuckJobsAfter time.Duration
	// PublishWorkers overrides the publish queue's worker count (benchmarks); zero keeps Queues'.
	PublishWorkers int
	// Middleware wraps every job's work (tests that count a worker's round trips).
	Middleware []rivertype.Middleware
}

// NewInserter builds the insert-only River client the Service enqueues through (app.Deps.Jobs);
// pool may be nil when every insert is given its transaction (InsertTx), as the Service's are.
//
// Two clients break a cycle: the workers need the Service, and the Service needs a client to
// enqueue. River v0.51.1 reads Config.Workers in NewClient (it checks every registered kind and
// hands the list to its pilot), so workers added to the bundle after NewClient would run only
// because River keeps the bundle's pointer, which it does not document. An insert-only client (no
// Workers, no Queues: River's documented set-up for a program that only enqueues) needs nothing
// from the Service, so the Service is built with it, and the working client (NewClient) after, over
// the Service. An instance run with --no-workers has only the inserter. Without Workers River does
// not check that an inserted kind has a worker; app/jobs.go lists the kinds and NewClient
// registers a worker for each. The inserter has the workers' fetch cooldown, which paces the
// NOTIFY River sends for a job available at once.
func NewInserter(pool *pgxpool.Pool, opts Options) (*river.Client[pgx.Tx], error) {
	cfg := &river.Config{Logger: opts.Logger}
	cfg.FetchCooldown, cfg.FetchPollInterval = fetchTiming(opts)
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: new river inserter: %w", err)
	}
	return client, nil
}

// NewClient builds the River client that works Crier's queues, with every worker and periodic job
// registered over svc and pub (the publishing pipeline).
func NewClient(pool *pgxpool.Pool, svc *app.Service, pub *publishing.Service, opts Options) (*river.Client[pgx.Tx], error) {
	if svc == nil || pub == nil {
		return nil, errors.New("jobs: NewClient needs the app and publishing services")
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &platformStatusExpireWorker{svc: svc})
	addWebhookWorkers(workers, svc)
	river.AddWorker(workers, &deliverMailWorker{svc: svc})
	river.AddWorker(workers, &mailPurgeWorker{svc: svc})
	addSocialAccountWorkers(workers, svc)
	river.AddWorker(workers, &uploadCleanupWorker{svc: svc})
	river.AddWorker(workers, &publishWorker{pub: pub})
	cfg := &river.Config{Logger: opts.Logger, Workers: workers, Queues: map[string]river.QueueConfig{}, Middleware: opts.Middleware}
	for k, v := range Queues {
		cfg.Queues[k] = v
	}
	if opts.PublishWorkers > 0 {
		cfg.Queues[app.QueuePublish] = river.QueueConfig{MaxWorkers: opts.PublishWorkers}
	}
	cfg.RescueStuckJobsAfter = RescueStuckJobsAfter // River's default JobTimeout (1 min) is not longer
	if opts.RescueStuckJobsAfter > 0 {
		cfg.RescueStuckJobsAfter = opts.RescueStuckJobsAfter
		cfg.JobTimeout = opts.RescueStuckJobsAfter / 2 // River wants the rescue after the default timeout
	}
	cfg.PeriodicJobs = []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return app.PlatformStatusExpireArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
		uploadCleanupJob(),
		mailPurgeJob(),
	}
	cfg.PeriodicJobs = append(cfg.PeriodicJobs, webhookPeriodicJobs()...)
	cfg.PeriodicJobs = append(cfg.PeriodicJobs, socialAccountPeriodicJobs()...)
	cfg.PeriodicJobs = append(cfg.PeriodicJobs, idempotencyPurge(workers, svc))
	cfg.FetchCooldown, cfg.FetchPollInterval = fetchTiming(opts)
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: new river client: %w", err)
	}
	return client, nil
}

// fetchTiming: a 10 ms cooldown between fetches (River's default is 100 ms), a poll every 5 s
// (default 1 s) as notifications bring the work; tests may poll faster.
func fetchTiming(opts Options) (cooldown, poll time.Duration) {
	if opts.FetchPoll > 0 {
		return min(opts.FetchPoll, FetchCooldown), opts.FetchPoll
	}
	return FetchCooldown, FetchPollInterval
}

type platformStatusExpireWorker struct {
	river.WorkerDefaults[app.PlatformStatusExpireArgs]
	svc *app.Service
}

func (w *platformStatusExpireWorker) Work(ctx context.Context, _ *river.Job[app.PlatformStatusExpireArgs]) error {
	_, err := w.svc.ExpirePlatformStatuses(ctx)
	return err
}
