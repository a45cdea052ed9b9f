package server_test

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crier/crier/bench"
	"github.com/crier/crier/server/servertest"
)

// serverSockets counts the machine's TCP sockets (open or in TIME_WAIT, which a closed one stays in
// for a minute) whose remote port is port (hex in /proc/net/tcp): the clients' ends of the
// connections to the server lately, the adapters' calls to the in-process sandbox among them.
func serverSockets(port string) int {
	p, err := strconv.Atoi(port)
	if err != nil {
		return 0
	}
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return 0
	}
	suffix := fmt.Sprintf(":%04X", p)
	n := 0
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasSuffix(f[2], suffix) {
			n++
		}
	}
	return n
}

// xactCommits is the bench database's count of committed transactions so far (pg_stat_database).
func xactCommits(srv *servertest.Server) int64 {
	var n int64
	_ = srv.Pool.QueryRow(context.Background(), `SELECT pg_stat_force_next_flush()`).Scan(new(any))
	_ = srv.Pool.QueryRow(context.Background(), `SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`).Scan(&n)
	return n
}

// twinCalls is how many calls the sandbox networks received so far (each keeps its last
// sandbox.MaxCalls: exact up to that many per network).
func twinCalls(srv *servertest.Server) int {
	n := 0
	if srv.Sandbox != nil {
		for _, s := range srv.Sandbox.Summaries() {
			n += s.Calls
		}
	}
	return n
}

// benchStats, with CRIER_BENCH_PGSTAT=1, resets pg_stat_statements for the bench's database and
// answers a func printing its statements by total time: calls per target and mean time show what
// grows with N (a statement whose mean grows with the burst's size is the super-linear one).
func benchStats(b *testing.B, srv *servertest.Server) func(targets int) {
	if os.Getenv("CRIER_BENCH_PGSTAT") == "" {
		return func(int) {}
	}
	ctx := context.Background()
	if _, err := srv.Pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		b.Logf("pg_stat_statements: %v", err)
		return func(int) {}
	}
	if _, err := srv.Pool.Exec(ctx, `SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`); err != nil {
		b.Fatal(err)
	}
	if path := os.Getenv("CRIER_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
	}
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	goCPU, pgCPU, socks, twin, commits := bench.SelfCPU(), bench.BackendsCPU(srv.Pool), serverSockets(port), twinCalls(srv), xactCommits(srv)
	return func(targets int) {
		pprof.StopCPUProfile()
		fmt.Printf("\nCPU per target: Go %.2f ms, PostgreSQL backends %.2f ms; connections to the server (the sandbox's calls) per target %.2f\n",
			float64(bench.SelfCPU()-goCPU)/float64(time.Millisecond)/float64(targets), float64(bench.BackendsCPU(srv.Pool)-pgCPU)/float64(time.Millisecond)/float64(targets),
			float64(serverSockets(port)-socks)/float64(targets))
		time.Sleep(time.Second) // the backends report their transactions at most once a second
		fmt.Printf("commits per target %.2f\n", float64(xactCommits(srv)-commits)/float64(targets))
		fmt.Printf("sandbox calls per target %.2f (profile with CRIER_BENCH_CPUPROFILE: the twins' share is net/http.(*conn).serve's)\n",
			float64(twinCalls(srv)-twin)/float64(targets))
		rows, err := srv.Pool.Query(ctx, `SELECT calls, total_exec_time, mean_exec_time, rows, regexp_replace(query, '\s+', ' ', 'g')
			FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
			ORDER BY total_exec_time DESC LIMIT 30`)
		if err != nil {
			b.Fatal(err)
		}
		defer rows.Close()
		fmt.Printf("\n| calls/target | total ms | mean ms | rows | query |\n|---|---|---|---|---|\n")
		var calls, nrows int64
		var total, mean float64
		var q string
		for rows.Next() {
			if err := rows.Scan(&calls, &total, &mean, &nrows, &q); err != nil {
				b.Fatal(err)
			}
			if len(q) > 160 {
				q = q[:160]
			}
			fmt.Printf("| %.2f | %.0f | %.3f | %d | %s |\n", float64(calls)/float64(targets), total, mean, nrows, strings.ReplaceAll(q, "|", "/"))
		}
	}
}
