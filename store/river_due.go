package store

import (
	"context"
	"fmt"
	"time"
)

// PromoteDueJobs makes a queue's scheduled (and retryable) River jobs whose time has come available
// and wakes River's producers of the queue with the notification River's own inserts send
// (pg_notify on <schema>.river_insert, {"queue": …}; River's schema is the current one), so they fetch the
// jobs at once instead of at their next poll, and the scheduler's next pass (every 5 s, not
// configurable in River v0.51) is not waited for. At most limit jobs per call, the soonest first,
// skipping rows another transaction holds: a burst of thousands due at once is promoted over
// several calls without blocking River's own scheduler on the same rows (one UPDATE of every due
// row contended with it for tens of seconds in the 10,000-post bench). Answers how many were
// promoted, when the queue's next job is due (nil: none) and whether the queue has a backlog (jobs
// available since backlogAge or longer: its producers are busy and fetch again as each worker
// frees, so a wake-up at a later job's time adds nothing), in the same round trip.
//
// Publish jobs due later are inserted available (app.PublishTargetArgs.Hooks), and River's scheduler
// makes jobs due within its next interval (5 s) available ahead, both without a notification at
// their time, so that River's fetch (scheduled_at <= now()) would find them only at its next poll.
// The notification therefore also goes out when the queue holds available jobs already due, and
// the next due time counts available jobs not yet due: PromoteDue wakes at their time too. What
// is left to promote is River's own: retries of a failed job and snoozes.
//
// Why SQL on River's own table (checked against River v0.51.1): River has no API for this. Its
// scheduler runs the same transition (the JobSchedule query), but its interval is an unexported
// Config field; Client.JobRetry takes one job at a time (it has no batch form), sets its
// scheduled_at to now and raises max_attempts of an exhausted job; Client.JobUpdate only sets a
// job's output. This statement writes river_job's state and nothing else (it reads queue,
// scheduled_at and id) and only for jobs already due, as River's scheduler does. Unlike River's
// scheduler it does not settle unique-key conflicts, which is sound only while publish jobs are
// inserted without UniqueOpts (app.PublishTargetArgs). Check again when upgrading River: river_job
// is River's.
func PromoteDueJobs(ctx context.Context, db DBTX, queue string, limit int, backlogAge time.Duration) (int64, *time.Time, bool, error) {
	var promoted, notified int64
	var next *time.Time
	var backlog bool
	err := db.QueryRow(ctx, `WITH due AS (
			SELECT id FROM river_job
			WHERE state IN ('scheduled', 'retryable') AND queue = $1 AND scheduled_at <= now()
			ORDER BY scheduled_at, id LIMIT $2 FOR UPDATE SKIP LOCKED
		), promoted AS (
			UPDATE river_job SET state = 'available' WHERE id IN (SELECT id FROM due) RETURNING id
		), notified AS (
			SELECT pg_notify(current_schema() || '.river_insert', json_build_object('queue', $1::text)::text)
			WHERE EXISTS (SELECT 1 FROM promoted)
				OR EXISTS (SELECT 1 FROM river_job WHERE state = 'available' AND queue = $1 AND scheduled_at <= now())
		)
		SELECT (SELECT count(*) FROM promoted), (SELECT count(*) FROM notified),
			(SELECT min(scheduled_at) FROM river_job WHERE state IN ('scheduled', 'retryable', 'available') AND queue = $1 AND scheduled_at > now()),
			EXISTS (SELECT 1 FROM river_job WHERE state = 'available' AND queue = $1 AND scheduled_at <= now() - $3 * interval '1 microsecond')`,
		queue, limit, backlogAge.Microseconds()).Scan(&promoted, &notified, &next, &backlog)
	if err != nil {
		return 0, nil, false, fmt.Errorf("store: promote due jobs: %w", err)
	}
	return promoted, next, backlog, nil
}
