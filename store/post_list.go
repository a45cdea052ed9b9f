package store

import (
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

// postListWhere is the condition of the posts matching f and its arguments, the organization
// and team first ($1, $2). Deleted posts are listed only when f.Status is DELETED. (Dynamic SQL:
// the filters and the order column vary.)
func postListWhere(f PostListFilter, org, team any) (string, []any) {
	where := []string{"organization_id = $1", "team_id = $2"}
	args := []any{org, team}
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
	return strings.Join(where, " AND "), args
}

// postListOrder is the page's order: its column and direction (then id).
func postListOrder(f PostListFilter) (col, dir string) {
	col, ok := postOrderColumns[f.OrderBy]
	if !ok {
		col = "created_at"
	}
	if f.Descending {
		return col, "DESC NULLS LAST"
	}
	return col, "ASC NULLS LAST"
}
