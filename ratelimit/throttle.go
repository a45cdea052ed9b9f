package ratelimit

import (
	"sync"
	"time"
)

// Rules are how a Throttle treats one kind of attempt.
type Rules struct {
	Limit    int           // attempts per Window; the next one is refused until the Window ends
	Window   time.Duration // counted from the key's first attempt
	Free     int           // attempts before delays start
	Delay    time.Duration // the first delay after Free attempts, doubling with each further one
	MaxSleep time.Duration // a delay up to this is waited out; a longer one is refused (Retry-After)
}

// Throttle counts attempts per key (an account's address, a client's IP). Each attempt is counted
// when it starts, so parallel guesses cannot all pass before the first one fails; a success gives
// its count back (Forgive) or clears the key (Reset).
type Throttle struct {
	rules Rules
	now   func() time.Time

	mu        sync.Mutex
	keys      map[string]*attempts
	lastSweep time.Time
}

type attempts struct {
	start time.Time // of the window
	last  time.Time
	n     int
}

// NewThrottle answers an empty Throttle reading the clock now (time.Now when nil).
func NewThrottle(r Rules, now func() time.Time) *Throttle {
	if now == nil {
		now = time.Now
	}
	return &Throttle{rules: r, now: now, keys: map[string]*attempts{}, lastSweep: now()}
}

// Attempt counts one attempt for key unless it must be refused. It answers how long the caller
// should wait before going on (at most MaxSleep), or, when refused (retry > 0), how long until an
// attempt may pass; a refused attempt is not counted.
func (t *Throttle) Attempt(key string) (wait, retry time.Duration) {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweep(now)
	a := t.keys[key]
	if a == nil || now.Sub(a.start) >= t.rules.Window {
		a = &attempts{start: now}
		t.keys[key] = a
	}
	if a.n >= t.rules.Limit {
		return 0, a.start.Add(t.rules.Window).Sub(now)
	}
	if a.n >= t.rules.Free {
		delay := t.rules.Delay << min(a.n-t.rules.Free, 20) // bounded shift: never overflows
		if due := a.last.Add(delay).Sub(now); due > t.rules.MaxSleep {
			return 0, due
		} else if due > 0 {
			wait = due
		}
	}
	a.n++
	a.last = now.Add(wait)
	return wait, 0
}

// Forgive gives back one attempt of key (it succeeded, and should not count against the key).
func (t *Throttle) Forgive(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a := t.keys[key]; a != nil && a.n > 0 {
		a.n--
	}
}

// Reset forgets key (a successful sign-in clears its account's failures).
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.keys, key)
}

// sweep drops keys whose window ended, at most once per window.
func (t *Throttle) sweep(now time.Time) {
	if now.Sub(t.lastSweep) < t.rules.Window {
		return
	}
	t.lastSweep = now
	for k, a := range t.keys {
		if now.Sub(a.start) >= t.rules.Window {
			delete(t.keys, k)
		}
	}
}
