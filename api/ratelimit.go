package api

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/ratelimit"
)

// limit spends one request of the caller's budget: per API key, per session for cookie calls, per
// client IP without credentials (the IP Echo's IPExtractor trusts). Every answer carries the
// RateLimit headers; a refusal is a 429 with Retry-After. The budgets live in this instance's
// memory (ratelimit.Limiter), and an organization's limits come from the Service's cache: no
// database round trip per request.
func (g *guard) limit(c echo.Context) error {
	ctx := c.Request().Context()
	var key, org string
	switch p := app.PrincipalFrom(ctx); {
	case p == nil:
		key = "ip:" + c.RealIP()
	case p.APIKeyID != "":
		key, org = "key:"+p.APIKeyID, p.OrganizationID
	default:
		key, org = "session:"+p.UserID+":"+p.OrganizationID, p.OrganizationID
	}
	policy, err := g.svc.RateLimitPolicy(ctx, org)
	if err != nil {
		return err
	}
	d := g.limiter.Allow(key, policy)
	d.SetHeaders(c.Response().Header())
	if !d.Allowed {
		return &app.Error{Code: app.ERateLimited, RetryAfter: d.RetryAfter,
			Message: fmt.Sprintf("Rate limit exceeded (%s); retry in %d seconds", policyText(policy), ratelimit.Seconds(d.RetryAfter))}
	}
	return nil
}

// policyText words a policy: "100 requests per 1s, 500 per 10s, 2000 per 1m0s".
func policyText(p ratelimit.Policy) string {
	s := ""
	for i, w := range p {
		if i == 0 {
			s = fmt.Sprintf("%d requests per %s", w.Limit, w.Period)
		} else {
			s += fmt.Sprintf(", %d per %s", w.Limit, w.Period)
		}
	}
	return s
}
