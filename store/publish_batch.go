package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// InOutcomeTx is InTx for a publish attempt's outcome (tx2), committed without waiting for the WAL
// flush (synchronous_commit off, set in the BEGIN's round trip). Sound because losing the whole
// transaction to a database crash leaves what a worker killed before tx2 leaves: the attempt open
// (tx1 durable since the attempt's first call that may change something on the network; with no
// such call, both may be lost and the job starts afresh), which River's rescue reconciles (Find
// before publishing). No job acts on the outcome before it is durable: River completes the job,
// and fetches a webhook's job, in later synchronous commits, which flush the WAL written before
// them (a reader may see it a moment earlier). Checkpoints stay synchronous, and flush tx1 with
// them (StartPostAttemptNoFlush): each precedes a network call. Under a burst, this saves every
// worker one flush wait, the pipeline's main cost (README "Development").
// On a transaction (tests), it is InTx.
func InOutcomeTx(ctx context.Context, db Beginner, fn func(tx pgx.Tx) error) error {
	if pool, ok := db.(*pgxpool.Pool); ok {
		return inOutcomeTxOnPool(ctx, pool, fn) // its BEGIN goes with its first statement (publish_tx.go)
	}
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

// lockPostRow locks a post and answers it with the transaction's now(), which the statements of the
// transaction that write updated_at = now() write too.
const lockPostRow = `SELECT id, organization_id, team_id, created_by_id, title, reference_key, post_date, posted_date, status,
	social_account_types, data, first_comment, error, review_note, retry_count, counted_at, created_at, updated_at, deleted_at, now()
FROM posts WHERE id = $1 FOR UPDATE`

// PostTargetPostedLocked sends lockPostRow and PostTargetPosted, which writes the attempt's pending
// checkpoints (cp, when not nil) with the outcome, in one round trip (a pgx batch): separate
// statements, so PostTargetPosted reads with a snapshot taken once the post is locked. It answers the post as
// locked, whole, with the transaction's now() (nil post: the post is gone), so that settling it
// knows the row SetPostStatus will write (SetPostStatusThenInsertEvent). The arguments follow
// PostTargetPosted's generated order.
func (q *Queries) PostTargetPostedLocked(ctx context.Context, tx pgx.Tx, arg PostTargetPostedParams, cp *SaveCheckpointsParams) (*Post, time.Time, []PostTargetPostedRow, error) {
	b := &pgx.Batch{}
	b.Queue(lockPostRow, arg.PostID)
	arg.Keys, arg.Vals = []string{}, []string{} // empty arrays, not NULL (which would null the checkpoints)
	if cp != nil {
		arg.Keys, arg.Vals = append(arg.Keys, cp.Keys...), append(arg.Vals, cp.Vals...)
	}
	b.Queue(postTargetPosted, arg.PostID, arg.ExternalID, arg.Permalink, arg.Extra, arg.PostedAt, arg.Keys, arg.Vals, arg.ID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var p Post
	var now time.Time
	post := &p
	err := br.QueryRow().Scan(&p.ID, &p.OrganizationID, &p.TeamID, &p.CreatedByID, &p.Title, &p.ReferenceKey, &p.PostDate, &p.PostedDate,
		&p.Status, &p.SocialAccountTypes, &p.Data, &p.FirstComment, &p.Error, &p.ReviewNote, &p.RetryCount, &p.CountedAt, &p.CreatedAt,
		&p.UpdatedAt, &p.DeletedAt, &now)
	if errors.Is(err, pgx.ErrNoRows) {
		post = nil
	} else if err != nil {
		return nil, now, nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, now, nil, err
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[PostTargetPostedRow])
	return post, now, out, err
}

// SetPostStatusThenInsertEvent sends SetPostStatus and InsertEvent in one round trip (a pgx batch),
// for a caller that knows the row SetPostStatus writes (the post locked in the transaction, read
// with its now(): PostTargetPostedLocked) and built the event's payload from it. The post must
// exist (locked): no row updated is an error.
func (q *Queries) SetPostStatusThenInsertEvent(ctx context.Context, tx pgx.Tx, st SetPostStatusParams, ev InsertEventParams) (InsertEventRow, error) {
	b := &pgx.Batch{}
	b.Queue(setPostStatus, st.Status, st.Error, st.PostedDate, st.ID)
	b.Queue(insertEvent, ev.OrganizationID, ev.Kind, ev.Payload)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var row InsertEventRow
	tag, err := br.Exec()
	if err == nil && tag.RowsAffected() != 1 {
		err = fmt.Errorf("set post status: %d rows: %w", tag.RowsAffected(), pgx.ErrNoRows)
	}
	if err != nil {
		return row, err
	}
	err = br.QueryRow().Scan(&row.ID, &row.Subscribed)
	return row, err
}
