package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// StartPostAttemptNoFlush is StartPostAttempt committed without waiting for the WAL flush: one
// round trip, a pgx batch (one implicit transaction) whose first statement turns off
// synchronous_commit for that transaction. Sound only because the caller makes a synchronous
// commit before the attempt's first call that may change something on the network (the
// publishing pipeline's BeforeCall writes the attempt's checkpoints, or its lease, then): that
// commit flushes the WAL written before it, tx1's with it, so a database crash can only lose tx1
// when no network call followed it — the job runs again and starts afresh. On a transaction
// (tests), it is StartPostAttempt.
func StartPostAttemptNoFlush(ctx context.Context, db DB, arg StartPostAttemptParams) (StartPostAttemptRow, error) {
	if _, isTx := db.(pgx.Tx); isTx {
		return New(db).StartPostAttempt(ctx, arg)
	}
	return New(noFlushRow{db}).StartPostAttempt(ctx, arg)
}

// noFlushRow answers QueryRow from a batch that first sets synchronous_commit off for its implicit
// transaction (set_config's is_local; SET LOCAL would warn outside BEGIN). Only QueryRow is used.
type noFlushRow struct{ db Batcher }

const noFlushCommit = `SELECT set_config('synchronous_commit', 'off', true)`

var errNoFlushRowOnly = errors.New("store: noFlushRow serves QueryRow only")

func (n noFlushRow) Exec(context.Context, string, ...interface{}) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, errNoFlushRowOnly
}

func (n noFlushRow) Query(context.Context, string, ...interface{}) (pgx.Rows, error) {
	return nil, errNoFlushRowOnly
}

func (n noFlushRow) QueryRow(ctx context.Context, sql string, args ...interface{}) pgx.Row {
	b := &pgx.Batch{}
	b.Queue(noFlushCommit)
	b.Queue(sql, args...)
	return batchRow{n.db.SendBatch(ctx, b)}
}

// batchRow scans the second statement's row, then closes the batch (its commit's error, if any).
type batchRow struct{ br pgx.BatchResults }

func (r batchRow) Scan(dest ...any) error {
	_, err := r.br.Exec()
	if err == nil {
		err = r.br.QueryRow().Scan(dest...)
	}
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}
