package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/store/storetest"
)

type testBundle struct {
	svc *app.Service
	db  pgx.Tx
	now time.Time
}

// eventKinds lists the outbox events of an organization, oldest first.
func (b *testBundle) eventKinds(ctx context.Context, orgID string) ([]string, error) {
	rows, err := b.db.Query(ctx, "SELECT kind FROM events WHERE organization_id = $1 ORDER BY created_at, id", orgID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	b := &testBundle{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	b.db = storetest.Tx(t)
	b.svc = apptest.New(t, b.db, app.Options{Now: func() time.Time { return b.now }})
	return b
}

func TestHealthAllOperational(t *testing.T) {
	t.Parallel()
	b := setup(t)
	h, err := b.svc.Health(context.Background())
	require.NoError(t, err)
	require.Equal(t, app.StatusOperational, h.Status)
	require.Equal(t, "All systems operational", h.Note)
	require.Len(t, h.Platforms, 15)
	for _, n := range app.Networks {
		require.Equal(t, app.StatusOperational, h.Platforms[n].Status, n)
		require.NotEmpty(t, h.Platforms[n].Note, n)
	}
}

func TestHealthReportsIncidentUntilItsWindowEnds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	until := b.now.Add(time.Hour)
	_, err := b.svc.SetPlatformStatus(ctx, app.SetPlatformStatusParams{Network: app.Twitter, Status: app.StatusOutage, Note: "X API returns 503", Until: &until})
	require.NoError(t, err)
	_, err = b.svc.SetPlatformStatus(ctx, app.SetPlatformStatusParams{Network: app.Reddit, Status: app.StatusMaintenance})
	require.NoError(t, err)

	h, err := b.svc.Health(ctx)
	require.NoError(t, err)
	require.Equal(t, app.StatusDegraded, h.Status)
	require.Equal(t, "X API returns 503", h.Platforms[app.Twitter].Note)
	require.Equal(t, app.StatusOutage, h.Platforms[app.Twitter].Status)
	require.Equal(t, "Maintenance", h.Platforms[app.Reddit].Note)
	require.Contains(t, h.Note, "Reddit (maintenance), X (outage)")

	b.now = until.Add(time.Second) // the window ended; the job has not run yet
	h, err = b.svc.Health(ctx)
	require.NoError(t, err)
	require.Equal(t, app.StatusOperational, h.Platforms[app.Twitter].Status)
	require.Equal(t, app.StatusMaintenance, h.Platforms[app.Reddit].Status)
}

func TestSetPlatformStatusRejectsBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t)
	past := b.now.Add(-time.Minute)
	_, err := b.svc.SetPlatformStatus(context.Background(), app.SetPlatformStatusParams{Network: "MYSPACE", Status: "broken", Until: &past})
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	var paths []any
	for _, is := range app.ErrorIssues(err) {
		paths = append(paths, is.Path[0])
	}
	require.Equal(t, []any{"network", "status", "until"}, paths)
}
