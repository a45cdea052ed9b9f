package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/server/servertest"
)

// TestWritesUnderLoad (CRIER_BENCH_WRITES=1; CRIER_BENCH_ROW, default 4s) loads POST post and
// PATCH post as the API bench does (16 concurrent, PATCH round robin over 60 posts) and logs,
// per request: the servers' and the backends' CPU, each statement's calls, time, blocks and WAL
// (pg_stat_statements), the tables' inserts, updates and HOT updates (pg_stat_user_tables) and
// what the backends waited on. An edit's retries show as more calls of its read than requests.
func TestWritesUnderLoad(t *testing.T) {
	if os.Getenv("CRIER_BENCH_WRITES") == "" {
		t.Skip("CRIER_BENCH_WRITES=1 runs it")
	}
	srv := servertest.Start(t, servertest.Options{MaxConns: 16, NoWorkers: true})
	o := seed(t, srv, 60)
	ctx := context.Background()
	cfg := srv.Pool.Config().Copy()
	cfg.MaxConns = 2
	q, err := pgxpool.NewWithConfig(ctx, cfg) // the observer's own connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	if _, err := q.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		t.Fatal(err)
	}
	// Planning time too (a database setting of this test's database alone).
	if _, err := q.Exec(ctx, "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET pg_stat_statements.track_planning = on', current_database()); END $$"); err != nil {
		t.Fatal(err)
	}
	srv.Pool.Reset()
	c := Client()
	for _, call := range []struct {
		what, method string
		path         func(i int) string
		body         func(i int) string
	}{
		{"POST", http.MethodPost, func(int) string { return "/api/v1/post" }, func(i int) string { return o.postBody(fmt.Sprintf("Bench %d", i), "") }},
		{"PATCH", http.MethodPatch, func(i int) string { return "/api/v1/post/" + o.posts[i%len(o.posts)] },
			func(i int) string { return fmt.Sprintf(`{"title":"Patched %d"}`, i) }},
	} {
		_, _ = q.Exec(ctx, "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)")
		before := tupleStats(t, q)
		goCPU, pgCPU := SelfCPU(), BackendsCPU(srv.Pool)
		waits := sampleWaits(q)
		r := Closed(ctx, c, 16, Duration("CRIER_BENCH_ROW", 4*time.Second), http.StatusOK, func(i int) (*http.Request, error) {
			return o.request(srv.URL, call.method, call.path(i), call.body(i))
		})
		w := waits()
		n := float64(max(r.N, 1))
		t.Logf("%s: %s; per request: Go %.0f µs CPU (with the client), PostgreSQL %.0f µs", call.what, r.Summary(),
			float64(SelfCPU()-goCPU)/1e3/n, float64(BackendsCPU(srv.Pool)-pgCPU)/1e3/n)
		after := tupleStats(t, q)
		for rel, a := range after {
			b := before[rel]
			if d := [4]int64{a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]}; d != [4]int64{} {
				t.Logf("  %s per request: ins %.2f upd %.2f (HOT %.2f) del %.2f", rel, float64(d[0])/n, float64(d[1])/n, float64(d[2])/n, float64(d[3])/n)
			}
		}
		t.Logf("  waits: %s", w)
		rows, err := q.Query(ctx, `SELECT calls, (total_exec_time + total_plan_time) / greatest(calls, 1), (shared_blks_hit + shared_blks_read + shared_blks_dirtied)::float8 / greatest(calls, 1),
				wal_bytes::float8 / greatest(calls, 1), wal_fpi::float8 / greatest(calls, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 110)
			FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= $1
			ORDER BY total_exec_time + total_plan_time DESC LIMIT 12`, r.N/4)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var calls int64
			var mean, blks, wal, fpi float64
			var s string
			if err := rows.Scan(&calls, &mean, &blks, &wal, &fpi, &s); err != nil {
				t.Fatal(err)
			}
			t.Logf("  %6d calls (%.2f/req) %6.1f µs (plan and run), %5.1f blocks, WAL %6.0f B (%.2f FPI)/call: %s", calls, float64(calls)/n, mean*1000, blks, wal, fpi, s)
		}
		rows.Close()
	}
}

// tupleStats answers, by table, the rows inserted, updated, HOT-updated and deleted so far.
func tupleStats(t *testing.T, q *pgxpool.Pool) map[string][4]int64 {
	// Idle backends report their counters within 10 s (PGSTAT_IDLE_INTERVAL).
	time.Sleep(11 * time.Second)
	rows, err := q.Query(context.Background(), `SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][4]int64{}
	for rows.Next() {
		var rel string
		var v [4]int64
		if err := rows.Scan(&rel, &v[0], &v[1], &v[2], &v[3]); err != nil {
			t.Fatal(err)
		}
		out[rel] = v
	}
	return out
}
