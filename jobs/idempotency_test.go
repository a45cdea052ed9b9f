package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/store/storetest"
)

// The periodic purge (run on start) deletes Idempotency-Key answers past 24 hours, and only those.
func TestIdempotencyKeysPurgedAfter24Hours(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `
		WITH u AS (INSERT INTO users (email, password_hash) VALUES ('purge@example.com', 'x') RETURNING id),
		     o AS (INSERT INTO organizations (created_by_id, name) SELECT id, 'Purge' FROM u RETURNING id)
		INSERT INTO idempotency_keys (organization_id, key, fingerprint, state, created_at)
		SELECT o.id, k, '\x00', 'done', now() - age FROM o,
			(VALUES ('old', interval '24 hours 1 minute'), ('young', interval '23 hours 59 minutes')) AS v(k, age)`)
	require.NoError(t, err)

	svc := apptest.New(t, pool, app.Options{})
	client, err := jobs.NewClient(pool, svc, apptest.Publishing(t, svc), jobs.Options{Logger: slog.New(slog.DiscardHandler), FetchPoll: 50 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { require.NoError(t, client.Stop(context.Background())) })

	keys := func() []string {
		rows, err := pool.Query(ctx, `SELECT key FROM idempotency_keys ORDER BY key`)
		require.NoError(t, err)
		var out []string
		for rows.Next() {
			var k string
			require.NoError(t, rows.Scan(&k))
			out = append(out, k)
		}
		require.NoError(t, rows.Err())
		return out
	}
	require.Eventually(t, func() bool { return len(keys()) == 1 }, 15*time.Second, 100*time.Millisecond)
	require.Equal(t, []string{"young"}, keys())
}
