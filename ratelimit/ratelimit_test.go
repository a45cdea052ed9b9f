package ratelimit

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func mustPolicy(t testing.TB, s string) Policy {
	t.Helper()
	p, err := ParsePolicy(s)
	require.NoError(t, err)
	return p
}

func TestParsePolicy(t *testing.T) {
	t.Parallel()
	p := mustPolicy(t, "100/1s,500/10s,2000/1m")
	require.Equal(t, Policy{{100, time.Second}, {500, 10 * time.Second}, {2000, time.Minute}}, p)
	require.Equal(t, "100;w=1, 500;w=10, 2000;w=60", p.String())
	require.Equal(t, Policy{{33, time.Second}, {166, 10 * time.Second}, {666, time.Minute}}, p.Share(3))
	off, err := ParsePolicy("off")
	require.NoError(t, err)
	require.Empty(t, off)
	for _, bad := range []string{"", "100", "0/1s", "10/500ms", "x/1s", "10/1s,"} {
		_, err := ParsePolicy(bad)
		require.Error(t, err, bad)
	}
}

// The three windows hold together: 100 in a second, then 500 in ten seconds, then 2,000 a minute.
func TestLimiterWindows(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := NewLimiter(c.now)
	p := mustPolicy(t, "100/1s,500/10s,2000/1m")
	allowed := func(n int) int {
		ok := 0
		for range n {
			if l.Allow("k", p).Allowed {
				ok++
			}
		}
		return ok
	}
	require.Equal(t, 100, allowed(150), "the first second")
	d := l.Allow("k", p)
	require.False(t, d.Allowed)
	require.Equal(t, 100, d.Limit)
	require.Equal(t, 0, d.Remaining)
	require.Equal(t, 10*time.Millisecond, d.RetryAfter) // one request's worth of the 100/s bucket

	// 1,000 a second offered for ten seconds: the 10 s window (500 + its refill) holds.
	total := 100
	for range 9 {
		c.add(time.Second)
		total += allowed(1000)
	}
	require.InDelta(t, 500+450, total, 2, "ten seconds at 1,000/s")

	// Another key has its own budget.
	require.True(t, l.Allow("other", p).Allowed)

	// A minute at 1,000/s stays within 2,000 plus the minute window's refill.
	for range 50 {
		c.add(time.Second)
		total += allowed(1000)
	}
	require.LessOrEqual(t, total, 2000+2000)
	// Once its burst is spent, the minute window holds the pace at 2,000 a minute.
	next := 0
	for range 60 { // what the 10 s window left of the minute's burst goes first
		c.add(time.Second)
		allowed(1000)
	}
	for range 60 {
		c.add(time.Second)
		next += allowed(1000)
	}
	require.InDelta(t, 2000, next, 40)
}

func TestLimiterHeaders(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := NewLimiter(c.now)
	p := mustPolicy(t, "2/1s,3/10s")
	h := http.Header{}
	l.Allow("k", p).SetHeaders(h)
	require.Equal(t, "2", h.Get("RateLimit-Limit"))
	require.Equal(t, "1", h.Get("RateLimit-Remaining"))
	require.Equal(t, "1", h.Get("RateLimit-Reset"))
	require.Equal(t, "2;w=1, 3;w=10", h.Get("RateLimit-Policy"))
	require.Empty(t, h.Get("Retry-After"))
	l.Allow("k", p)
	c.add(time.Second)
	h = http.Header{}
	d := l.Allow("k", p) // the 10 s window has 3 - 2 - 1 + 0.3 left: it is the one shown
	d.SetHeaders(h)
	require.True(t, d.Allowed)
	require.Equal(t, "3", h.Get("RateLimit-Limit"))
	require.Equal(t, "0", h.Get("RateLimit-Remaining"))
	h = http.Header{}
	d = l.Allow("k", p)
	d.SetHeaders(h)
	require.False(t, d.Allowed)
	require.Equal(t, "3", h.Get("Retry-After")) // 0.7 of a token at 0.3/s: 2.33 s, rounded up
}

