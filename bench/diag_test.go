package bench

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// diag is what the fixed-rate run logs of each side with CRIER_BENCH_DIAG=1: this process's CPU
// (the servers: the load generator runs in a process of its own) and PostgreSQL's per request, the
// GC's share, the pool's waits, the Go scheduler's latency (runnable → running), and each 100 ms
// window's worst latency (CRIER_BENCH_TIMELINE=10ms for another window). CRIER_BENCH_TRACE=FILE
// writes an execution trace of each side's run to FILE.crier and FILE.bare (go tool trace).
type diag struct {
	on     bool
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

func startDiag(pool *pgxpool.Pool) *diag {
	d := &diag{on: os.Getenv("CRIER_BENCH_DIAG") != "", pool: pool}
	if d.on {
		d.before = d.snap()
	}
	return d
}

func (d *diag) snap() snap {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := d.pool.Stat()
	m := []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/assist:cpu-seconds"}}
	metrics.Read(m)
	return snap{cpu: selfCPU(), pg: backendsCPU(d.pool), pause: time.Duration(ms.PauseTotalNs), gc: ms.NumGC,
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
