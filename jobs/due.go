package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// Due-time precision for publishing. River moves scheduled jobs to available in its scheduler,
// every 5 s (not configurable in v0.51), so a post could start up to 5 s late. PromoteDue runs
// beside the workers and, every interval, makes publish jobs due within the next horizon available
// ahead of time; River's fetch (every FetchPollInterval, see NewClient) only takes a job once its
// scheduled_at has passed, so posts start within about one fetch interval of their date.
const (
	DuePromoteInterval = 100 * time.Millisecond
	DuePromoteHorizon  = time.Second
	// DuePromoteBatch bounds one promotion (5,000 jobs/s at the interval, far above what the
	// publish workers take); a full batch is followed at once by the next.
	DuePromoteBatch = 500
)

// PromoteDue runs until ctx ends.
func PromoteDue(ctx context.Context, db store.DBTX, log *slog.Logger) {
	t := time.NewTicker(DuePromoteInterval)
	defer t.Stop()
	var warned time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := store.PromoteDueJobs(ctx, db, app.QueuePublish, DuePromoteHorizon, DuePromoteBatch)
			for err == nil && n == DuePromoteBatch && ctx.Err() == nil {
				n, err = store.PromoteDueJobs(ctx, db, app.QueuePublish, DuePromoteHorizon, DuePromoteBatch)
			}
			if err != nil && ctx.Err() == nil && log != nil && time.Since(warned) > time.Minute {
				warned = time.Now() // once a minute while the database is unreachable; River's scheduler still runs
				log.Warn("promote due publish jobs", "err", err)
			}
		}
	}
}
