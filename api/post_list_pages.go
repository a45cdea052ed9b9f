package api

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crier/crier/app"
)

// listPages remembers, per organization and query of GET post list, the ids of the page it last
// answered, to guess whether the cache of records holds most of the next answer. If it does, the
// page's versions come first (one statement) and the held items from the cache; if not (a page not
// answered lately, or mostly changed), the page is read whole with its versions hashed from the
// rows read (store.ReadPostsVersioned) — what a list cost before the cache — rather than its
// versions first and then the missed posts, a fifth more. A guess only: either way every item
// answered is current. At most listPagesMax queries are kept; when full it starts again empty.
type listPages struct {
	mu  sync.Mutex
	ids map[string][]string
}

const listPagesMax = 1024

func newListPages() *listPages { return &listPages{ids: map[string][]string{}} }

// held answers whether the cache holds at least half of the page last answered for key.
func (l *listPages) held(key string, c *postCache) bool {
	l.mu.Lock()
	ids, ok := l.ids[key]
	l.mu.Unlock()
	if !ok {
		return false
	}
	n := 0
	for _, id := range ids {
		if c.has(id) {
			n++
		}
	}
	return 2*n >= len(ids)
}

func (l *listPages) remember(key string, ids []string) {
	l.mu.Lock()
	if len(l.ids) >= listPagesMax {
		clear(l.ids)
	}
	l.ids[key] = ids
	l.mu.Unlock()
}

// listKey is the caller's organization and the list's query.
func listKey(ctx context.Context, f app.PostFilter, page app.Page) string {
	var b strings.Builder
	if p := app.PrincipalFrom(ctx); p != nil {
		b.WriteString(p.OrganizationID)
	}
	field := func(s string) {
		b.WriteByte(0)
		b.WriteString(s)
	}
	field(f.TeamID)
	field(f.OrderBy)
	field(f.Order)
	if f.Status != nil {
		field("s" + string(*f.Status))
	}
	if f.Q != nil {
		field("q" + *f.Q)
	}
	for _, n := range f.Platforms {
		field("p" + string(n))
	}
	for _, t := range []*time.Time{f.PostDateFrom, f.PostDateTo} {
		if t != nil {
			field("t" + t.Format(time.RFC3339Nano))
		} else {
			field("")
		}
	}
	field(strconv.Itoa(page.Offset))
	field(strconv.Itoa(page.Limit))
	return b.String()
}
