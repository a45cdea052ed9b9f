package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
)

// WebhookDeactivateInterval is how often failing webhooks are looked for.
const WebhookDeactivateInterval = 10 * time.Minute

// addWebhookWorkers registers the fan-out, delivery and deactivation workers.
func addWebhookWorkers(workers *river.Workers, svc *app.Service) {
	river.AddWorker(workers, &fanOutWorker{svc: svc})
	river.AddWorker(workers, &deliverWebhookWorker{svc: svc})
	river.AddWorker(workers, &deactivateWebhooksWorker{svc: svc})
}

// webhookPeriodicJobs are the webhooks capability's periodic jobs.
func webhookPeriodicJobs() []*river.PeriodicJob {
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(WebhookDeactivateInterval),
			func() (river.JobArgs, *river.InsertOpts) { return app.DeactivateWebhooksArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
}

// fanOutWorker turns one outbox event into deliveries and notifications (app.Service.FanOutEvent).
type fanOutWorker struct {
	river.WorkerDefaults[app.FanOutEventArgs]
	svc *app.Service
}

func (w *fanOutWorker) Work(ctx context.Context, job *river.Job[app.FanOutEventArgs]) error {
	return w.svc.FanOutEvent(ctx, job.Args.EventID)
}

// deliverWebhookWorker makes the attempts of one delivery. River's retries are the schedule: each
// failed attempt returns an error and NextRetry answers app.WebhookRetryAt, the same instant the
// service recorded as the delivery's nextAttemptAt; the last failure cancels the job (the delivery
// is FAILED). A busy endpoint snoozes the job (no attempt used, worker freed).
type deliverWebhookWorker struct {
	river.WorkerDefaults[app.DeliverWebhookArgs]
	svc *app.Service
}

func (w *deliverWebhookWorker) Work(ctx context.Context, job *river.Job[app.DeliverWebhookArgs]) error {
	attemptedAt := time.Now()
	if job.AttemptedAt != nil {
		attemptedAt = *job.AttemptedAt
	}
	err := w.svc.DeliverWebhook(ctx, job.Args.DeliveryID, job.Attempt, job.MaxAttempts, attemptedAt)
	var failed *app.DeliveryFailedError
	switch {
	case errors.Is(err, app.ErrEndpointBusy):
		return river.JobSnooze(app.WebhookBusySnooze())
	case errors.As(err, &failed) && failed.Final:
		return river.JobCancel(err)
	}
	return err
}

func (w *deliverWebhookWorker) NextRetry(job *river.Job[app.DeliverWebhookArgs]) time.Time {
	attemptedAt := time.Now()
	if job.AttemptedAt != nil {
		attemptedAt = *job.AttemptedAt
	}
	return app.WebhookRetryAt(job.Args.DeliveryID, job.Attempt, attemptedAt)
}

// Timeout leaves room for the 15 s request and the bookkeeping around it.
func (w *deliverWebhookWorker) Timeout(*river.Job[app.DeliverWebhookArgs]) time.Duration {
	return app.WebhookTimeout + 15*time.Second
}

// deactivateWebhooksWorker deactivates webhooks failing for too long (periodic).
type deactivateWebhooksWorker struct {
	river.WorkerDefaults[app.DeactivateWebhooksArgs]
	svc *app.Service
}

func (w *deactivateWebhooksWorker) Work(ctx context.Context, _ *river.Job[app.DeactivateWebhooksArgs]) error {
	_, err := w.svc.DeactivateFailingWebhooks(ctx)
	return err
}
