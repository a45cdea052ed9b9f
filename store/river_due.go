package store

import (
	"context"
	"fmt"
	"time"
)

// PromoteDueJobs makes a queue's scheduled (and retryable) River jobs due within horizon available, so River's
// fetch (which only takes available jobs whose scheduled_at has passed) starts them on time rather
// than after its scheduler's next pass (every 5 s, not configurable in River v0.51). The fetch's
// own scheduled_at guard keeps them from starting early. Answers how many were promoted.
func PromoteDueJobs(ctx context.Context, db DBTX, queue string, horizon time.Duration) (int64, error) {
	tag, err := db.Exec(ctx, `UPDATE river_job SET state = 'available'
		WHERE state IN ('scheduled', 'retryable') AND queue = $1 AND scheduled_at <= now() + make_interval(secs => $2)`, queue, horizon.Seconds())
	if err != nil {
		return 0, fmt.Errorf("store: promote due jobs: %w", err)
	}
	return tag.RowsAffected(), nil
}
