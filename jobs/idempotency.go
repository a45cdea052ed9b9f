package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
)

// IdempotencyPurgeInterval is how often Idempotency-Key answers past their 24 hours are deleted
// (lookups ignore them already; this keeps the table small).
const IdempotencyPurgeInterval = time.Hour

type idempotencyPurgeWorker struct {
	river.WorkerDefaults[app.IdempotencyPurgeArgs]
	svc *app.Service
}

func (w *idempotencyPurgeWorker) Work(ctx context.Context, _ *river.Job[app.IdempotencyPurgeArgs]) error {
	_, err := w.svc.PurgeIdempotencyKeys(ctx)
	return err
}

// idempotencyPurge registers the worker and answers its periodic job.
func idempotencyPurge(workers *river.Workers, svc *app.Service) *river.PeriodicJob {
	river.AddWorker(workers, &idempotencyPurgeWorker{svc: svc})
	return river.NewPeriodicJob(river.PeriodicInterval(IdempotencyPurgeInterval),
		func() (river.JobArgs, *river.InsertOpts) { return app.IdempotencyPurgeArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
