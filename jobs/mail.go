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
