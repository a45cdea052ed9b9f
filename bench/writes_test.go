package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/server/servertest"
)

// BenchmarkWrites calls Crier's handler in process for the API's writes (POST post as a DRAFT to
// two networks, PATCH post's title), as BenchmarkReads does for the reads: allocs/op and B/op are
// deterministic; go-cpu-µs/op and pg-cpu-µs/op are this process's and the database backends' CPU
// (go test ./bench/ -run '^$' -bench Writes -benchmem -benchtime 2000x); wal-B/op is the WAL its
// statements wrote (pg_stat_statements: without the commit records).
func BenchmarkWrites(b *testing.B) {
	srv := servertest.Start(b, servertest.Options{NoWorkers: true})
	o := seed(b, srv, 20)
	for _, c := range []struct {
		name, method string
		path         func(i int) string
		body         func(i int) string
	}{
		{"post", http.MethodPost, func(int) string { return "/api/v1/post" }, func(i int) string { return o.postBody(fmt.Sprintf("Bench %d", i), "") }},
		{"patch", http.MethodPatch, func(i int) string { return "/api/v1/post/" + o.posts[i%len(o.posts)] },
			func(i int) string { return fmt.Sprintf(`{"title":"Patched %d"}`, i) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			call := func() {
				i++
				req, err := o.request("", c.method, c.path(i), c.body(i))
				if err != nil {
					b.Fatal(err)
				}
				req.RemoteAddr = "127.0.0.1:1234"
				w := &errRecorder{discard: discard{h: http.Header{}}}
				srv.Echo.ServeHTTP(w, req)
				if w.code != http.StatusOK {
					b.Fatalf("%s: %d %s", c.path(i), w.code, w.body.String())
				}
			}
			call()
			b.ReportAllocs()
			goCPU, pgCPU, pgExec, wal := SelfCPU(), BackendsCPU(srv.Pool), statementsTime(srv.Pool), statementsWAL(srv.Pool)
			n := 0
			for b.Loop() {
				call()
				n++
			}
			b.ReportMetric(float64(SelfCPU()-goCPU)/float64(time.Microsecond)/float64(n), "go-cpu-µs/op")
			if pg := BackendsCPU(srv.Pool); pg >= 0 && pgCPU >= 0 {
				b.ReportMetric(float64(pg-pgCPU)/float64(time.Microsecond)/float64(n), "pg-cpu-µs/op")
			}
			if t := statementsTime(srv.Pool); t >= 0 && pgExec >= 0 {
				b.ReportMetric((t-pgExec)*1000/float64(n), "pg-exec-µs/op")
			}
			if w := statementsWAL(srv.Pool); w[0] >= 0 && wal[0] >= 0 {
				b.ReportMetric((w[0]-wal[0])/float64(n), "wal-B/op")
				b.ReportMetric((w[1]-wal[1])/float64(n), "wal-rec/op")
			}
			if os.Getenv("CRIER_BENCH_PLANS") != "" { // how each connection's prepared statements were planned, and what they cost
				rows, _ := srv.Pool.Query(context.Background(), `SELECT calls, total_exec_time / calls, left(regexp_replace(query, '\s+', ' ', 'g'), 80) FROM pg_stat_statements s
					JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database() AND calls > 100 ORDER BY total_exec_time DESC LIMIT 12`)
				for rows.Next() {
					var calls int64
					var mean float64
					var q string
					_ = rows.Scan(&calls, &mean, &q)
					b.Logf("%6d calls %7.1f µs: %s", calls, mean*1000, q)
				}
				rows.Close()
				conns := srv.Pool.AcquireAllIdle(context.Background())
				for _, c := range conns {
					rows, _ := c.Query(context.Background(), `SELECT generic_plans, custom_plans, left(regexp_replace(statement, '\s+', ' ', 'g'), 90) FROM pg_prepared_statements WHERE generic_plans + custom_plans > 50`)
					for rows.Next() {
						var g, cu int64
						var st string
						_ = rows.Scan(&g, &cu, &st)
						b.Logf("generic %d custom %d: %s", g, cu, st)
					}
					rows.Close()
					c.Release()
				}
			}
		})
	}
}

// errRecorder keeps the body only of an error (to say what went wrong).
type errRecorder struct {
	discard
	body strings.Builder
}

func (r *errRecorder) Write(b []byte) (int, error) {
	if r.code != http.StatusOK && r.body.Len() < 2000 {
		r.body.Write(b)
	}
	return len(b), nil
}

// statementsTime answers the milliseconds this database's statements have run (pg_stat_statements,
// cluster-wide, filtered by database; -1 when it is not there): the time PostgreSQL spent executing
// them, blind to the machine's other load more than its CPU time is.
func statementsTime(pool *pgxpool.Pool) float64 {
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		return -1
	}
	var ms float64
	if err := pool.QueryRow(ctx, `SELECT coalesce(sum(total_exec_time), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%' AND s.query NOT LIKE '%pg_stat_activity%'`).Scan(&ms); err != nil {
		return -1
	}
	return ms
}

// statementsWAL answers the bytes and records of WAL this database's statements have written
// (pg_stat_statements, as statementsTime; -1 when it is not there). The bytes include full-page
// images (a page's first change after a checkpoint), so they vary more than the records.
func statementsWAL(pool *pgxpool.Pool) [2]float64 {
	var b [2]float64
	if err := pool.QueryRow(context.Background(), `SELECT coalesce(sum(wal_bytes), 0)::float8, coalesce(sum(wal_records), 0)::float8 FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%' AND s.query NOT LIKE '%pg_stat_activity%'`).Scan(&b[0], &b[1]); err != nil {
		return [2]float64{-1, -1}
	}
	return b
}
