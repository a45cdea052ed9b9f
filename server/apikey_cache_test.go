package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server"
	"github.com/crier/crier/server/servertest"
)

// secondInstance runs another Crier on srv's database: what a second replica behind a load
// balancer is.
func secondInstance(t *testing.T, srv *servertest.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	b, err := server.New(ctx, srv.Config, server.Options{HTTP: true, Pool: srv.Pool, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx, ln) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return "http://" + ln.Addr().String()
}

// untilStatus polls GET url with key until it answers want, and says how long that took.
func untilStatus(t *testing.T, url, key string, want int) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		res, _ := do(t, http.MethodGet, url, "", "x-api-key", key)
		if res.StatusCode == want {
			return time.Since(start)
		}
		require.Less(t, time.Since(start), 2*time.Second, "still %d, want %d", res.StatusCode, want)
		time.Sleep(2 * time.Millisecond)
	}
}

// Keys are answered from each instance's memory; a roll on one instance, or any change in the
// database behind a key (here an operator turning the organization's API access off), reaches the
// other through the triggers' NOTIFY: the old key stops working there within milliseconds, not at
// the cache's TTL.
func TestKeyCacheInvalidatedAcrossInstances(t *testing.T) {
	t.Parallel()
	a := servertest.Start(t)
	bURL := secondInstance(t, a)
	key := apiKeyFor(t, a)
	for _, base := range []string{a.URL, bURL} { // both instances now hold the key
		res, body := do(t, http.MethodGet, base+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	}
	var keys struct{ Items []struct{ ID string } }
	res, body := do(t, http.MethodGet, a.URL+"/api/v1/api-key", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.NoError(t, json.Unmarshal(body, &keys))
	require.Len(t, keys.Items, 1)

	res, body = do(t, http.MethodPost, a.URL+"/api/v1/api-key/"+keys.Items[0].ID+"/roll", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var rolled keyAnswer
	require.NoError(t, json.Unmarshal(body, &rolled))
	// On the instance that rolled it: refused at once (no wait at all).
	res, _ = do(t, http.MethodGet, a.URL+"/api/v1/team", "", "x-api-key", key)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	took := untilStatus(t, bURL+"/api/v1/team", key, http.StatusUnauthorized)
	t.Logf("the rolled key was refused by the other instance after %s", took)
	require.Less(t, took, 500*time.Millisecond)
	untilStatus(t, bURL+"/api/v1/team", rolled.Key, http.StatusOK)

	// A change made behind both instances' backs (SQL), e.g. an operator cutting API access.
	_, err := a.Pool.Exec(context.Background(), `UPDATE organizations SET api_access = false`)
	require.NoError(t, err)
	for _, base := range []string{a.URL, bURL} {
		took := untilStatus(t, base+"/api/v1/team", rolled.Key, http.StatusUnauthorized)
		require.Less(t, took, 500*time.Millisecond)
	}
}

// lastUsedAt is written off the request path, by the background flush, still at most once a
// minute per key however many calls it makes.
func TestKeyLastUsedAtWrittenInBackground(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	ctx := context.Background()
	lastUsed := func() *time.Time {
		var at *time.Time
		require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT last_used_at FROM api_keys`).Scan(&at))
		return at
	}
	require.Nil(t, lastUsed())
	res, _ := do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Eventually(t, func() bool { return lastUsed() != nil }, 5*time.Second, 20*time.Millisecond)
	first := *lastUsed()
	for range 20 {
		res, _ := do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	time.Sleep(1500 * time.Millisecond) // past the next flush
	require.True(t, first.Equal(*lastUsed()), "written again within the minute")
}
