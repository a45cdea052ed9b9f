package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
)

// publishWorker runs the pipeline for one target version (publishing.Service.PublishTarget). The job is
// completed inside the transaction that records the outcome (river.JobCompleteTx), so a recorded
// outcome and a finished job commit together; a worker killed mid-call leaves the job running
// (River rescues it) or errored (River retries it), and the next run reconciles the open attempt.
type publishWorker struct {
	river.WorkerDefaults[app.PublishTargetArgs]
	pub *publishing.Service
}

func (w *publishWorker) Work(ctx context.Context, job *river.Job[app.PublishTargetArgs]) error {
	ctx, cancel := beyondTimeout(ctx, publishAttemptBudget)
	defer cancel()
	err := w.publish(ctx, job)
	var inFlight *app.ErrAttemptInFlight
	if errors.As(err, &inFlight) {
		return river.JobSnooze(max(time.Until(inFlight.Until), time.Second))
	}
	return err
}

func (w *publishWorker) publish(ctx context.Context, job *river.Job[app.PublishTargetArgs]) error {
	return w.pub.PublishTarget(ctx, job.Args, func(ctx context.Context, tx pgx.Tx) error {
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		return err
	})
}

// NextRetry: a job that failed without an outcome (crash, database error, cancelled call) runs
// again soon; the network's own retry schedule is the pipeline's (RETRYING targets get new jobs).
func (w *publishWorker) NextRetry(job *river.Job[app.PublishTargetArgs]) time.Time {
	return time.Now().Add(time.Duration(min(job.Attempt, 30)) * time.Second)
}

// Timeout is how long River waits before its rescuer may take a running publish job for dead
// (RescueStuckJobsAfter): a minute, so a crash heals in about one. An attempt may run longer (large
// videos, polled media flows): Work runs it under publishAttemptBudget instead of River's deadline,
// and its lease heartbeat (publishing's publish_lease.go) makes a rescued copy wait rather than publish.
func (w *publishWorker) Timeout(*river.Job[app.PublishTargetArgs]) time.Duration {
	return RescueStuckJobsAfter
}

// publishAttemptBudget bounds one attempt (async media flows are polled inside it).
const publishAttemptBudget = 15 * time.Minute

// beyondTimeout answers a context that ends when parent is cancelled (shutdown, StopAndCancel) or
// after budget, but not at parent's deadline (River's Timeout, which only marks the job rescuable).
// A cancellation arriving after that deadline is not seen: budget (or the process's exit) ends it.
func beyondTimeout(parent context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), budget)
	stop := context.AfterFunc(parent, func() {
		if !errors.Is(parent.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return ctx, func() { stop(); cancel() }
}
