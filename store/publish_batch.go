package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// PostTargetPostedAfterLock sends LockPost, the attempt's pending checkpoints (SaveCheckpoints,
// when cp is not nil) and PostTargetPosted in one round trip (a pgx batch): separate statements, so
// PostTargetPosted reads with a snapshot taken once the post is locked. The arguments follow
// PostTargetPosted's generated order.
func (q *Queries) PostTargetPostedAfterLock(ctx context.Context, tx pgx.Tx, arg PostTargetPostedParams, cp *SaveCheckpointsParams) ([]PostTargetPostedRow, error) {
	b := &pgx.Batch{}
	b.Queue(lockPost, arg.PostID)
	if cp != nil {
		b.Queue(saveCheckpoints, cp.Keys, cp.Vals, cp.ID)
	}
	b.Queue(postTargetPosted, arg.PostID, arg.ExternalID, arg.Permalink, arg.Extra, arg.PostedAt, arg.ID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, err
	}
	if cp != nil {
		if _, err := br.Exec(); err != nil {
			return nil, err
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[PostTargetPostedRow])
}

// InOutcomeTx is InTx for a publish attempt's outcome (tx2), committed without waiting for the WAL
// flush (synchronous_commit off, set in the BEGIN's round trip). Sound because losing the whole
// transaction to a database crash leaves what a worker killed before tx2 leaves: the attempt open
// (tx1 was durable), which River's rescue reconciles (Find before publishing). No job acts on the
// outcome before it is durable: River completes the job, and fetches a webhook's job, in later
// synchronous commits, which flush the WAL written before them (a reader may see it a moment
// earlier). tx1 and checkpoints stay synchronous: each precedes a network call. Under a burst,
// this saves every worker one flush wait, the pipeline's main cost (README "Development").
// On a transaction (tests), it is InTx.
func InOutcomeTx(ctx context.Context, db Beginner, fn func(tx pgx.Tx) error) error {
	if txb, ok := db.(interface {
		BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
	}); ok {
		if _, isTx := db.(pgx.Tx); !isTx {
			return InTx(ctx, beginWith{txb, outcomeBegin}, fn)
		}
	}
	return InTx(ctx, db, fn)
}

// outcomeBegin: sent by Exec without arguments, so in one round trip (the simple protocol).
var outcomeBegin = pgx.TxOptions{BeginQuery: "BEGIN; SET LOCAL synchronous_commit = off"}

type beginWith struct {
	db interface {
		BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
	}
	opts pgx.TxOptions
}

func (b beginWith) Begin(ctx context.Context) (pgx.Tx, error) { return b.db.BeginTx(ctx, b.opts) }
