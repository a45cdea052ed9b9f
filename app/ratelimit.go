package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/ratelimit"
	"github.com/crier/crier/store"
)

// RateLimitOptions are the API's request budgets: Default per API key, session or IP
// (CRIER_RATE_LIMITS), which an organization's own limits override window by window; each of
// Instances instances enforces its share.
type RateLimitOptions struct {
	Default   ratelimit.Policy
	Instances int
}

// RateLimitOverride is an organization's own limit per window; nil keeps the default.
type RateLimitOverride struct {
	PerSecond, Per10Seconds, PerMinute *int
}

// rateLimitTTL is how long an instance trusts its copy of an organization's limits: they change
// rarely, and a request must not cost a query for them.
const rateLimitTTL = time.Minute

// maxCachedOrganizations bounds the cache; past it, the cache starts over.
const maxCachedOrganizations = 10000

type rateLimitCache struct {
	mu   sync.Mutex
	orgs map[string]cachedPolicy
}

type cachedPolicy struct {
	policy ratelimit.Policy
	at     time.Time
}

// RateLimitPolicy is the request budget of a caller of orgID (the instance's default for "": calls
// without credentials), this instance's share.
func (s *Service) RateLimitPolicy(ctx context.Context, orgID string) (ratelimit.Policy, error) {
	opts := s.opts.RateLimits
	if orgID == "" {
		return opts.Default.Share(opts.Instances), nil
	}
	now := s.now()
	c := s.rateLimits
	c.mu.Lock()
	cached, ok := c.orgs[orgID]
	c.mu.Unlock()
	if ok && now.Sub(cached.at) < rateLimitTTL && !now.Before(cached.at) {
		return cached.policy, nil
	}
	row, err := s.q.GetOrganizationRateLimits(ctx, orgID)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("app: rate limits: %w", err)
	}
	p := opts.Default
	for _, o := range []struct {
		v   pgtype.Int4
		per time.Duration
	}{{row.PerSecond, time.Second}, {row.Per10Seconds, 10 * time.Second}, {row.PerMinute, time.Minute}} {
		if o.v.Valid {
			p = withWindow(p, ratelimit.Window{Limit: int(o.v.Int32), Period: o.per})
		}
	}
	p = p.Share(opts.Instances)
	c.mu.Lock()
	if len(c.orgs) >= maxCachedOrganizations {
		c.orgs = map[string]cachedPolicy{}
	}
	c.orgs[orgID] = cachedPolicy{policy: p, at: now}
	c.mu.Unlock()
	return p, nil
}

// withWindow answers p with w replacing the window of the same period, or added.
func withWindow(p ratelimit.Policy, w ratelimit.Window) ratelimit.Policy {
	out := append(ratelimit.Policy{}, p...)
	for i := range out {
		if out[i].Period == w.Period {
			out[i] = w
			return out
		}
	}
	return append(out, w)
}

// SetOrganizationRateLimits sets an organization's own limits (an instance administrator's
// setting: `crier rate-limits`; not part of the API). Other instances see it within rateLimitTTL.
func (s *Service) SetOrganizationRateLimits(ctx context.Context, orgID string, o RateLimitOverride) error {
	arg := store.SetOrganizationRateLimitsParams{OrganizationID: orgID}
	for _, f := range []struct {
		v   *int
		dst *pgtype.Int4
	}{{o.PerSecond, &arg.PerSecond}, {o.Per10Seconds, &arg.Per10Seconds}, {o.PerMinute, &arg.PerMinute}} {
		if f.v != nil {
			if *f.v < 1 || *f.v > 1<<30 {
				return Invalid("A rate limit must be a positive number of requests")
			}
			*f.dst = pgtype.Int4{Int32: int32(*f.v), Valid: true}
		}
	}
	if !IsUUID(orgID) {
		return NotFound("Organization")
	}
	n, err := s.q.SetOrganizationRateLimits(ctx, arg)
	if err != nil {
		return fmt.Errorf("app: set rate limits: %w", err)
	}
	if n == 0 {
		return NotFound("Organization")
	}
	s.rateLimits.mu.Lock()
	delete(s.rateLimits.orgs, orgID)
	s.rateLimits.mu.Unlock()
	return nil
}
