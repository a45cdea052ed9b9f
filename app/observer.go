package app

import "time"

// Observer hears outcomes as they settle, for metrics (observe.Metrics implements it); app stays
// free of any metrics library. Calls come once the outcome is known and must not block.
type Observer interface {
	// PublishSettled: one publish attempt of a target on network n ended in status (POSTED,
	// RETRYING, ERROR, PROCESSING …) after took (the attempt, network call included).
	PublishSettled(n Network, status PostStatus, took time.Duration)
	// WebhookAttempted: one delivery attempt was made and ended in status (SUCCESS, PENDING: to be
	// retried, FAILED).
	WebhookAttempted(status string, took time.Duration)
}

// NoObserver is the Observer of an instance without metrics.
type NoObserver struct{}

func (NoObserver) PublishSettled(Network, PostStatus, time.Duration) {}
func (NoObserver) WebhookAttempted(string, time.Duration)            {}
