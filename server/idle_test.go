package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// An idle Crier (a started server with its workers, nothing to do) is quiet: fewer than 5
// transactions a second against PostgreSQL, counted in pg_stat_database over 10 s.
func TestIdleServerIsQuiet(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("watches an idle server for 21 s")
	}
	srv := servertest.Start(t, servertest.Options{ProductionTiming: true})
	ctx := context.Background()
	// Start-up (periodic jobs run on start, leader election, queues) settles, and PostgreSQL has
	// reported it: a backend reports its counts at most every second, or after 10 s idle.
	time.Sleep(11 * time.Second)
	xacts := func() int64 {
		var n int64
		require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(&n))
		return n
	}
	const window = 10 * time.Second
	before := xacts()
	time.Sleep(window)
	after := xacts()
	rate := float64(after-before-1) / window.Seconds() // less the first count's own transaction
	t.Logf("idle: %d transactions in %s = %.1f/s", after-before-1, window, rate)
	require.Less(t, rate, 5.0, "transactions per second of an idle server")
}
