package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// outcomeTx is the outcome's transaction (InOutcomeTx) on a connection of the pool, whose BEGIN
// (and the SET LOCAL that turns off the wait for the WAL flush) goes with its first statement or
// batch instead of in a round trip of its own: one pgx batch begins it (pgx.Batch.BeginTx, the
// SET, then the statements), and from then on pgx's own transaction serves every call. A Query
// (rows read one at a time) or anything else first begins alone, as pgx.Conn.BeginTx would.
type outcomeTx struct {
	conn *pgx.Conn
	tx   pgx.Tx // once begun
	done bool   // ended before it began (nothing was sent)
}

const outcomeAsyncSQL = "SET LOCAL synchronous_commit = off"

var errOutcomeTxDone = errors.New("store: the outcome's transaction has ended")

// begin begins the transaction alone: BEGIN and the SET in one round trip (the simple protocol).
func (t *outcomeTx) begin(ctx context.Context) (pgx.Tx, error) {
	if t.tx != nil || t.done {
		if t.tx == nil {
			return nil, errOutcomeTxDone
		}
		return t.tx, nil
	}
	tx, err := t.conn.BeginTx(ctx, pgx.TxOptions{BeginQuery: "BEGIN; " + outcomeAsyncSQL})
	if err != nil {
		return nil, err
	}
	t.tx = tx
	return tx, nil
}

func (t *outcomeTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if t.tx != nil {
		return t.tx.SendBatch(ctx, b)
	}
	if t.done {
		return pgx.FailedBatchResults(b, errOutcomeTxDone)
	}
	nb := &pgx.Batch{}
	nb.BeginTx(pgx.TxOptions{})
	nb.Queue(outcomeAsyncSQL)
	nb.QueuedQueries = append(nb.QueuedQueries, b.QueuedQueries...)
	br := t.conn.SendBatch(ctx, nb)
	t.tx = br.Tx()
	for range 2 { // BEGIN's and the SET's results, which the caller does not expect
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return pgx.FailedBatchResults(b, fmt.Errorf("store: begin: %w", err))
		}
	}
	return br
}

func (t *outcomeTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if t.tx != nil {
		return t.tx.Exec(ctx, sql, args...)
	}
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	br := t.SendBatch(ctx, b)
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

func (t *outcomeTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if t.tx != nil {
		return t.tx.QueryRow(ctx, sql, args...)
	}
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	return firstRow{t.SendBatch(ctx, b)}
}

// firstRow scans the batch's next row, then closes the batch.
type firstRow struct{ br pgx.BatchResults }

func (r firstRow) Scan(dest ...any) error {
	err := r.br.QueryRow().Scan(dest...)
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}

func (t *outcomeTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	tx, err := t.begin(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Query(ctx, sql, args...)
}

func (t *outcomeTx) Commit(ctx context.Context) error {
	if t.tx == nil {
		return t.end()
	}
	return t.tx.Commit(ctx)
}

func (t *outcomeTx) Rollback(ctx context.Context) error {
	if t.tx == nil {
		return t.end()
	}
	return t.tx.Rollback(ctx)
}

// end ends a transaction that never began: nothing was sent, so nothing to commit or roll back.
func (t *outcomeTx) end() error {
	if t.done {
		return pgx.ErrTxClosed
	}
	t.done = true
	return nil
}

func (t *outcomeTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.begin(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Begin(ctx)
}

func (t *outcomeTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	tx, err := t.begin(ctx)
	if err != nil {
		return 0, err
	}
	return tx.CopyFrom(ctx, table, columns, src)
}

func (t *outcomeTx) LargeObjects() pgx.LargeObjects {
	tx, err := t.begin(context.Background())
	if err != nil {
		return pgx.LargeObjects{}
	}
	return tx.LargeObjects()
}

func (t *outcomeTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}

func (t *outcomeTx) Conn() *pgx.Conn { return t.conn }

// inOutcomeTxOnPool runs fn in an outcomeTx on a connection of pool.
func inOutcomeTxOnPool(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer conn.Release() // a connection left in a transaction (a failed rollback) is discarded, not reused
	return InTx(ctx, beginOutcome{conn.Conn()}, fn)
}

// beginOutcome begins an outcomeTx on conn (which sends nothing yet).
type beginOutcome struct{ conn *pgx.Conn }

func (b beginOutcome) Begin(context.Context) (pgx.Tx, error) { return &outcomeTx{conn: b.conn}, nil }
