package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// StartPostAttemptNoFlush turns synchronous_commit off for its own transaction only: the next
// statement on the same connection (a checkpoint that must be durable before a network call)
// commits synchronously again. No row started answers pgx.ErrNoRows, as StartPostAttempt does.
func TestStartPostAttemptNoFlushStaysInItsTransaction(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	c, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer c.Release()
	now := time.Now().UTC()
	_, err = store.StartPostAttemptNoFlush(ctx, c.Conn(), store.StartPostAttemptParams{PostID: "00000000-0000-4000-8000-000000000001",
		ID: "00000000-0000-4000-8000-000000000002", Version: 1, StartedAt: &now, LeaseBefore: &now})
	require.ErrorIs(t, err, pgx.ErrNoRows)
	var setting string
	require.NoError(t, c.QueryRow(ctx, `SHOW synchronous_commit`).Scan(&setting))
	require.Equal(t, "on", setting)
}

// A published target's pending checkpoints are written by the outcome's own UPDATE: a second
// update of the row in tx2 would run its foreign-key checks again (the row is the transaction's
// own by then), each taking a share lock on a referenced row — the organization's, which every
// worker of the organization locks so. Checked by the FK check's table lock on organizations,
// absent; and the checkpoints land beside the earlier ones.
func TestPostTargetPostedWritesCheckpointsInOneUpdate(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org, team, acc = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-0000000000a1"
	const post, target = "00000000-0000-4000-8000-0000000000b1", "00000000-0000-4000-8000-0000000000c1"
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'A');
INSERT INTO social_accounts (id, organization_id, team_id, type) VALUES ('`+acc+`', '`+org+`', '`+team+`', 'MASTODON');
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  VALUES ('`+post+`', '`+org+`', '`+team+`', 'P', now(), 'PROCESSING', '{MASTODON}', '{}');
INSERT INTO publish_targets (id, organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key, checkpoints)
  VALUES ('`+target+`', '`+org+`', 'POST', '`+post+`', 'MASTODON', '`+acc+`', 'PROCESSING', '{}', 'k', '{"a": "1"}')`)
	require.NoError(t, err)

	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	ext, now := "ext-1", time.Now().UTC()
	p, _, rows, err := store.New(tx).PostTargetPostedLocked(ctx, tx, store.PostTargetPostedParams{PostID: post, ID: target, ExternalID: &ext, PostedAt: &now},
		&store.SaveCheckpointsParams{ID: target, Keys: []string{"b", "a"}, Vals: []string{"2", "3"}})
	require.NoError(t, err)
	require.NotNil(t, p)
	require.Len(t, rows, 1)
	require.Equal(t, "POSTED", rows[0].Status)
	require.JSONEq(t, `{"a": "3", "b": "2"}`, string(rows[0].Checkpoints))
	var fkLocks int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND relation = 'organizations'::regclass AND mode = 'RowShareLock'`).Scan(&fkLocks))
	require.Zero(t, fkLocks, "no foreign-key check locked the organization")

	_, _, rows, err = store.New(tx).PostTargetPostedLocked(ctx, tx, store.PostTargetPostedParams{PostID: post, ID: target, ExternalID: &ext, PostedAt: &now}, nil)
	require.NoError(t, err)
	require.JSONEq(t, `{"a": "3", "b": "2"}`, string(rows[0].Checkpoints), "no checkpoints pending: kept as they are")
}

// StartPostAttempt reaches the target's account by its primary key, also before social_accounts
// has statistics (a new instance, the bench's database): as an EXISTS, the account check was
// planned as a join scanning every live account of the (team, type) index, for every attempt.
func TestStartPostAttemptProbesTheAccountByKey(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org = "00000000-0000-4000-8000-000000000001"
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) SELECT md5('t'||i)::uuid, '`+org+`', '00000000-0000-4000-8000-000000000009', 'T'||i FROM generate_series(1, 30) i;
INSERT INTO social_accounts (organization_id, team_id, type) SELECT '`+org+`', md5('t'||i)::uuid, n FROM generate_series(1, 30) i, unnest(ARRAY['MASTODON', 'BLUESKY', 'X']) n;
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  SELECT md5('p'||i)::uuid, '`+org+`', md5('t1')::uuid, 'P'||i, now(), 'SCHEDULED', '{MASTODON}', '{}' FROM generate_series(1, 300) i;
INSERT INTO publish_targets (organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key)
  SELECT '`+org+`', 'POST', p.id, 'MASTODON', (SELECT id FROM social_accounts ORDER BY id DESC LIMIT 1), 'SCHEDULED', '{}', p.id::text FROM posts p`)
	require.NoError(t, err)
	var post, target string
	require.NoError(t, pool.QueryRow(ctx, `SELECT post_id::text, id::text FROM publish_targets LIMIT 1`).Scan(&post, &target))
	now := time.Now().UTC()
	c, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer c.Release()
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} { // pgx prepares it: either may run
		_, err := c.Exec(ctx, "SET plan_cache_mode = "+mode)
		require.NoError(t, err)
		rows, err := c.Query(ctx, "EXPLAIN "+store.StartPostAttemptSQL, post, &now, target, 1, &now)
		require.NoError(t, err)
		plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		text := strings.Join(plan, "\n")
		require.NotContains(t, text, "social_accounts_team_type_live", "%s:\n%s", mode, text)
		require.NotContains(t, text, "Seq Scan on social_accounts", "%s:\n%s", mode, text)
	}
}
