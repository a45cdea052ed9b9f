package app

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// The publishing pipeline's types; package publishing holds the protocol (publish_target.go).

// PublishRetryAt is when the next attempt after a transient failure runs: 30 s doubling per
// attempt, at most 30 min (30 s, 1 min, 2 min, 4 min, 8 min, 16 min, 30 min).
func PublishRetryAt(attempts int, now time.Time) time.Time {
	d := 30 * time.Second
	for i := 1; i < attempts && d < 30*time.Minute; i++ {
		d *= 2
	}
	return now.Add(min(d, 30*time.Minute))
}

// ReplyFinder is implemented by Repliers that can look up a reply an earlier attempt made (so a
// reply whose outcome is unknown is reconciled rather than given up on).
type ReplyFinder interface {
	FindReply(ctx context.Context, t *Token, req *ReplyRequest) (*Published, error)
}

// ErrAttemptInFlight: another worker may still be making this target's attempt (started less than
// the lease ago); the job waits (snoozes) until Until rather than risk a second publish.
type ErrAttemptInFlight struct{ Until time.Time }

func (e *ErrAttemptInFlight) Error() string {
	return "app: an attempt of this target may still be in flight until " + e.Until.Format(time.RFC3339)
}

// DefaultPublishLease is how long an attempt is presumed alive after its start or its last
// heartbeat (a live worker renews it every third of it while the network call runs), so only a
// dead worker's attempt is ever reconciled, and a minute after the crash at most.
const DefaultPublishLease = time.Minute

// CompleteFunc completes the running River job inside tx (river.JobCompleteTx).
type CompleteFunc func(ctx context.Context, tx pgx.Tx) error

// SelectedChannel answers the account's chosen channel (set-channel), or a named one.
func SelectedChannel(acct *SocialAccount, match func(Channel) bool) *Channel {
	for i := range acct.Channels {
		c := acct.Channels[i]
		if match != nil && match(c) {
			return &c
		}
		if match == nil && acct.ProviderPageID != nil && c.ID == *acct.ProviderPageID {
			return &c
		}
	}
	return nil
}
