package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Request builds the i-th request of a run (i counts from 0 across the run's workers).
type Request func(i int) (*http.Request, error)

// Result is what one side did in a run.
type Result struct {
	N, Errors int
	Elapsed   time.Duration
	lat       []time.Duration // sorted
	series    []sample        // each request's due moment, latency and status (Timeline)
	FirstErr  string
	GenCPU    time.Duration // the load generator's CPU time, when it ran in a process of its own
}

// RPS answers completed requests per second.
func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.N) / r.Elapsed.Seconds()
}

// Quantile answers the q-quantile of the latencies (0 when none).
func (r Result) Quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[min(len(r.lat)-1, int(q*float64(len(r.lat))))]
}

// Summary is "1234 req/s · p50 1.2 ms · p99 4.5 ms" (and the errors, if any).
func (r Result) Summary() string {
	s := fmt.Sprintf("%.0f req/s · p50 %.2f ms · p99 %.2f ms", r.RPS(), ms(r.Quantile(0.5)), ms(r.Quantile(0.99)))
	if r.Errors > 0 {
		s += fmt.Sprintf(" · %d errors (%s)", r.Errors, r.FirstErr)
	}
	return s
}

// Merge adds another run of the same side (the runs alternate between Crier and bare).
func (r Result) Merge(o Result) Result {
	out := Result{N: r.N + o.N, Errors: r.Errors + o.Errors, Elapsed: r.Elapsed + o.Elapsed, lat: append(append([]time.Duration{}, r.lat...), o.lat...), FirstErr: r.FirstErr}
	if out.FirstErr == "" {
		out.FirstErr = o.FirstErr
	}
	slices.Sort(out.lat)
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Client is an HTTP client with enough idle connections for the bench's concurrency.
func Client() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 512, 512
	return &http.Client{Transport: t, Timeout: 30 * time.Second}
}

type recorder struct {
	mu     sync.Mutex
	lat    []time.Duration
	series []sample // each request's due moment, latency and status
	errors int
	first  string
}

func (rec *recorder) do(c *http.Client, req *http.Request, want int, start time.Time) {
	res, err := c.Do(req)
	var status int
	if err == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		status = res.StatusCode
	}
	rec.record(start, time.Since(start), status, want, err, req.Method+" "+req.URL.Path)
}

func (rec *recorder) record(start time.Time, d time.Duration, status, want int, err error, what string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.lat = append(rec.lat, d)
	rec.series = append(rec.series, sample{start, d, status})
	if err != nil || status != want {
		rec.errors++
		if rec.first == "" {
			rec.first = fmt.Sprintf("%s: %d %v", what, status, err)
		}
	}
}

func (rec *recorder) result(elapsed time.Duration) Result {
	slices.Sort(rec.lat)
	return Result{N: len(rec.lat), Errors: rec.errors, Elapsed: elapsed, lat: rec.lat, FirstErr: rec.first, series: rec.series}
}

// Closed runs workers that each send the next request as soon as the last one is answered, for d:
// the throughput a fixed number of concurrent clients gets. want is the expected status.
func Closed(ctx context.Context, c *http.Client, workers int, d time.Duration, want int, next Request) Result {
	var rec recorder
	var n atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && time.Now().Before(deadline) {
				req, err := next(int(n.Add(1) - 1))
				if err != nil {
					rec.mu.Lock()
					rec.errors++
					rec.first = err.Error()
					rec.mu.Unlock()
					return
				}
				rec.do(c, req.WithContext(ctx), want, time.Now())
			}
		}()
	}
	wg.Wait()
	return rec.result(time.Since(start))
}

// Open sends rate requests a second for d, each at its scheduled moment whatever the answers so far,
// and measures each latency from that moment (so a stall counts against every request it delays,
// not just the one it hit: no coordinated omission). It runs in this process: to measure a server
// of this process, OpenProcess is fairer.
func Open(ctx context.Context, c *http.Client, rate int, d time.Duration, want int, next Request) Result {
	var rec recorder
	interval := time.Second / time.Duration(rate)
	total := int(d / interval)
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 1024) // bounds the goroutines if Crier stalls; waiting here still counts
	for i := 0; i < total && ctx.Err() == nil; i++ {
		at := start.Add(time.Duration(i) * interval)
		if wait := time.Until(at); wait > 0 {
			time.Sleep(wait)
		}
		req, err := next(i)
		if err != nil {
			rec.errors++
			rec.first = err.Error()
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			rec.do(c, req.WithContext(ctx), want, at)
		}()
	}
	wg.Wait()
	return rec.result(time.Since(start))
}

