package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/bench"
	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// BenchmarkPostPageBackend compares, on one connection, the CPU of its backend and of this process
// per page of 20 posts: the page read before ReadPostPage (its ids and total, then ReadPosts by
// `= ANY(ids)`: two round trips, three statements planned anew at every call) and ReadPostPage,
// alternately (go test ./store/ -run '^$' -bench PostPageBackend -benchtime 2000x).
func BenchmarkPostPageBackend(b *testing.B) {
	pool, _ := storetest.NewDB(b)
	ctx := context.Background()
	grow := seedPageB(b, pool)
	grow(60)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	var pid int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		b.Fatal(err)
	}
	old := func() {
		rows, _ := conn.Query(ctx, "SELECT id, count(*) OVER () FROM posts WHERE organization_id = $1 AND team_id = $2 AND deleted_at IS NULL ORDER BY created_at DESC NULLS LAST, id LIMIT $3 OFFSET $4", pageOrg, pageTeam, 20, 0)
		ids, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
			var id string
			var n int64
			return id, r.Scan(&id, &n)
		})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := store.ReadPosts(ctx, conn, pageOrg, ids, true, pageTeam); err != nil {
			b.Fatal(err)
		}
	}
	neu := func() {
		if _, err := store.ReadPostPage(ctx, conn, pageFilter(0)); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		f    func()
	}{{"old", old}, {"new", neu}, {"old", old}, {"new", neu}} {
		b.Run(c.name, func(b *testing.B) {
			c.f()
			pg, _ := bench.ProcessCPU(pid)
			self := bench.SelfCPU()
			n := 0
			for b.Loop() {
				c.f()
				n++
			}
			pg2, _ := bench.ProcessCPU(pid)
			b.ReportMetric(float64(pg2-pg)/float64(time.Microsecond)/float64(n), "pg-cpu-µs/op")
			b.ReportMetric(float64(bench.SelfCPU()-self)/float64(time.Microsecond)/float64(n), "go-cpu-µs/op")
		})
	}
}
