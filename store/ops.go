package store

import (
	"context"
	"fmt"
)

// QueueDepth is how many River jobs of a queue are in a state.
type QueueDepth struct {
	Queue string
	State string
	Jobs  int64
}

// QueueDepths counts River's unfinished jobs by queue and state, for metrics at scrape time.
// Hand-written: river_job is River's table, outside sqlc's schema, and River's client has no
// count API (riverui reads it through River's internal driver). Finished states are left out, so
// the scan stays within River's (state, queue, …) fetch index and the live jobs. An available job
// not yet due (publish jobs are inserted so, app.PublishTargetArgs.Hooks) counts as scheduled.
func QueueDepths(ctx context.Context, db DBTX) ([]QueueDepth, error) {
	rows, err := db.Query(ctx, `SELECT queue, s, count(*) FROM (
			SELECT queue, CASE WHEN state = 'available' AND scheduled_at > now() THEN 'scheduled' ELSE state::text END AS s FROM river_job
			WHERE state IN ('available', 'pending', 'retryable', 'running', 'scheduled')) j
		GROUP BY queue, s`)
	if err != nil {
		return nil, fmt.Errorf("store: queue depths: %w", err)
	}
	defer rows.Close()
	var out []QueueDepth
	for rows.Next() {
		var d QueueDepth
		if err := rows.Scan(&d.Queue, &d.State, &d.Jobs); err != nil {
			return nil, fmt.Errorf("store: queue depths: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// SchemaVersion is the number of the last Crier migration applied (tern's schema_version table,
// outside sqlc's schema like River's).
func SchemaVersion(ctx context.Context, db DBTX) (int, error) {
	var v int32
	if err := db.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return int(v), nil
}
