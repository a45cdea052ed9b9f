package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// diag is what the fixed-rate run logs of each side with CRIER_BENCH_DIAG=1: this process's CPU
// (the servers: the load generator runs in a process of its own), PostgreSQL's and the generator's
// per request, the GC's share, the pool's waits, the Go scheduler's latency (runnable → running) and
// each 100 ms window's worst latency (CRIER_BENCH_TIMELINE=10ms for another window); on stderr, the
// rows and dead rows of the tables a GET post reads, what the database's active backends wait on
// (sampled every 20 ms), the backends' CPU and the statements' (pg_stat_statements) during the run.
// CRIER_BENCH_TRACE=FILE writes an execution trace of each side's run to FILE.crier and FILE.bare
// (go tool trace), CRIER_BENCH_HEAP=FILE a heap profile at its end.
type diag struct {
	pids map[int]struct {
		cpu  time.Duration
		what string
	}
	on     bool
	q      *pgxpool.Pool // for the diagnostics' own queries
	waits  func() string
	pool   *pgxpool.Pool
	before snap
	trace  *os.File
}

type snap struct {
	cpu, pg, pause   time.Duration
	gc               uint32
	gcCPU, assistCPU float64
	empty, acquires  int64
	acquireWait      time.Duration
	sched            *metrics.Float64Histogram
}

// startDiag watches the side of pool; its own queries go through other (the other side's pool,
// idle meanwhile), not to take the measured side's connections.
func startDiag(pool, other *pgxpool.Pool) *diag {
	d := &diag{on: os.Getenv("CRIER_BENCH_DIAG") != "", pool: pool, q: other}
	if d.on {
		d.before = d.snap()
		pool = other
		fmt.Fprintln(os.Stderr, "tables:", tableStats(pool))
		d.pids = backendCPUs(pool)
		d.waits = sampleWaits(pool)
		ctx := context.Background()
		if _, err := pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err == nil {
			_, _ = pool.Exec(ctx, "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)")
		}
	}
	return d
}

// tableStats is the live and dead rows of the tables a GET post reads, and the autovacuums running.
func tableStats(pool *pgxpool.Pool) string {
	var out string
	err := pool.QueryRow(context.Background(), `SELECT string_agg(relname || ' ' || n_live_tup || '/' || n_dead_tup || ' av' || autovacuum_count || ' an' || autoanalyze_count, ', ' ORDER BY relname)
		|| ' | running: ' || (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'autovacuum worker')
		FROM pg_stat_user_tables WHERE relname IN ('posts', 'publish_targets', 'post_uploads', 'audit_log', 'events', 'uploads', 'social_accounts')`).Scan(&out)
	if err != nil {
		return err.Error()
	}
	return out
}

func (d *diag) snap() snap {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := d.pool.Stat()
	m := []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/assist:cpu-seconds"}}
	metrics.Read(m)
	return snap{cpu: SelfCPU(), pg: BackendsCPU(d.q), pause: time.Duration(ms.PauseTotalNs), gc: ms.NumGC,
		gcCPU: m[1].Value.Float64(), assistCPU: m[2].Value.Float64(),
		empty: st.EmptyAcquireCount(), acquires: st.AcquireCount(), acquireWait: st.AcquireDuration(), sched: m[0].Value.Float64Histogram()}
}

// startTrace is called by the side's run (name: crier or bare).
func (d *diag) startTrace(name string) {
	if f := os.Getenv("CRIER_BENCH_TRACE"); f != "" {
		var err error
		if d.trace, err = os.Create(f + "." + name); err == nil && trace.Start(d.trace) != nil {
			d.trace.Close()
			d.trace = nil
		}
	}
}

