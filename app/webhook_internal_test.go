package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// One endpoint gets at most its share of deliveries in flight; others are not held up.
func TestEndpointLimiterBoundsEachEndpoint(t *testing.T) {
	t.Parallel()
	l := newEndpointLimiter(2)
	a, b := endpointKey("https://Hooks.Example.com/a"), endpointKey("https://hooks.example.com:443/b")
	require.Equal(t, a, b, "scheme, host and port make the endpoint")
	require.NotEqual(t, a, endpointKey("http://hooks.example.com/a"))
	require.True(t, l.tryAcquire(a))
	require.True(t, l.tryAcquire(a))
	require.False(t, l.tryAcquire(a))
	require.True(t, l.tryAcquire(endpointKey("https://other.example.com/")), "another endpoint is not held up")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	require.Error(t, l.acquire(ctx, a), "waits, within its context")
	l.release(a)
	require.NoError(t, l.acquire(context.Background(), a))
}

// A sealed secret opens only with the same key and organization, and is not readable as stored.
func TestSecretBoxBindsKeyAndOrganization(t *testing.T) {
	t.Parallel()
	box, err := newSecretBox([]byte(strings.Repeat("a", 32)))
	require.NoError(t, err)
	sealed, err := box.seal("org-1", "whsec_secret")
	require.NoError(t, err)
	require.NotContains(t, string(sealed), "whsec_secret")
	got, err := box.open("org-1", sealed)
	require.NoError(t, err)
	require.Equal(t, "whsec_secret", got)
	_, err = box.open("org-2", sealed)
	require.Error(t, err)
	other, err := newSecretBox([]byte(strings.Repeat("b", 32)))
	require.NoError(t, err)
	_, err = other.open("org-1", sealed)
	require.Error(t, err)
	_, err = newSecretBox([]byte("short"))
	require.Error(t, err)
}
