package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// A post's version: a hash of everything its record shows, read with one narrow statement, which
// the API's cache of records checks before answering one from memory (api/post_cache.go). It
// hashes each contributing row's xmin (the transaction that wrote the row: every INSERT, UPDATE or
// DELETE changes it, and a read sees committed rows only) with the row's id — the post, each of its
// targets and the account each names, each upload link and its upload — and the organization's
// show_verbose_errors (its value: the row's other columns change often and show nothing here). A
// row that goes (a target, a link, a purged upload) leaves the hashed list. Rows changed for what
// the record does not show (a target's lease, an account's tokens) only cost a miss.
const postVersionExpr = `hashtextextended(concat_ws('|', p.organization_id::text, p.xmin::text, o.show_verbose_errors::text,
  (SELECT string_agg(t.id::text || ':' || t.xmin::text || ':' || coalesce(sa.xmin::text, '-'), ',' ORDER BY t.id)
   FROM publish_targets t LEFT JOIN social_accounts sa ON sa.id = t.social_account_id
   WHERE t.organization_id = p.organization_id AND t.post_id = p.id),
  (SELECT string_agg(pu.upload_id::text || ':' || pu.xmin::text || ':' || coalesce(u.xmin::text, '-'), ',' ORDER BY pu.upload_id)
   FROM post_uploads pu LEFT JOIN uploads u ON u.id = pu.upload_id
   WHERE pu.post_id = p.id)), 0)`

// readPostVersion is one post's version (no row: not the organization's post).
const readPostVersion = `-- name: ReadPostVersion
SELECT ` + postVersionExpr + `
FROM posts p JOIN organizations o ON o.id = p.organization_id
WHERE p.organization_id = $1 AND p.id = $2::uuid`

// ReadPostVersion answers the version of the organization's post id; ok is false when there is no
// such post (or id is not a uuid: the caller's full read answers why).
func ReadPostVersion(ctx context.Context, db DBTX, orgID, id string) (v int64, ok bool, err error) {
	u, valid := pgUUID(id)
	if !valid {
		return 0, false, nil
	}
	err = db.QueryRow(ctx, readPostVersion, orgID, u).Scan(&v)
	if err == pgx.ErrNoRows {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: read post version: %w", err)
	}
	return v, true, nil
}

// queuePostVersion queues readPostVersion first in a post's read (ReadPosts with a version): a
// statement of a batch sees what committed before it started, so the rows read after it are as
// new as the version or newer — never older, which a version read after them could pair with.
func queuePostVersion(b *pgx.Batch, orgID string, id any, into *PostReads) {
	b.Queue(readPostVersion, orgID, id).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			if err := rows.Scan(&into.Version); err != nil {
				return err
			}
			into.Versioned = true
		}
		return rows.Err()
	})
}

// PostVersion is a post of a page with its version.
type PostVersion struct {
	ID      string
	Version int64
}

// ListPostVersions is ListPostIDs answering each post's version too, and whether the team is a
// live team of the organization, in one statement. A page without posts answers none, and live
// false: the caller reads as ListPostIDs' callers do.
func ListPostVersions(ctx context.Context, db DBTX, f PostListFilter) (page []PostVersion, total int, live bool, err error) {
	where, args := postListWhere(f)
	col, dir := postListOrder(f)
	args = append(args, f.Limit, f.Offset)
	sql := fmt.Sprintf(`SELECT p.id, p.total, %s,
  EXISTS (SELECT 1 FROM teams WHERE id = $2 AND organization_id = $1 AND deleted_at IS NULL)
FROM (SELECT id, organization_id, xmin, %s AS ord, count(*) OVER () AS total FROM posts WHERE %s ORDER BY %s %s, id LIMIT $%d OFFSET $%d) p
JOIN organizations o ON o.id = p.organization_id
ORDER BY p.ord %s, p.id`, postVersionExpr, col, strings.Join(where, " AND "), col, dir, len(args)-1, len(args), dir)
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	defer rows.Close()
	page = make([]PostVersion, 0, max(f.Limit, 0))
	r := newRawRow(rows)
	for r.next() {
		var p PostVersion
		var n int64
		r.str(&p.ID)
		r.int64(&n)
		r.int64(&p.Version)
		r.boolean(&live)
		page, total = append(page, p), int(n)
	}
	if err := r.Err(); err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	return page, total, live, nil
}