// RSSMB answers this process's resident set (VmRSS) and its peak so far (VmHWM) in MB, from
// /proc/self/status (Linux); zeros elsewhere.
func RSSMB() (rss, peak float64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 64)
		if name == "VmRSS" {
			rss = kb / 1024
		} else {
			peak = kb / 1024
		}
	}
	return rss, peak
}

// SampleRSS samples VmRSS every 50 ms until stop is called, which answers the highest sample.
func SampleRSS() (stop func() float64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if rss, _ := RSSMB(); uint64(rss*1024) > peak.Load() {
				peak.Store(uint64(rss * 1024))
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 { close(done); wg.Wait(); return float64(peak.Load()) / 1024 }
}

// Duration reads a duration from the environment (e.g. CRIER_BENCH_ROW=4s), else def.
func Duration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

type sample struct {
	at     time.Time
	d      time.Duration
	status int
}

// Timeline is, per window of the run, the requests due, their worst latency and the errors.
func (r Result) Timeline(window time.Duration) string {
	if len(r.series) == 0 {
		return ""
	}
	s := slices.Clone(r.series)
	slices.SortFunc(s, func(a, b sample) int { return a.at.Compare(b.at) })
	t0 := s[0].at
	var b strings.Builder
	for i := 0; i < len(s); {
		w := s[i].at.Sub(t0) / window
		n, bad, worst := 0, 0, time.Duration(0)
		for ; i < len(s) && s[i].at.Sub(t0)/window == w; i++ {
			n++
			worst = max(worst, s[i].d)
			if s[i].status != 200 {
				bad++
			}
		}
		fmt.Fprintf(&b, "%5.1fs n=%d max=%.1fms err=%d\n", (time.Duration(w) * window).Seconds(), n, ms(worst), bad)
	}
	return b.String()
}

// Spec is an open-loop run described by value, so that another process can run it: GET (or
// Method) each of Paths in turn against Base with Header, Rate requests a second for For.
type Spec struct {
	Base, Method string
	Header       map[string]string
	Paths        []string
	Rate         int
	For          time.Duration
	Want         int
}

// loadgenEnv carries a Spec to the child process that runs it (OpenProcess).
const loadgenEnv = "CRIER_BENCH_LOADGEN"

// OpenProcess runs an open loop like Open's for spec in a child process (this test binary again, its
// TestMain calling RunChild), with a leaner client (openRaw): the load generator's goroutines,
// connections and garbage then live in a Go runtime of their own, as a real client's would, instead
// of sharing the measured server's scheduler run queue and GC (with Open, every request due spawned
// a goroutine, and every new connection three more, in the server's runtime). The child still runs
// on the same cores; its CPU time is Result.GenCPU.
func OpenProcess(ctx context.Context, spec Spec) (Result, error) {
	in, err := json.Marshal(spec)
	if err != nil {
		return Result{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return Result{}, err
	}
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), loadgenEnv+"="+string(in))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return Result{}, fmt.Errorf("bench: load generator: %w", err)
	}
	var w wire
	if err := json.Unmarshal(out, &w); err != nil {
		return Result{}, fmt.Errorf("bench: load generator's answer: %w", err)
	}
	r := w.result()
	r.GenCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return r, nil
}

// RunChild runs the Spec of a child process started by OpenProcess, writes its Result on stdout
// and answers true; false when this process is not such a child.
func RunChild() bool {
	in := os.Getenv(loadgenEnv)
	if in == "" {
		return false
	}
	var spec Spec
	if err := json.Unmarshal([]byte(in), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "bench: load generator:", err)
		os.Exit(2)
	}
	r, err := openRaw(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: load generator:", err)
		os.Exit(2)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r.wire()); err != nil {
		os.Exit(2)
	}
	return true
}

// wire is a Result as the child sends it.
type wire struct {
	N, Errors int
	Elapsed   time.Duration
	FirstErr  string
	Lat       []time.Duration
	At, D     []time.Duration // each request's due moment after the first's, and its latency (Timeline)
	Status    []int
}

func (r Result) wire() wire {
	w := wire{N: r.N, Errors: r.Errors, Elapsed: r.Elapsed, FirstErr: r.FirstErr, Lat: r.lat}
	if len(r.series) > 0 {
		t0 := r.series[0].at
		for _, s := range r.series {
			if s.at.Before(t0) {
				t0 = s.at
			}
		}
		for _, s := range r.series {
			w.At, w.D, w.Status = append(w.At, s.at.Sub(t0)), append(w.D, s.d), append(w.Status, s.status)
		}
	}
	return w
}

func (w wire) result() Result {
	r := Result{N: w.N, Errors: w.Errors, Elapsed: w.Elapsed, FirstErr: w.FirstErr, lat: w.Lat}
	t0 := time.Now()
	for i := range w.At {
		r.series = append(r.series, sample{t0.Add(w.At[i]), w.D[i], w.Status[i]})
	}
	return r
}
