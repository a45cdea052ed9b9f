package config

import (
	"net"
	"strconv"
	"strings"

	"github.com/crier/crier/ratelimit"
)

// DefaultRateLimits are the reference service's windows, per API key.
const DefaultRateLimits = "100/1s,500/10s,2000/1m"

// DefaultMaxInflight is how many requests an instance serves at once before shedding (503):
// several times the database pool, so short requests queue on the pool briefly while a flood is
// refused instead of piling up until the process runs out of file descriptors.
const DefaultMaxInflight = 256

// DefaultPostCacheMB bounds the API's cache of posts' records: about 1,800 posts of 4.4 KB (GET
// post at 16 concurrent ran in 133 MB of RSS without it; issue 15's goal is 150 MB).
const DefaultPostCacheMB = 8

func (c *Config) loadLimits(getenv Getenv, fail func(name, format string, args ...any)) {
	p, err := ratelimit.ParsePolicy(or(strings.TrimSpace(getenv("CRIER_RATE_LIMITS")), DefaultRateLimits))
	if err != nil {
		fail("CRIER_RATE_LIMITS", "%v", err)
	}
	c.RateLimits = p
	for _, n := range []struct {
		name     string
		dst      *int
		def, max int
	}{{"CRIER_INSTANCES", &c.Instances, 1, 1000}, {"CRIER_MAX_INFLIGHT", &c.MaxInflight, DefaultMaxInflight, 1 << 20}} {
		*n.dst = n.def
		if v := strings.TrimSpace(getenv(n.name)); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < 1 || i > n.max {
				fail(n.name, "must be a whole number from 1 to %d, got %q", n.max, v)
				continue
			}
			*n.dst = i
		}
	}
	c.PostCacheMB = DefaultPostCacheMB
	if v := strings.TrimSpace(getenv("CRIER_POST_CACHE_MB")); v != "" {
		if i, err := strconv.Atoi(v); err != nil || i < 0 || i > 4096 {
			fail("CRIER_POST_CACHE_MB", "must be a whole number from 0 to 4096, got %q", v)
		} else {
			c.PostCacheMB = i
		}
	}
	for cidr := range strings.SplitSeq(getenv("CRIER_TRUSTED_PROXIES"), ",") {
		if cidr = strings.TrimSpace(cidr); cidr == "" {
			continue
		}
		if !strings.Contains(cidr, "/") { // a single address
			if ip := net.ParseIP(cidr); ip != nil && ip.To4() != nil {
				cidr += "/32"
			} else {
				cidr += "/128"
			}
		}
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			fail("CRIER_TRUSTED_PROXIES", "must be addresses or CIDRs separated by commas, got %q", cidr)
			continue
		}
		c.TrustedProxies = append(c.TrustedProxies, n)
	}
}
