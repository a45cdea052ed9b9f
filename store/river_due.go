package store

import (
	"context"
	"fmt"
	"time"
)

// PromoteDueJobs makes a queue's scheduled (and retryable) River jobs due within horizon available, so River's
// fetch (which only takes available jobs whose scheduled_at has passed) starts them on time rather
// than after its scheduler's next pass (every 5 s, not configurable in River v0.51). The fetch's
// own scheduled_at guard keeps them from starting early. At most limit jobs per call, the soonest
// first, skipping rows another transaction holds: a burst of thousands due at once is promoted
// over several calls without blocking River's own scheduler on the same rows (one UPDATE of every
// due row contended with it for tens of seconds in the 10,000-post bench). Answers how many were promoted.
func PromoteDueJobs(ctx context.Context, db DBTX, queue string, horizon time.Duration, limit int) (int64, error) {
	tag, err := db.Exec(ctx, `UPDATE river_job SET state = 'available'
		WHERE id IN (SELECT id FROM river_job
			WHERE state IN ('scheduled', 'retryable') AND queue = $1 AND scheduled_at <= now() + make_interval(secs => $2)
			ORDER BY scheduled_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)`, queue, horizon.Seconds(), limit)
	if err != nil {
		return 0, fmt.Errorf("store: promote due jobs: %w", err)
	}
	return tag.RowsAffected(), nil
}
