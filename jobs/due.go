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
// beside the workers: it sleeps until the next publish job is due (looking again at least every
// DueIdleWait, for jobs inserted meanwhile), then notifies River's producers, which fetch them at
// once (FetchCooldown); publish jobs are inserted available (app.PublishTargetArgs.Hooks), so only
// River's own retries and snoozes are still scheduled and need making available. Idle, that is one statement per
// DueIdleWait; a post created less than DueIdleWait before its date may start up to that late.
// Under a backlog (jobs due DueBacklogAge ago still waiting: a burst) the producers are busy and
// fetch again as each worker frees, so PromoteDue looks again only every DueBacklogWait rather than at every
// later job's time (a burst's resumed flows came due every few milliseconds: 50 statements and
// notifications a second); a job that comes due as the backlog ends may start up to that late.
const (
	DueIdleWait    = time.Second
	DueBacklogAge  = 100 * time.Millisecond
	DueBacklogWait = 250 * time.Millisecond
	// DuePromoteBatch bounds one promotion; a full batch is followed at once by the next.
	DuePromoteBatch = 500
)

// PromoteDue runs until ctx ends.
func PromoteDue(ctx context.Context, db store.DBTX, log *slog.Logger) {
	var warned time.Time
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		wait := DueIdleWait
		n, next, backlog, err := store.PromoteDueJobs(ctx, db, app.QueuePublish, DuePromoteBatch, DueBacklogAge)
		switch {
		case err != nil:
			if ctx.Err() == nil && log != nil && time.Since(warned) > time.Minute {
				warned = time.Now() // once a minute while the database is unreachable; River's scheduler still runs
				log.Warn("promote due publish jobs", "err", err)
			}
		case n == DuePromoteBatch:
			wait = 0
		case next != nil:
			wait = min(wait, max(time.Until(*next), 0))
			if backlog {
				wait = max(wait, DueBacklogWait)
			}
		}
		timer.Reset(wait)
	}
}
