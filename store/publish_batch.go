package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// PostTargetPostedAfterLock sends LockPost and PostTargetPosted in one round trip (a pgx batch):
// two statements, so PostTargetPosted reads with a snapshot taken once the post is locked. The
// arguments follow PostTargetPosted's generated order.
func (q *Queries) PostTargetPostedAfterLock(ctx context.Context, tx pgx.Tx, arg PostTargetPostedParams) ([]PostTargetPostedRow, error) {
	b := &pgx.Batch{}
	b.Queue(lockPost, arg.PostID)
	b.Queue(postTargetPosted, arg.PostID, arg.ExternalID, arg.Permalink, arg.Extra, arg.PostedAt, arg.ID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[PostTargetPostedRow])
}
