package app

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Jobs: River's queues and the arguments of every job, in one place. They live in app so the
// Service can enqueue them (InsertTx) without importing jobs; jobs registers a worker per kind and
// a worker count per queue.

// Enqueuer inserts River jobs inside the caller's transaction, so a row and its job commit together.
// *river.Client[pgx.Tx] satisfies it (jobs.NewInserter builds the Service's).
type Enqueuer interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Queue names (jobs.Queues gives each its workers).
const (
	QueuePublish  = "publish"  // publishing posts and comments: one job per target version
	QueueImports  = "imports"  // history, comment and review imports
	QueueWebhooks = "webhooks" // fan-outs and deliveries
	QueueDefault  = river.QueueDefault
)

// publishJobMaxAttempts bounds River's own retries of a publish job (crashes, database errors); the
// network's transient failures are retried by new jobs (RETRYING), maxPublishAttempts of them.
const publishJobMaxAttempts = 25

// PublishTargetArgs publishes one version of one target (Service.PublishTarget). PostID or
// CommentID names the target's owner (it never changes) so tx1 locks it without reading the target
// first; jobs queued before they were added read it.
type PublishTargetArgs struct {
	TargetID  string `json:"target_id"`
	Version   int    `json:"version"`
	PostID    string `json:"post_id,omitempty"`
	CommentID string `json:"comment_id,omitempty"`
}

func (PublishTargetArgs) Kind() string { return "publish_target" }

// InsertOpts puts publishing on its queue.
func (PublishTargetArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueuePublish, MaxAttempts: publishJobMaxAttempts}
}

// Hooks: a publish job due later is inserted available, not scheduled. River's fetch takes only
// jobs whose scheduled_at has come, so it still starts at its time (jobs.PromoteDue wakes the
// producers then; River's poll is the backstop), but River's scheduler, which claims every due
// scheduled row FOR UPDATE without SKIP LOCKED every 5 s (up to 10,000 at a time), no longer
// fights the workers over a burst of them; its own look-ahead leaves jobs in this very state.
func (PublishTargetArgs) Hooks() []rivertype.Hook {
	return []rivertype.Hook{river.HookInsertBeginFunc(insertAvailable)}
}

func insertAvailable(_ context.Context, p *rivertype.JobInsertParams) error {
	if p.State == rivertype.JobStateScheduled {
		p.State = rivertype.JobStateAvailable
	}
	return nil
}

// FanOutEventArgs turns one outbox event into deliveries and notifications (Service.FanOutEvent).
type FanOutEventArgs struct {
	EventID string `json:"event_id"`
}

func (FanOutEventArgs) Kind() string { return "webhook_fan_out" }

// InsertOpts puts fan-outs on the webhooks queue.
func (FanOutEventArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueWebhooks, MaxAttempts: 25}
}

// DeliverWebhookArgs makes the attempts of one delivery (Service.DeliverWebhook).
type DeliverWebhookArgs struct {
	DeliveryID string `json:"delivery_id"`
}

func (DeliverWebhookArgs) Kind() string { return "webhook_deliver" }

// InsertOpts: the webhooks queue, and the retry schedule's number of attempts.
func (DeliverWebhookArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueWebhooks, MaxAttempts: WebhookMaxAttempts}
}

// DeactivateWebhooksArgs is the periodic job that deactivates webhooks failing for too long.
type DeactivateWebhooksArgs struct{}

func (DeactivateWebhooksArgs) Kind() string { return "webhook_deactivate_failing" }

// DeliverMailArgs delivers one mail of the outbox through SMTP (enqueued only when SMTP_URL is set).
type DeliverMailArgs struct {
	MailID string `json:"mail_id"`
}

func (DeliverMailArgs) Kind() string { return "deliver_mail" }

// InsertOpts bounds the retries of one mail (DeliverMailMaxAttempts).
func (DeliverMailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: DeliverMailMaxAttempts}
}

// PlatformStatusExpireArgs is the periodic job that ends platform-status windows.
type PlatformStatusExpireArgs struct{}

func (PlatformStatusExpireArgs) Kind() string { return "platform_status_expire" }

// SocialAccountTokensRefreshArgs is the periodic job that refreshes network tokens before they expire.
type SocialAccountTokensRefreshArgs struct{}

func (SocialAccountTokensRefreshArgs) Kind() string { return "social_account_tokens_refresh" }

// SocialAccountPurgeArgs is the periodic job that purges disconnected accounts past their deleteOn.
type SocialAccountPurgeArgs struct{}

func (SocialAccountPurgeArgs) Kind() string { return "social_account_purge" }

// UploadCleanupArgs is the periodic job that runs CleanupUploads.
type UploadCleanupArgs struct{}

func (UploadCleanupArgs) Kind() string { return "upload_cleanup" }

// MailPurgeArgs is the periodic job that runs PurgeMailBodies.
type MailPurgeArgs struct{}

func (MailPurgeArgs) Kind() string { return "mail_purge" }
