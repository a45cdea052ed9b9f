package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// InOutcomeTx on a pool begins its transaction with its first statement (one round trip: BEGIN,
// the SET LOCAL, the statement), with synchronous_commit off inside it only; what fn writes commits
// together, or not at all when fn fails — also after a failed statement and after a Query, which
// begins alone.
func TestInOutcomeTxBeginsWithItsFirstStatement(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `CREATE TABLE outcome_probe (n int PRIMARY KEY)`)
	require.NoError(t, err)
	count := func() (n int) {
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM outcome_probe`).Scan(&n))
		return n
	}

	require.NoError(t, store.InOutcomeTx(ctx, pool, func(tx pgx.Tx) error {
		var setting string
		if err := tx.QueryRow(ctx, `SHOW synchronous_commit`).Scan(&setting); err != nil {
			return err
		}
		require.Equal(t, "off", setting)
		require.Equal(t, byte('T'), tx.Conn().PgConn().TxStatus(), "the first statement began the transaction")
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO outcome_probe VALUES (1)`)
		b.Queue(`INSERT INTO outcome_probe VALUES (2)`)
		return tx.SendBatch(ctx, b).Close()
	}))
	require.Equal(t, 2, count())

	boom := errors.New("boom")
	require.ErrorIs(t, store.InOutcomeTx(ctx, pool, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO outcome_probe VALUES (3)`)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		return boom
	}), boom)
	require.Equal(t, 2, count(), "rolled back")

	require.Error(t, store.InOutcomeTx(ctx, pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO outcome_probe VALUES (1)`) // a duplicate: the first statement fails
		return err
	}))
	require.NoError(t, store.InOutcomeTx(ctx, pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT n FROM outcome_probe`)
		if err != nil {
			return err
		}
		rows.Close()
		_, err = tx.Exec(ctx, `INSERT INTO outcome_probe VALUES (4)`)
		return err
	}))
	require.NoError(t, store.InOutcomeTx(ctx, pool, func(pgx.Tx) error { return nil }), "nothing sent, nothing to commit")
	require.Equal(t, 3, count())

	var setting string
	require.NoError(t, pool.QueryRow(ctx, `SHOW synchronous_commit`).Scan(&setting))
	require.Equal(t, "on", setting, "the pool's connections commit synchronously again")
}
