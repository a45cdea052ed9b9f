package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/store/storetest"
)

// A real River client runs the periodic expiry job, which ends a window that has passed.
func TestPlatformStatusWindowsExpireThroughRiver(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, "UPDATE platform_status SET status = 'outage', note = 'down', until = now() - interval '1 second' WHERE network = 'TIKTOK'")
	require.NoError(t, err)

	log := slog.New(slog.DiscardHandler)
	svc := app.New(pool, log, app.Options{})
	client, err := jobs.NewClient(pool, svc, jobs.Options{Work: true, Logger: log, FetchPoll: 50 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { require.NoError(t, client.Stop(context.Background())) })

	require.Eventually(t, func() bool {
		var status string
		require.NoError(t, pool.QueryRow(ctx, "SELECT status FROM platform_status WHERE network = 'TIKTOK'").Scan(&status))
		return status == app.StatusOperational
	}, 15*time.Second, 100*time.Millisecond)
}

func TestQueuesAreNamed(t *testing.T) {
	t.Parallel()
	for _, q := range []string{jobs.QueuePublish, jobs.QueueImports, jobs.QueueWebhooks, jobs.QueueDefault} {
		require.Positive(t, jobs.Queues[q].MaxWorkers, q)
	}
}
