package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/config"
	"github.com/crier/crier/ratelimit"
)

func TestLimitsDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{}))
	require.NoError(t, err)
	require.Equal(t, ratelimit.Policy{{Limit: 100, Period: time.Second}, {Limit: 500, Period: 10 * time.Second}, {Limit: 2000, Period: time.Minute}}, c.RateLimits)
	require.Equal(t, 1, c.Instances)
	require.Equal(t, config.DefaultMaxInflight, c.MaxInflight)
	require.Empty(t, c.TrustedProxies)

	c, err = config.Load(env(t, map[string]string{"CRIER_RATE_LIMITS": "off", "CRIER_INSTANCES": "3",
		"CRIER_MAX_INFLIGHT": "64", "CRIER_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7"}))
	require.NoError(t, err)
	require.Empty(t, c.RateLimits)
	require.Equal(t, 3, c.Instances)
	require.Equal(t, 64, c.MaxInflight)
	require.Len(t, c.TrustedProxies, 2)
	require.Equal(t, "192.0.2.7/32", c.TrustedProxies[1].String())

	_, err = config.Load(env(t, map[string]string{"CRIER_RATE_LIMITS": "lots", "CRIER_INSTANCES": "0",
		"CRIER_MAX_INFLIGHT": "x", "CRIER_TRUSTED_PROXIES": "proxy.example"}))
	for _, name := range []string{"CRIER_RATE_LIMITS", "CRIER_INSTANCES", "CRIER_MAX_INFLIGHT", "CRIER_TRUSTED_PROXIES"} {
		require.ErrorContains(t, err, name)
	}
}
