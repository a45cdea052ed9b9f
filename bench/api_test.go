package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/server/servertest"
)

// scale is how long and how hard the API bench loads each side.
type scale struct {
	row         time.Duration // closed-loop time per row and side, split over rounds
	rounds      int           // Crier and bare take turns this many times per row
	rate        int           // the fixed-rate run's requests per second
	rateFor     time.Duration // … and its length per side
	concurrency int
	posts       int // seeded posts (the list pages 20 of them)
	conns       int // each side's pool
}

// BenchmarkAPI prints the API table (`make bench`). CRIER_BENCH_ROW (default 4s) is each side's
// closed-loop time per row, CRIER_BENCH_RATE_FOR (default 5s) the fixed-rate run's; the whole run
// takes about 12 × ROW + 2 × RATE_FOR plus a few seconds of setup.
func BenchmarkAPI(b *testing.B) {
	sc := scale{row: Duration("CRIER_BENCH_ROW", 4*time.Second), rounds: 2, rate: 2000, rateFor: Duration("CRIER_BENCH_RATE_FOR", 5*time.Second),
		concurrency: 16, posts: 60, conns: 16}
	for range b.N {
		for _, r := range runAPI(b, sc).Rows() {
			results.Add(r)
		}
	}
}

// BenchmarkAPIRate runs only the fixed-rate part of BenchmarkAPI (GET post at 2,000 req/s, and RSS),
// to study latency under load without the closed-loop rows: CRIER_BENCH_RATE changes the rate,
// CRIER_BENCH_DIAG=1 logs each side's figures (diag_test.go).
func BenchmarkAPIRate(b *testing.B) {
	sc := scale{rounds: 1, rate: rate(), rateFor: Duration("CRIER_BENCH_RATE_FOR", 5*time.Second), concurrency: 16, posts: 60, conns: 16}
	for range b.N {
		for _, r := range runAPI(b, sc).Rows() {
			results.Add(r)
		}
	}
}

// The harness itself, at a tiny scale, so it cannot rot: every row is measured, neither side
// answers an error. (Its figures mean nothing at this scale and are not checked.)
func TestAPIHarness(t *testing.T) {
	sc := scale{row: 150 * time.Millisecond, rounds: 1, rate: 100, rateFor: 200 * time.Millisecond, concurrency: 4, posts: 21, conns: 4}
	tab := runAPI(t, sc)
	t.Log("\n" + tab.Markdown())
	if got := len(tab.Rows()); got != 7 {
		t.Fatalf("%d rows, want 7", got)
	}
}

type apiCall struct {
	what   string
	min    float64
	method string
	path   func(o *org, i int) string
	body   func(o *org, i int) string
}

func runAPI(t testing.TB, sc scale) *Table {
	srv := servertest.Start(t, servertest.Options{MaxConns: sc.conns, NoWorkers: true})
	o := seed(t, srv, sc.posts)
	cfg := srv.Pool.Config().Copy()
	cfg.MaxConns = int32(sc.conns)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	sides := [2]string{srv.URL, startBare(t, pool)}
	c := Client()
	ctx := context.Background()
	tab := &Table{}
	check := func(what string, r [2]Result) {
		for i, side := range []string{"Crier", "bare"} {
			if r[i].Errors > 0 || r[i].N == 0 {
				t.Errorf("%s, %s: %d requests, %d errors (%s)", what, side, r[i].N, r[i].Errors, r[i].FirstErr)
			}
		}
	}
	post := func(o *org, i int) string { return "/api/v1/post/" + o.posts[i%len(o.posts)] }
	calls := []apiCall{
		{what: "GET post", min: 0.7, method: http.MethodGet, path: post},
		{what: "GET post list (20)", min: 0.7, method: http.MethodGet, path: func(o *org, _ int) string { return "/api/v1/post?teamId=" + o.team + "&limit=20" }},
		{what: "GET team", min: 0.7, method: http.MethodGet, path: func(o *org, _ int) string { return "/api/v1/team/" + o.team }},
		{what: "POST post (DRAFT)", min: 0.5, method: http.MethodPost, path: func(*org, int) string { return "/api/v1/post" },
			body: func(o *org, i int) string { return o.postBody(fmt.Sprintf("Bench %d", i), "") }},
		{what: "PATCH post", min: 0.5, method: http.MethodPatch, path: post,
			body: func(_ *org, i int) string { return fmt.Sprintf(`{"title":"Patched %d"}`, i) }},
	}
	stopRSS := func() float64 { return 0 }
	var peak float64
	for _, call := range calls {
		if sc.row == 0 {
			break // BenchmarkAPIRate: the fixed-rate run alone
		}
		var r [2]Result
		for round := range sc.rounds {
			for side, base := range sides {
				next := func(i int) (*http.Request, error) {
					body := ""
					if call.body != nil {
						body = call.body(o, i)
					}
					return o.request(base, call.method, call.path(o, i), body)
				}
				if side == 0 {
					stopRSS = SampleRSS()
				}
				got := Closed(ctx, c, sc.concurrency, sc.row/time.Duration(sc.rounds), http.StatusOK, next)
				if side == 0 {
					peak = max(peak, stopRSS())
				}
				if round == 0 {
					r[side] = got
				} else {
					r[side] = r[side].Merge(got)
				}
			}
		}
		check(call.what, r)
		tab.Add(ThroughputRow(fmt.Sprintf("%s, %d concurrent", call.what, sc.concurrency), call.min, r[0], r[1]))
	}
	// CRIER_BENCH_PLANMODE=force_generic_plan (an experiment): PostgreSQL's plan_cache_mode for both
	// sides' new connections. After the write rows, PostgreSQL re-plans Crier's read batch (its
	// "= ANY($ids)" statements) at every call instead of using a generic plan, which costs it CPU and
	// lock-manager contention (diag_test.go's waits); this shows what generic plans would save.
	if m := os.Getenv("CRIER_BENCH_PLANMODE"); m != "" {
		if _, err := pool.Exec(ctx, "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET plan_cache_mode = "+m+"', current_database()); END $$"); err != nil {
			t.Fatal(err)
		}
		srv.Pool.Reset()
		pool.Reset()
	}
	var r [2]Result
	pools := [2]*pgxpool.Pool{srv.Pool, pool}
	paths := make([]string, len(o.posts))
	for i := range paths {
		paths[i] = post(o, i)
	}
	for side, base := range sides {
		if side == 0 {
			stopRSS = SampleRSS()
		}
		d := startDiag(pools[side], pools[1-side])
		d.startTrace([]string{"crier", "bare"}[side])
		var err error
		r[side], err = OpenProcess(ctx, Spec{Base: base, Header: map[string]string{"x-api-key": o.key}, Paths: paths,
			Rate: sc.rate, For: sc.rateFor, Want: http.StatusOK})
		if err != nil {
			t.Fatal(err)
		}
		d.stop(t, []string{"Crier", "bare"}[side], r[side])
		if side == 0 {
			peak = max(peak, stopRSS())
		}
	}
	check("GET post at a fixed rate", r)
	tab.Add(LatencyRow(fmt.Sprintf("GET post at %d req/s", sc.rate), 10, r[0], r[1]))
	tab.Add(RSSRow("RSS under that load (the bench process: Crier + bare)", 150, peak))
	return tab
}

func rate() int {
	if n, err := strconv.Atoi(os.Getenv("CRIER_BENCH_RATE")); err == nil && n > 0 {
		return n
	}
	return 2000
}
