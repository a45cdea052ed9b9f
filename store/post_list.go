package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// PostListFilter is GET /post's query, checked by the service.
type PostListFilter struct {
	OrganizationID string
	TeamID         string
	Status         *string
	OrderBy        string // createdAt | updatedAt | postDate | postedDate | deletedAt
	Descending     bool
	Q              *string
	Platforms      []string
	PostDateFrom   *time.Time
	PostDateTo     *time.Time
	Offset, Limit  int
}

var postOrderColumns = map[string]string{
	"createdAt": "created_at", "updatedAt": "updated_at", "postDate": "post_date", "postedDate": "posted_date", "deletedAt": "deleted_at",
}

// ListPostIDs answers one page of the ids of the posts matching f, in order, with the total.
// Deleted posts are listed only when f.Status is DELETED. (Dynamic SQL: the order column varies.)
func ListPostIDs(ctx context.Context, db DBTX, f PostListFilter) ([]string, int, error) {
	where, args := postListWhere(f)
	col, dir := postListOrder(f)
	args = append(args, f.Limit, f.Offset)
	sql := fmt.Sprintf("SELECT id, count(*) OVER () FROM posts WHERE %s ORDER BY %s %s, id LIMIT $%d OFFSET $%d",
		strings.Join(where, " AND "), col, dir, len(args)-1, len(args))
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list posts: %w", err)
	}
	defer rows.Close()
	ids := make([]string, 0, max(f.Limit, 0))
	total := 0
	r := newRawRow(rows) // pgx's Scan took four allocations a row
	for r.next() {
		var id string
		var n int64
		r.str(&id)
		r.int64(&n)
		ids, total = append(ids, id), int(n)
	}
	if err := r.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: list posts: %w", err)
	}
	if len(ids) == 0 && f.Offset > 0 {
		// The page is past the end: count on its own.
		var n int64
		cargs := args[:len(args)-2]
		if err := db.QueryRow(ctx, "SELECT count(*) FROM posts WHERE "+strings.Join(where, " AND "), cargs...).Scan(&n); err != nil {
			return nil, 0, fmt.Errorf("store: count posts: %w", err)
		}
		total = int(n)
	}
	return ids, total, nil
}

// postListWhere is the page's conditions and their arguments ($1 the organization, $2 the team).
func postListWhere(f PostListFilter) ([]string, []any) {
	where := []string{"organization_id = $1", "team_id = $2"}
	args := []any{f.OrganizationID, f.TeamID}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.Status != nil {
		add("status = $%d", *f.Status)
	}
	if f.Status == nil || *f.Status != "DELETED" {
		where = append(where, "deleted_at IS NULL")
	}
	if f.Q != nil && *f.Q != "" {
		args = append(args, "%"+strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(*f.Q)+"%")
		n := len(args)
		where = append(where, fmt.Sprintf("(title ILIKE $%d OR data::text ILIKE $%d)", n, n))
	}
	if len(f.Platforms) > 0 {
		add("social_account_types && $%d::text[]", f.Platforms)
	}
	if f.PostDateFrom != nil {
		add("post_date >= $%d", *f.PostDateFrom)
	}
	if f.PostDateTo != nil {
		add("post_date <= $%d", *f.PostDateTo)
	}
	return where, args
}

// postListOrder is the page's order column and direction.
func postListOrder(f PostListFilter) (col, dir string) {
	c, ok := postOrderColumns[f.OrderBy]
	if !ok {
		c = "created_at"
	}
	col, dir = c, "ASC NULLS LAST"
	if f.Descending {
		dir = "DESC NULLS LAST"
	}
	return col, dir
}
