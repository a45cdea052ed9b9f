package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// PromoteDue runs its statement at every wake-up, and a burst wakes it often: the statement must
// not read every waiting job. With 1,000 then 10,000 jobs available at once (a burst being worked),
// 1,000 scheduled ahead and as many finished, ANALYZEd, its look-ahead reads the river_job_next_due
// index and the whole statement touches about as many buffers at 10,000 as at 1,000 (it read
// every available job's index entry before the index: 55 buffers at 1,000, 85 at 10,000).
func TestPromoteDueJobsReadsBoundedRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var pool interface {
		Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
		QueryRow(context.Context, string, ...any) pgx.Row
	}
	seed := func(available int) {
		pool, _ = storetest.NewDB(t) // a fresh table each time: pages emptied by a DELETE would weigh on the scans
		for _, q := range []string{
			`INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at)
			SELECT '{}', 'publish_target', 25, 'publish', 'available', now() - interval '1 second' FROM generate_series(1, $1::int)`,
			`INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at, finalized_at)
			SELECT '{}', 'publish_target', 25, 'publish', 'completed', now() - interval '1 minute', now() FROM generate_series(1, $1::int)`,
			`INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at)
			SELECT '{}', 'publish_target', 25, 'publish', 'scheduled', now() + (i || ' seconds')::interval FROM generate_series(1, 1000) i`,
		} {
			var args []any
			if strings.Contains(q, "$1") {
				args = []any{available}
			}
			if _, err := pool.Exec(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := pool.Exec(ctx, `VACUUM ANALYZE river_job`); err != nil {
			t.Fatal(err)
		}
	}
	explain := func() (plan string, buffers int) {
		var raw []byte
		if err := pool.QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+store.PromoteDueJobsSQL, "publish", 500).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var out []struct {
			Plan struct {
				Hit  int `json:"Shared Hit Blocks"`
				Read int `json:"Shared Read Blocks"`
			} `json:"Plan"`
		}
		if err := json.Unmarshal(raw, &out); err != nil || len(out) != 1 {
			t.Fatalf("explain: %v %s", err, raw)
		}
		return string(raw), out[0].Plan.Hit + out[0].Plan.Read
	}
	seed(1000)
	_, small := explain()
	seed(10000)
	plan, big := explain()
	t.Logf("buffers: %d with 1,000 available, %d with 10,000", small, big)
	if big > small+10 || big > 60 {
		t.Fatalf("the statement reads more as more jobs wait: %d buffers with 1,000 available, %d with 10,000\n%s", small, big, plan)
	}
}
