package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/crier/crier/ratelimit"
)

// Credential attempts (sign-in, password reset mail, mailed and portal tokens) are throttled per
// account and per client IP, in this instance's memory: after a few failures each further attempt
// waits longer (a short wait is served, a longer one is a 429 with Retry-After), and past the
// window's limit every attempt is a 429 until the window ends. With several instances an attacker
// spread over them gets each instance's budget; the delays still grow on each.
var (
	loginAccountRules = ratelimit.Rules{Limit: 10, Window: time.Minute, Free: 3, Delay: 250 * time.Millisecond, MaxSleep: time.Second}
	loginIPRules      = ratelimit.Rules{Limit: 30, Window: time.Minute, Free: 10, Delay: 250 * time.Millisecond, MaxSleep: time.Second}
	// Every reset request counts (each sends mail), not only failures.
	forgotAccountRules = ratelimit.Rules{Limit: 5, Window: 15 * time.Minute, Free: 3, Delay: time.Second, MaxSleep: time.Second}
	forgotIPRules      = ratelimit.Rules{Limit: 30, Window: 15 * time.Minute, Free: 10, Delay: time.Second, MaxSleep: time.Second}
	// Wrong tokens (verify, reset, invitation, portal) per IP.
	tokenIPRules = ratelimit.Rules{Limit: 30, Window: time.Minute, Free: 10, Delay: 250 * time.Millisecond, MaxSleep: time.Second}
)

type attemptThrottles struct {
	loginAccount, loginIP, forgotAccount, forgotIP, tokenIP *ratelimit.Throttle
}

func newAttemptThrottles(now func() time.Time) *attemptThrottles {
	return &attemptThrottles{
		loginAccount:  ratelimit.NewThrottle(loginAccountRules, now),
		loginIP:       ratelimit.NewThrottle(loginIPRules, now),
		forgotAccount: ratelimit.NewThrottle(forgotAccountRules, now),
		forgotIP:      ratelimit.NewThrottle(forgotIPRules, now),
		tokenIP:       ratelimit.NewThrottle(tokenIPRules, now),
	}
}

type clientIPKey struct{}

// WithClientIP carries the caller's address (the transport decides which, trusting proxies only
// when configured to) to the throttles.
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

func clientIP(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}

// attemptKind is one kind of guarded attempt: its throttles, and whether every attempt counts
// (mail sent) or only failures (guesses).
type attemptKind struct {
	account, ip *ratelimit.Throttle
	countAll    bool
}

func (s *Service) loginAttempt() attemptKind {
	return attemptKind{account: s.attempts.loginAccount, ip: s.attempts.loginIP}
}
func (s *Service) forgotAttempt() attemptKind {
	return attemptKind{account: s.attempts.forgotAccount, ip: s.attempts.forgotIP, countAll: true}
}
func (s *Service) tokenAttempt() attemptKind { return attemptKind{ip: s.attempts.tokenIP} }

// guarded runs f as one attempt of kind by account ("" when none) from the caller's IP: refused
// with a 429 when throttled, delayed when its keys have failed recently. A success clears the
// account's failures and gives the IP its attempt back; an outage (500, 503) counts for neither.
func (s *Service) guarded(ctx context.Context, kind attemptKind, account string, f func() error) error {
	type key struct {
		t *ratelimit.Throttle
		k string
	}
	keys := []key{{kind.ip, clientIP(ctx)}}
	if account = strings.ToLower(strings.TrimSpace(account)); kind.account != nil && account != "" {
		keys = append(keys, key{kind.account, account})
	}
	var wait time.Duration
	for i, k := range keys {
		w, retry := k.t.Attempt(k.k)
		if retry > 0 {
			for _, taken := range keys[:i] {
				taken.t.Forgive(taken.k)
			}
			return &Error{Code: ERateLimited, RetryAfter: retry,
				Message: fmt.Sprintf("Too many attempts; try again in %d seconds", ratelimit.Seconds(retry))}
		}
		wait = max(wait, w)
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	err := f()
	if kind.countAll {
		return err
	}
	switch ErrorCode(err) {
	case "":
		for _, k := range keys {
			if k.t == kind.account {
				k.t.Reset(k.k)
			} else {
				k.t.Forgive(k.k)
			}
		}
	case EInternal, EUnavailable:
		for _, k := range keys {
			k.t.Forgive(k.k)
		}
	}
	return err
}