func (d *diag) stop(t testing.TB, side string, r Result) {
	if d.trace != nil {
		trace.Stop()
		d.trace.Close()
	}
	if !d.on {
		return
	}
	if f := os.Getenv("CRIER_BENCH_HEAP"); f != "" {
		if w, err := os.Create(f + "." + side); err == nil {
			_ = pprof.WriteHeapProfile(w)
			w.Close()
		}
	}
	fmt.Fprintln(os.Stderr, "waits:", d.waits())
	fmt.Fprintln(os.Stderr, "tables after:", tableStats(d.q))
	fmt.Fprintln(os.Stderr, "backends:", topBackends(d.pids, backendCPUs(d.q)))
	if rows, err := d.q.Query(context.Background(), `SELECT calls, round(mean_exec_time::numeric, 3), round((shared_blks_hit + shared_blks_read)::numeric / greatest(calls, 1), 1), rows / greatest(calls, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 160)
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 6`); err == nil {
		for rows.Next() {
			var calls, rws int64
			var mean, blks float64
			var q string
			if rows.Scan(&calls, &mean, &blks, &rws, &q) == nil {
				fmt.Fprintf(os.Stderr, "  stmt calls=%d mean=%.3fms blocks/call=%.1f rows/call=%d %s\n", calls, mean, blks, rws, q)
			}
		}
		rows.Close()
	}
	a, b := d.before, d.snap()
	per := func(x time.Duration) float64 { return float64(x) / float64(time.Microsecond) / float64(max(r.N, 1)) }
	t.Logf("%s: %s\n  per request: servers' process %.0f µs CPU, PostgreSQL %.0f µs, load generator %.0f µs; GC %d cycles, %.0f µs CPU/request (assists %.0f), pauses %v;"+
		" pool %d acquires, %d waited, %v in all; scheduler latency p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs\n%s",
		side, r.Summary(), per(b.cpu-a.cpu), per(b.pg-a.pg), per(r.GenCPU), b.gc-a.gc, (b.gcCPU-a.gcCPU)*1e6/float64(max(r.N, 1)), (b.assistCPU-a.assistCPU)*1e6/float64(max(r.N, 1)), b.pause-a.pause,
		b.acquires-a.acquires, b.empty-a.empty, b.acquireWait-a.acquireWait,
		histQ(a.sched, b.sched, 0.5)*1e6, histQ(a.sched, b.sched, 0.99)*1e6, histQ(a.sched, b.sched, 0.999)*1e6,
		r.Timeline(Duration("CRIER_BENCH_TIMELINE", 100*time.Millisecond)))
}

// histQ answers the q-quantile of the observations between two readings of a runtime histogram.
func histQ(a, b *metrics.Float64Histogram, q float64) float64 {
	var total uint64
	for i := range b.Counts {
		total += b.Counts[i] - a.Counts[i]
	}
	var acc uint64
	for i := range b.Counts {
		acc += b.Counts[i] - a.Counts[i]
		if total > 0 && float64(acc) >= q*float64(total) {
			return b.Buckets[i+1]
		}
	}
	return 0
}

// backendCPUs answers each backend's CPU time so far, with what it runs.
func backendCPUs(pool *pgxpool.Pool) map[int]struct {
	cpu  time.Duration
	what string
} {
	out := map[int]struct {
		cpu  time.Duration
		what string
	}{}
	rows, err := pool.Query(context.Background(), "SELECT pid, coalesce(backend_type, '') || ' ' || coalesce(application_name, '') || ' ' || coalesce(state, '') || ' ' || left(regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g'), 80) FROM pg_stat_activity WHERE datname = current_database()")
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		var what string
		if rows.Scan(&pid, &what) != nil {
			continue
		}
		cpu, ok := ProcessCPU(pid)
		if !ok {
			continue
		}
		out[pid] = struct {
			cpu  time.Duration
			what string
		}{cpu, what}
	}
	return out
}

func topBackends(a, b map[int]struct {
	cpu  time.Duration
	what string
}) string {
	type kv struct {
		pid int
		d   time.Duration
		w   string
	}
	var l []kv
	for pid, e := range b {
		l = append(l, kv{pid, e.cpu - a[pid].cpu, e.what})
	}
	slices.SortFunc(l, func(x, y kv) int { return int(y.d - x.d) })
	s := fmt.Sprintf("%d backends;", len(l))
	for i, e := range l {
		if i == 8 {
			break
		}
		s += fmt.Sprintf("\n    %d %v %s", e.pid, e.d, e.w)
	}
	return s
}

// sampleWaits counts, every 20 ms until stop, what the database's active backends wait on.
func sampleWaits(pool *pgxpool.Pool) (stop func() string) {
	done := make(chan struct{})
	res := make(chan string)
	go func() {
		counts := map[string]int{}
		n := 0
		for {
			select {
			case <-done:
				type kv struct {
					k string
					v int
				}
				var l []kv
				for k, v := range counts {
					l = append(l, kv{k, v})
				}
				slices.SortFunc(l, func(a, b kv) int { return b.v - a.v })
				s := fmt.Sprintf("%d samples:", n)
				for i, e := range l {
					if i < 10 {
						s += fmt.Sprintf(" %s=%d", e.k, e.v)
					}
				}
				res <- s
				return
			case <-time.After(20 * time.Millisecond):
			}
			n++
			rows, err := pool.Query(context.Background(), "SELECT coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, '-') FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()")
			if err != nil {
				continue
			}
			for rows.Next() {
				var w string
				if rows.Scan(&w) == nil {
					counts[w]++
				}
			}
			rows.Close()
		}
	}()
	return func() string { close(done); return <-res }
}
