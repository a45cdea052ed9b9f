package server_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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

// tableUpdates answers the bench database's updates so far of the tables the pipeline writes, and
// how many of them were HOT (no index entries written), from pg_stat_user_tables.
func tableUpdates(srv *servertest.Server) map[string][2]int64 {
	out := map[string][2]int64{}
	_ = srv.Pool.QueryRow(context.Background(), `SELECT pg_stat_force_next_flush()`).Scan(new(any))
	rows, err := srv.Pool.Query(context.Background(), `SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
		WHERE relname IN ('posts', 'publish_targets', 'river_job') ORDER BY relname`)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var u, h int64
		if rows.Scan(&name, &u, &h) == nil {
			out[name] = [2]int64{u, h}
		}
	}
	return out
}

// gcPercent is the GC's setting now (GOGC, or TuneGC's).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// gcCPU is the Go runtime's estimate of the CPU its garbage collector used so far, in seconds.
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}

// benchStats, with CRIER_BENCH_PGSTAT=1, resets pg_stat_statements for the bench's database and
// answers a func printing its statements by total time: calls per target and mean time show what
// grows with N (a statement whose mean grows with the burst's size is the super-linear one).
func benchStats(b *testing.B, srv *servertest.Server, sandboxCPU func() time.Duration) func(targets int) {
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
	memProfile := func(string) {}
	if path := os.Getenv("CRIER_BENCH_MEMPROFILE"); path != "" {
		// The allocations of the burst alone: go tool pprof -sample_index=alloc_space -base path.before path
		memProfile = func(suffix string) {
			f, err := os.Create(path + suffix)
			if err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				_ = f.Close()
			}
		}
	}
	memProfile(".before")
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	upd := tableUpdates(srv)
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	gc0 := gcCPU()
	goCPU, pgCPU, socks, twin, commits, sbCPU := bench.SelfCPU(), bench.BackendsCPU(srv.Pool), serverSockets(port), twinCalls(srv), xactCommits(srv), sandboxCPU()
	return func(targets int) {
		pprof.StopCPUProfile()
		memProfile("")
		goUsed := bench.SelfCPU() - goCPU
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("\nGo: %.0f allocations and %.1f KB allocated per target; %d GCs (GOGC %d), GC CPU %.0f %% of the process's; heap in use %.0f MB\n",
			float64(ms.Mallocs-ms0.Mallocs)/float64(targets), float64(ms.TotalAlloc-ms0.TotalAlloc)/1024/float64(targets), ms.NumGC-ms0.NumGC,
			gcPercent(), 100*(gcCPU()-gc0)/goUsed.Seconds(), float64(ms.HeapInuse)/(1<<20))
		now := tableUpdates(srv)
		for _, table := range []string{"posts", "publish_targets", "river_job"} {
			u := now[table]
			fmt.Printf("%s: %.2f updates per target, %.0f %% HOT\n", table, float64(u[0]-upd[table][0])/float64(targets),
				100*float64(u[1]-upd[table][1])/max(1, float64(u[0]-upd[table][0])))
		}
		fmt.Printf("\nCPU per target: Go %.2f ms, PostgreSQL backends %.2f ms, the sandbox's process %.2f ms (0: in process, in Go's); connections to the server per target %.2f\n",
			float64(bench.SelfCPU()-goCPU)/float64(time.Millisecond)/float64(targets), float64(bench.BackendsCPU(srv.Pool)-pgCPU)/float64(time.Millisecond)/float64(targets),
			float64(sandboxCPU()-sbCPU)/float64(time.Millisecond)/float64(targets), float64(serverSockets(port)-socks)/float64(targets))
		time.Sleep(time.Second) // the backends report their transactions at most once a second
		fmt.Printf("commits per target %.2f\n", float64(xactCommits(srv)-commits)/float64(targets))
		if srv.Sandbox != nil {
			fmt.Printf("sandbox calls per target %.2f (profile with CRIER_BENCH_CPUPROFILE: the twins' share is net/http.(*conn).serve's)\n",
				float64(twinCalls(srv)-twin)/float64(targets))
		}
		var wal float64
		_ = srv.Pool.QueryRow(ctx, `SELECT coalesce(sum(wal_bytes), 0)::float8 FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&wal)
		fmt.Printf("WAL per target %.1f KB (pg_stat_statements)\n", wal/1024/float64(targets))
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

// machineCPU answers the machine's busy and total CPU time so far, in clock ticks (/proc/stat's first line).
func machineCPU() (busy, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	for i, f := range strings.Fields(line)[1:] {
		v, _ := strconv.ParseInt(f, 10, 64)
		total += v
		if i != 3 && i != 4 { // idle, iowait
			busy += v
		}
	}
	return busy, total
}

// burstTimeline, with CRIER_BENCH_TIMELINE=1, samples every second of the burst the machine's CPU
// use and this process's (Crier and the sandbox), and answers a func that stops it and prints them
// beside the publish jobs River started and finished in that second: idle cores while jobs wait
// are the pipeline's gaps (fetch cooldown, worker count), not its cost.
func burstTimeline(b *testing.B, srv *servertest.Server, due time.Time) func() {
	if os.Getenv("CRIER_BENCH_TIMELINE") == "" {
		return func() {}
	}
	type sample struct {
		at          time.Time
		busy, total int64
		self        time.Duration
	}
	var samples []sample
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			bu, to := machineCPU()
			samples = append(samples, sample{time.Now(), bu, to, bench.SelfCPU()})
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		started, finished := map[int]int{}, map[int]int{}
		rows, err := srv.Pool.Query(context.Background(), `SELECT floor(extract(epoch FROM attempted_at - $1::timestamptz))::int,
			floor(extract(epoch FROM finalized_at - $1::timestamptz))::int FROM river_job WHERE kind = 'publish_target' AND finalized_at IS NOT NULL`, due)
		require.NoError(b, err)
		for rows.Next() {
			var s, f int
			require.NoError(b, rows.Scan(&s, &f))
			started[s]++
			finished[f]++
		}
		require.NoError(b, rows.Err())
		fmt.Printf("\n| s after due | machine busy (2 cores = 200 %%) | this process | jobs started | jobs finished |\n|---|---|---|---|---|\n")
		for i := 1; i < len(samples); i++ {
			p, s := samples[i-1], samples[i]
			sec := int(math.Floor(p.at.Sub(due).Seconds()))
			wall := s.at.Sub(p.at).Seconds()
			fmt.Printf("| %d | %.0f %% | %.0f %% | %d | %d |\n", sec, 200*float64(s.busy-p.busy)/max(1, float64(s.total-p.total)),
				100*(s.self-p.self).Seconds()/wall, started[sec], finished[sec])
		}
	}
}
