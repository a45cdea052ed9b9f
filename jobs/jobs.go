// Package jobs holds River workers and periodic jobs, and builds the River client with Crier's queues.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/crier/crier/app"
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

// River's fetch timing (see PromoteDue).
const (
	FetchCooldown     = 25 * time.Millisecond
	FetchPollInterval = 100 * time.Millisecond
)

// Options configure the client.
type Options struct {
	// Work makes the client fetch and run jobs; without it, it only inserts (an API-only instance).
	Work   bool
	Logger *slog.Logger
	// FetchPoll shortens the polling intervals (tests); zero keeps River's defaults.
	FetchPoll time.Duration
	// RescueStuckJobsAfter shortens River's rescue of jobs a dead worker left running (tests that
	// kill workers); zero keeps River's default (1 hour).
	RescueStuckJobsAfter time.Duration
	// PublishWorkers overrides the publish queue's worker count (benchmarks); zero keeps Queues'.
	PublishWorkers int
}

// NewClient builds the River client with every worker and periodic job registered.
func NewClient(pool *pgxpool.Pool, svc *app.Service, opts Options) (*river.Client[pgx.Tx], error) {
	cfg := &river.Config{Logger: opts.Logger}
	if opts.Work {
		workers := river.NewWorkers()
		river.AddWorker(workers, &platformStatusExpireWorker{svc: svc})
		addWebhookWorkers(workers, svc)
		river.AddWorker(workers, &deliverMailWorker{svc: svc})
		addSocialAccountWorkers(workers, svc)
		river.AddWorker(workers, &uploadCleanupWorker{svc: svc})
		river.AddWorker(workers, &publishWorker{svc: svc})
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{}
		for k, v := range Queues {
			cfg.Queues[k] = v
		}
		if opts.PublishWorkers > 0 {
			cfg.Queues[app.QueuePublish] = river.QueueConfig{MaxWorkers: opts.PublishWorkers}
		}
		if opts.RescueStuckJobsAfter > 0 {
			cfg.RescueStuckJobsAfter = opts.RescueStuckJobsAfter
			cfg.JobTimeout = opts.RescueStuckJobsAfter / 2 // River wants the rescue after the default timeout
		}
		cfg.PeriodicJobs = []*river.PeriodicJob{
			river.NewPeriodicJob(river.PeriodicInterval(time.Minute),
				func() (river.JobArgs, *river.InsertOpts) { return app.PlatformStatusExpireArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true}),
			uploadCleanupJob(),
		}
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, webhookPeriodicJobs()...)
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, socialAccountPeriodicJobs()...)
		// Publishing's due-time precision: fetch every 100 ms (River's default is 1 s) with a 25 ms
		// cooldown between fetches (default 100 ms); PromoteDue makes due jobs available ahead.
		cfg.FetchCooldown, cfg.FetchPollInterval = FetchCooldown, FetchPollInterval
		if opts.FetchPoll > 0 {
			cfg.FetchCooldown = min(opts.FetchPoll, FetchCooldown)
			cfg.FetchPollInterval = opts.FetchPoll
		}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: new river client: %w", err)
	}
	return client, nil
}

type platformStatusExpireWorker struct {
	river.WorkerDefaults[app.PlatformStatusExpireArgs]
	svc *app.Service
}

func (w *platformStatusExpireWorker) Work(ctx context.Context, _ *river.Job[app.PlatformStatusExpireArgs]) error {
	_, err := w.svc.ExpirePlatformStatuses(ctx)
	return err
}
