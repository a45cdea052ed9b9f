package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
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
	svc := apptest.New(t, pool, app.Options{})
	client, err := jobs.NewClient(pool, svc, apptest.Publishing(t, svc), jobs.Options{Logger: log, FetchPoll: 50 * time.Millisecond})
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
	for _, q := range []string{app.QueuePublish, app.QueueImports, app.QueueWebhooks, app.QueueDefault} {
		require.Positive(t, jobs.Queues[q].MaxWorkers, q)
	}
}

// PromoteDue makes publish jobs available once due, all of a burst larger than a batch, and
// nothing due later or of another queue; it wakes River's producers of the publish queue.
func TestPromoteDueMakesABurstAvailable(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	burst := jobs.DuePromoteBatch*2 + 7
	_, err := pool.Exec(ctx, `
		INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at)
		SELECT '{}', 'publish_target', 25, q, 'scheduled', now() + d
		FROM (VALUES ('publish', interval '300 milliseconds', $1::int), ('publish', interval '1 hour', 3), ('default', interval '300 milliseconds', 3)) AS v(q, d, n),
			generate_series(1, v.n)`, burst)
	require.NoError(t, err)

	listener, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer listener.Release()
	_, err = listener.Exec(ctx, `LISTEN "public.river_insert"`) // River's channel: <schema>.river_insert
	require.NoError(t, err)

	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go jobs.PromoteDue(pctx, pool, nil)
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	n, err := listener.Conn().WaitForNotification(wctx)
	require.NoError(t, err, "River's producers are notified")
	require.JSONEq(t, `{"queue": "publish"}`, n.Payload)
	count := func(queue, state string) int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE queue = $1 AND state = $2`, queue, state).Scan(&n))
		return n
	}
	require.Eventually(t, func() bool { return count("publish", "available") == burst }, 5*time.Second, 20*time.Millisecond)
	require.Equal(t, 3, count("publish", "scheduled"), "jobs due in an hour wait for River's scheduler")
	require.Equal(t, 3, count("default", "scheduled"), "other queues are River's")
}

// The Service enqueues through an insert-only client, which does not check kinds; the working
// client does: every job app declares has a worker.
func TestEveryJobKindHasAWorker(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	svc := apptest.New(t, pool, app.Options{})
	client, err := jobs.NewClient(pool, svc, apptest.Publishing(t, svc), jobs.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, args := range []river.JobArgs{app.PublishTargetArgs{}, app.FanOutEventArgs{}, app.DeliverWebhookArgs{},
		app.DeactivateWebhooksArgs{}, app.DeliverMailArgs{}, app.PlatformStatusExpireArgs{},
		app.SocialAccountTokensRefreshArgs{}, app.SocialAccountPurgeArgs{}, app.UploadCleanupArgs{}} {
		_, err := client.InsertTx(ctx, tx, args, nil)
		require.NoError(t, err, args.Kind())
	}
}

// A publish job due later is inserted available (app.PublishTargetArgs.Hooks), out of River's
// scheduler's way, and still runs at its time, not before: River's fetch waits for scheduled_at and
// PromoteDue wakes the producers then. Other kinds stay scheduled.
func TestPublishJobsDueLaterAreInsertedAvailable(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	ins, err := jobs.NewInserter(pool, jobs.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	soon := time.Now().Add(1500 * time.Millisecond)
	ids := map[string]int64{}
	for name, j := range map[string]struct {
		args river.JobArgs
		at   time.Time
	}{"soon": {app.PublishTargetArgs{TargetID: "00000000-0000-0000-0000-000000000001", Version: 1}, soon},
		"later": {app.PublishTargetArgs{TargetID: "00000000-0000-0000-0000-000000000002", Version: 1}, time.Now().Add(time.Hour)},
		"other": {app.UploadCleanupArgs{}, time.Now().Add(time.Hour)}} {
		res, err := ins.Insert(ctx, j.args, &river.InsertOpts{ScheduledAt: j.at})
		require.NoError(t, err)
		ids[name] = res.Job.ID
	}
	state := func(name string) (st string, attempted *time.Time) {
		require.NoError(t, pool.QueryRow(ctx, `SELECT state::text, attempted_at FROM river_job WHERE id = $1`, ids[name]).Scan(&st, &attempted))
		return st, attempted
	}
	for name, want := range map[string]string{"soon": "available", "later": "available", "other": "scheduled"} {
		st, _ := state(name)
		require.Equal(t, want, st, name)
	}

	svc := apptest.New(t, pool, app.Options{})
	client, err := jobs.NewClient(pool, svc, apptest.Publishing(t, svc), jobs.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { require.NoError(t, client.Stop(context.Background())) })
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go jobs.PromoteDue(pctx, pool, nil)
	// The target does not exist: the worker completes the job at once, when it runs.
	require.Eventually(t, func() bool { st, _ := state("soon"); return st == "completed" }, 10*time.Second, 20*time.Millisecond)
	_, started := state("soon")
	require.False(t, started.Before(soon), "ran at %s, due at %s", started, soon)
	require.Less(t, started.Sub(soon), time.Second, "PromoteDue woke the producers at its time (River's poll is every 5 s)")
	st, _ := state("later")
	require.Equal(t, "available", st, "a job due in an hour is not run")
}
