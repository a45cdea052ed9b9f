package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
)

// deliverMailWorker sends one outbox mail through SMTP (app.Service.DeliverMail). A failure is
// recorded on the mail and retried by River with its exponential backoff, up to
// app.DeliverMailMaxAttempts attempts.
type deliverMailWorker struct {
	river.WorkerDefaults[app.DeliverMailArgs]
	svc *app.Service
}

func (w *deliverMailWorker) Work(ctx context.Context, job *river.Job[app.DeliverMailArgs]) error {
	return w.svc.DeliverMail(ctx, job.Args.MailID)
}

// Timeout bounds one delivery attempt; the SMTP sender has its own 30 s budget inside it.
func (w *deliverMailWorker) Timeout(*river.Job[app.DeliverMailArgs]) time.Duration {
	return time.Minute
}

// MailPurgeInterval is how often mail bodies past their retention are cleared: well inside the
// shortest token's lifetime (a reset link lives an hour).
const MailPurgeInterval = 5 * time.Minute

type mailPurgeWorker struct {
	river.WorkerDefaults[app.MailPurgeArgs]
	svc *app.Service
}

func (w *mailPurgeWorker) Work(ctx context.Context, _ *river.Job[app.MailPurgeArgs]) error {
	_, err := w.svc.PurgeMailBodies(ctx)
	return err
}

func mailPurgeJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(MailPurgeInterval),
		func() (river.JobArgs, *river.InsertOpts) { return app.MailPurgeArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
