package publishing

import (
	"context"
	"time"

	"github.com/crier/crier/store"
)

// heartbeat renews the attempt's lease every third of it while the network call runs: River takes
// a publish job running past a minute for dead and retries it (jobs.RescueStuckJobsAfter), and that
// copy must find the lease held while this worker lives (ErrAttemptInFlight: it waits), yet a dead
// worker's lease must lapse soon (a minute by default) so the copy reconciles it. The lease starts
// at attempt_started_at, which a renewal moves; stop ends the heartbeat and leaves the last value
// in at.startedAt, which AbandonAttempt matches.
func (s *Service) heartbeat(ctx context.Context, at *attempt) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(s.publishLease / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			now := s.now().UTC().Truncate(time.Microsecond) // as PostgreSQL stores it
			n, err := s.q.RenewAttemptLease(ctx, store.RenewAttemptLeaseParams{ID: at.target.ID, StartedAt: &at.startedAt, RenewedAt: &now})
			if err == nil && n == 1 {
				at.startedAt = now
			}
		}
	}()
	return func() { close(done); <-exited }
}
