package store_test

import (
	"context"
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
