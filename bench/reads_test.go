package bench

import (
	"context"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/server/servertest"
)

// BenchmarkReads calls Crier's handler in process (no sockets, no load generator) for the API's hot
// reads: its allocs/op and B/op are deterministic, its ns/op is the Go side plus PostgreSQL's time
// (go test ./bench/ -run '^$' -bench Reads -benchmem; compare before and after in the same minute).
// On a shared machine, CPU time is steadier than wall time: go-cpu-µs/op is this process's (user and
// system), pg-cpu-µs/op that of the database's backends (from /proc, where PostgreSQL runs on this
// machine; absent otherwise), both at the 10 ms resolution of the kernel's accounting.
func BenchmarkReads(b *testing.B) {
	opts := servertest.Options{NoWorkers: true}
	if mb := os.Getenv("CRIER_POST_CACHE_MB"); mb != "" { // 0: every GET post and list reads its posts (a cold read)
		opts.Env = map[string]string{"CRIER_POST_CACHE_MB": mb}
	}
	srv := servertest.Start(b, opts)
	o := seed(b, srv, 60)
	for _, c := range []struct{ name, path string }{
		{"post", "/api/v1/post/" + o.posts[0]},
		{"list20", "/api/v1/post?teamId=" + o.team + "&limit=20"},
		{"team", "/api/v1/team/" + o.team},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, err := o.request("", http.MethodGet, c.path, "")
			if err != nil {
				b.Fatal(err)
			}
			req.RemoteAddr = "127.0.0.1:1234"
			call := func() {
				w := &discard{h: http.Header{}}
				srv.Echo.ServeHTTP(w, req)
				if w.code != http.StatusOK {
					b.Fatalf("%s: %d", c.path, w.code)
				}
			}
			call() // the pool's connections and their prepared statements
			b.ReportAllocs()
			goCPU, pgCPU := SelfCPU(), BackendsCPU(srv.Pool)
			n := 0
			for b.Loop() {
				call()
				n++
			}
			b.ReportMetric(float64(SelfCPU()-goCPU)/float64(time.Microsecond)/float64(n), "go-cpu-µs/op")
			if pg := BackendsCPU(srv.Pool); pg >= 0 && pgCPU >= 0 {
				b.ReportMetric(float64(pg-pgCPU)/float64(time.Microsecond)/float64(n), "pg-cpu-µs/op")
			}
		})
	}
}

// BenchmarkReadsVsBare sends the same reads over HTTP (one client, keep-alive, one request at a
// time) to Crier and to the bare handler (bare_test.go), on the same database, and reports the CPU
// a request costs on each side: this process's (client, server and handler) and PostgreSQL's
// backends'. When the machine is saturated, req/s goes as the inverse of that CPU, so the ratio of
// the two sides' totals foretells BenchmarkAPI's ratio, with less of its sensitivity to whatever
// else runs (go test ./bench/ -run '^$' -bench ReadsVsBare).
func BenchmarkReadsVsBare(b *testing.B) {
	srv := servertest.Start(b, servertest.Options{NoWorkers: true})
	o := seed(b, srv, 60)
	pool, err := pgxpool.NewWithConfig(context.Background(), srv.Pool.Config().Copy())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	sides := []struct{ name, base string }{{"crier", srv.URL}, {"bare", startBare(b, pool)}}
	c := Client()
	for _, call := range []struct{ name, path string }{
		{"post", "/api/v1/post/" + o.posts[0]},
		{"list20", "/api/v1/post?teamId=" + o.team + "&limit=20"},
		{"team", "/api/v1/team/" + o.team},
	} {
		for _, side := range sides {
			b.Run(call.name+"/"+side.name, func(b *testing.B) {
				do := func() {
					req, err := o.request(side.base, http.MethodGet, call.path, "")
					if err != nil {
						b.Fatal(err)
					}
					res, err := c.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, res.Body)
					_ = res.Body.Close()
					if res.StatusCode != http.StatusOK {
						b.Fatalf("%s %s: %d", side.name, call.path, res.StatusCode)
					}
				}
				do() // the connections and their prepared statements
				goCPU, pgCPU := SelfCPU(), BackendsCPU(srv.Pool)
				n := 0
				for b.Loop() {
					do()
					n++
				}
				b.ReportMetric(float64(SelfCPU()-goCPU)/float64(time.Microsecond)/float64(n), "go-cpu-µs/op")
				if pg := BackendsCPU(srv.Pool); pg >= 0 && pgCPU >= 0 {
					b.ReportMetric(float64(pg-pgCPU)/float64(time.Microsecond)/float64(n), "pg-cpu-µs/op")
				}
			})
		}
	}
}

// discard is a ResponseWriter that keeps nothing of the body, as a connection's would not (a
// recorder's growing buffer would weigh on the figures).
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(code int)        { d.code = code }
