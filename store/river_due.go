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
//
// Why SQL on River's own table (checked against River v0.51.1): River has no API for this. Its
// scheduler runs the same transition (the JobSchedule query), but its interval is an unexported
// Config field; Client.JobRetry takes one job at a time (it has no batch form), sets its
// scheduled_at to now (the job would start up to a horizon early) and raises max_attempts of an
// exhausted job; Client.JobUpdate only sets a job's output. This statement writes river_job's
// state and nothing else (it reads queue, scheduled_at and id), so River's fetch (JobGetAvailable:
// state = 'available' AND scheduled_at <= now()) still waits for the job's time. Unlike River's
// scheduler it does not settle unique-key conflicts, which is sound only while publish jobs are
// inserted without UniqueOpts (app.PublishTargetArgs). Check again when upgrading River: river_job
// is River's.
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