// Idle keys are dropped, and a changed policy replaces a key's buckets.
func TestLimiterEvictsIdleKeys(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := NewLimiter(c.now)
	p := mustPolicy(t, "1/1s,5/1m")
	for i := range 1000 {
		l.Allow(fmt.Sprint("ip-", i), p)
	}
	require.Equal(t, 1000, l.Len())
	c.add(30 * time.Second)
	l.Allow("fresh", p)
	c.add(31 * time.Second)
	l.Allow("fresh", p)
	require.Equal(t, 1, l.Len(), "only the key seen within the minute is kept")

	require.False(t, l.Allow("fresh", p).Allowed)
	require.True(t, l.Allow("fresh", mustPolicy(t, "10/1s")).Allowed, "a new policy starts a new budget")
}

func TestThrottle(t *testing.T) {
	t.Parallel()
	c := newClock()
	th := NewThrottle(Rules{Limit: 10, Window: time.Minute, Free: 3, Delay: 100 * time.Millisecond, MaxSleep: time.Second}, c.now)
	attempt := func() (time.Duration, time.Duration) { return th.Attempt("a") }
	for i := range 3 {
		w, r := attempt()
		require.Zero(t, w, i)
		require.Zero(t, r, i)
	}
	// Delays grow: 100 ms, 200 ms, 400 ms, 800 ms after the previous attempt, served as waits.
	for _, want := range []time.Duration{100, 200, 400, 800} {
		w, r := attempt()
		require.Equal(t, want*time.Millisecond, w)
		require.Zero(t, r)
		c.add(w)
	}
	// 1.6 s is beyond MaxSleep: refused with the time to wait, and not counted.
	w, r := attempt()
	require.Zero(t, w)
	require.Equal(t, 1600*time.Millisecond, r)
	c.add(r)
	_, r = attempt()
	require.Zero(t, r)
	c.add(3200 * time.Millisecond)
	_, r = attempt()
	require.Zero(t, r)
	c.add(6400 * time.Millisecond)
	_, r = attempt() // the 10th
	require.Zero(t, r)
	c.add(time.Hour / 3600 * 20) // still inside the minute
	_, r = attempt()
	require.Greater(t, r, time.Duration(0), "the 11th within the window is refused")
	require.LessOrEqual(t, r, time.Minute)

	th.Reset("a")
	_, r = attempt()
	require.Zero(t, r, "a success clears the key")

	// Forgive gives one back; a new window starts over.
	th2 := NewThrottle(Rules{Limit: 2, Window: time.Minute, Free: 2, MaxSleep: time.Second}, c.now)
	th2.Attempt("ip")
	th2.Attempt("ip")
	_, r = th2.Attempt("ip")
	require.NotZero(t, r)
	th2.Forgive("ip")
	_, r = th2.Attempt("ip")
	require.Zero(t, r)
	c.add(time.Minute)
	_, r = th2.Attempt("ip")
	require.Zero(t, r)
}

// BenchmarkAllow is the limiter's cost per request: three windows, 1,000 active keys.
func BenchmarkAllow(b *testing.B) {
	l := NewLimiter(nil)
	p := mustPolicy(b, "100/1s,500/10s,2000/1m")
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprint("key:", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		l.Allow(keys[i%len(keys)], p)
		i++
	}
}

// Parallel guesses are counted as they start: no more than Limit pass, however many race.
func TestThrottleCountsParallelAttempts(t *testing.T) {
	t.Parallel()
	th := NewThrottle(Rules{Limit: 10, Window: time.Minute, Free: 10, MaxSleep: time.Second}, nil)
	var passed atomic.Int32
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if _, retry := th.Attempt("a"); retry == 0 {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(10), passed.Load())
}

// The policy field is written once per key's buckets, not per request, and follows a changed
// policy.
func TestLimiterPolicyFieldKept(t *testing.T) {
	c := newClock()
	l := NewLimiter(c.now)
	p := mustPolicy(t, "100/1s,500/10s,2000/1m")
	h := http.Header{}
	allocs := testing.AllocsPerRun(100, func() { l.Allow("k", p).SetHeaders(h) })
	require.LessOrEqual(t, allocs, 9.0) // the fields' values; writing the policy's made 16
	require.Equal(t, "100;w=1, 500;w=10, 2000;w=60", h.Get("RateLimit-Policy"))
	l.Allow("k", mustPolicy(t, "7/1s")).SetHeaders(h)
	require.Equal(t, "7;w=1", h.Get("RateLimit-Policy"))
	require.Equal(t, "100;w=1, 500;w=10, 2000;w=60", Decision{Policy: p}.policyFieldOrString())

}
