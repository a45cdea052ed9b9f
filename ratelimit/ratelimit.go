// Package ratelimit keeps request budgets in this process's memory: Limiter holds several windows
// per key at once (the API's 100 per second, 500 per 10 s and 2,000 per minute) as token buckets
// of golang.org/x/time/rate; Throttle counts credential attempts (sign-in, mailed tokens) with
// growing delays and then a lockout. Neither is shared between instances: each instance enforces
// what it is given, and a deployment of N instances gives each its share (config CRIER_INSTANCES).
package ratelimit

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Window is one budget: at most Limit requests per Period.
type Window struct {
	Limit  int
	Period time.Duration
}

// Policy is the windows a request must fit all of; an empty Policy limits nothing.
type Policy []Window

// ParsePolicy reads "100/1s,500/10s,2000/1m"; "off" is the empty Policy.
func ParsePolicy(s string) (Policy, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return nil, nil
	}
	var p Policy
	for part := range strings.SplitSeq(s, ",") {
		n, per, ok := strings.Cut(strings.TrimSpace(part), "/")
		limit, err := strconv.Atoi(n)
		d, derr := time.ParseDuration(per)
		if !ok || err != nil || derr != nil || limit < 1 || d < time.Second || d%time.Second != 0 {
			return nil, fmt.Errorf("want windows such as 100/1s,500/10s,2000/1m (whole seconds), got %q", part)
		}
		p = append(p, Window{Limit: limit, Period: d})
	}
	return p, nil
}

// Share divides every window by n (the instances behind one balancer), keeping at least 1.
func (p Policy) Share(n int) Policy {
	if n <= 1 {
		return p
	}
	out := make(Policy, len(p))
	for i, w := range p {
		out[i] = Window{Limit: max(1, w.Limit/n), Period: w.Period}
	}
	return out
}

// String is the RateLimit-Policy field: "100;w=1, 500;w=10, 2000;w=60".
func (p Policy) String() string {
	parts := make([]string, len(p))
	for i, w := range p {
		parts[i] = fmt.Sprintf("%d;w=%d", w.Limit, int(w.Period/time.Second))
	}
	return strings.Join(parts, ", ")
}

func (p Policy) equal(q Policy) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// longest is the longest period: a key idle that long has every bucket full again.
func (p Policy) longest() time.Duration {
	var d time.Duration
	for _, w := range p {
		d = max(d, w.Period)
	}
	return d
}

// Decision is the outcome of one request and what its headers say.
type Decision struct {
	Allowed     bool
	Policy      Policy
	Limit       int           // the window closest to running out
	Remaining   int           // requests left in it
	Reset       time.Duration // until it is whole again
	RetryAfter  time.Duration // when refused: until every window has room
	policyField string        // Policy.String(), kept with the key's buckets (else made in SetHeaders)
}

// SetHeaders writes the rate limit fields of draft-ietf-httpapi-ratelimit-headers-06
// (RateLimit-Limit, -Remaining, -Reset, -Policy) and, when refused, Retry-After; both in whole
// seconds, rounded up.
func (d Decision) SetHeaders(h http.Header) {
	if len(d.Policy) == 0 {
		return
	}
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(Seconds(d.Reset)))
	h.Set("RateLimit-Policy", d.policyFieldOrString())
	if !d.Allowed {
		h.Set("Retry-After", strconv.Itoa(Seconds(d.RetryAfter)))
	}
}

func (d Decision) policyFieldOrString() string {
	if d.policyField != "" {
		return d.policyField
	}
	return d.Policy.String()
}

// Seconds rounds d up to whole seconds, at least 1 (Retry-After 0 would invite a busy loop).
func Seconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// Limiter holds a Policy's buckets per key. Keys idle for longer than their longest window are
// dropped (their buckets would be full again), so memory follows the keys active in the last
// minute.
type Limiter struct {
	now func() time.Time

	mu        sync.Mutex
	keys      map[string]*buckets
	lastSweep time.Time
}

type buckets struct {
	policy Policy
	field  string // policy.String(): written once, not per request
	each   []*rate.Limiter
	seen   time.Time
}

// NewLimiter answers an empty Limiter reading the clock now (time.Now when nil).
func NewLimiter(now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{now: now, keys: map[string]*buckets{}, lastSweep: now()}
}

// Allow takes one request from every window of key's budget, or none when any window is empty.
func (l *Limiter) Allow(key string, p Policy) Decision {
	if len(p) == 0 {
		return Decision{Allowed: true}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now, p.longest())
	b := l.keys[key]
	if b == nil || !b.policy.equal(p) { // new, or its organization's limits changed
		b = &buckets{policy: p, field: p.String(), each: make([]*rate.Limiter, len(p))}
		for i, w := range p {
			b.each[i] = rate.NewLimiter(rate.Limit(float64(w.Limit)/w.Period.Seconds()), w.Limit)
		}
		l.keys[key] = b
	}
	b.seen = now
	d := Decision{Allowed: true, Policy: p, policyField: b.field}
	// Look at every window before taking from any, so a refused request costs nothing.
	for _, r := range b.each {
		if t := r.TokensAt(now); t < 1 {
			d.Allowed = false
			d.RetryAfter = max(d.RetryAfter, time.Duration((1-t)/float64(r.Limit())*float64(time.Second)))
		}
	}
	if d.Allowed {
		for _, r := range b.each {
			r.AllowN(now, 1)
		}
	}
	d.Remaining = math.MaxInt
	for i, r := range b.each {
		t := r.TokensAt(now)
		if rem := max(0, int(math.Floor(t))); rem < d.Remaining {
			d.Limit, d.Remaining = p[i].Limit, rem
			d.Reset = time.Duration((float64(p[i].Limit) - t) / float64(r.Limit()) * float64(time.Second))
		}
	}
	return d
}

// Len is the number of keys held (tests, metrics).
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

// sweep drops keys idle longer than their longest window, at most once per idle period.
func (l *Limiter) sweep(now time.Time, idle time.Duration) {
	if now.Sub(l.lastSweep) < idle {
		return
	}
	l.lastSweep = now
	for k, b := range l.keys {
		if now.Sub(b.seen) >= b.policy.longest() {
			delete(l.keys, k)
		}
	}
}
