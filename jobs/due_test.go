package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

type dueArgs struct{}

func (dueArgs) Kind() string { return "due_probe" }

type dueWorker struct {
	river.WorkerDefaults[dueArgs]
	started chan time.Time
}

func (w *dueWorker) Work(context.Context, *river.Job[dueArgs]) error {
	w.started <- time.Now()
	return nil
}

// A publish job starts at its time, not at River's next poll (every 5 s) or scheduler pass: PromoteDue
// wakes River's producers when it makes the job available.
func TestPromoteDueWakesRiver(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	w := &dueWorker{started: make(chan time.Time, 1)}
	reg := river.NewWorkers()
	river.AddWorker(reg, w)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Workers: reg,
		Queues:        map[string]river.QueueConfig{app.QueuePublish: {MaxWorkers: 2}},
		FetchCooldown: jobs.FetchCooldown, FetchPollInterval: jobs.FetchPollInterval})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go jobs.PromoteDue(pctx, pool, nil)

	time.Sleep(1500 * time.Millisecond) // past the producers' first fetch
	// A job still scheduled, and one River's scheduler made available ahead of its time (it looks 5 s ahead).
	for _, state := range []string{"scheduled", "available"} {
		due := time.Now().Add(jobs.DueIdleWait + 500*time.Millisecond) // PromoteDue looks again within DueIdleWait
		_, err = pool.Exec(ctx, `INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at) VALUES ('{}', 'due_probe', 5, $1, $2, $3)`,
			app.QueuePublish, state, due)
		require.NoError(t, err)
		select {
		case at := <-w.started:
			late := at.Sub(due)
			t.Logf("%s: started %s after its time", state, late)
			require.Less(t, late, 500*time.Millisecond, "%s: started at its time, not at River's next poll", state)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the job never started", state)
		}
	}
}

// PromoteDueJobs says when the queue has a backlog (a job available since DueBacklogAge or longer),
// which PromoteDue takes for busy producers: it then looks again every DueBacklogWait, not at every
// later job's time.
func TestPromoteDueJobsBacklog(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	insert := func(at time.Time) {
		_, err := pool.Exec(ctx, `INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at) VALUES ('{}', 'due_probe', 5, $1, 'available', $2)`,
			app.QueuePublish, at)
		require.NoError(t, err)
	}
	later := time.Now().Add(time.Hour)
	insert(later)
	_, next, backlog, err := store.PromoteDueJobs(ctx, pool, app.QueuePublish, jobs.DuePromoteBatch, jobs.DueBacklogAge)
	require.NoError(t, err)
	require.NotNil(t, next)
	require.WithinDuration(t, later, *next, time.Millisecond)
	require.False(t, backlog)

	insert(time.Now().Add(-time.Second))
	_, _, backlog, err = store.PromoteDueJobs(ctx, pool, app.QueuePublish, jobs.DuePromoteBatch, jobs.DueBacklogAge)
	require.NoError(t, err)
	require.True(t, backlog, "a job available for a second is a backlog")
}
