package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/crier/crier/migrations"
	"github.com/crier/crier/store/storetest"
)

// Two instances booting together must both succeed, and applying again changes nothing.
func TestMigrateConcurrentlyAndAgain(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()

	// The clone is already migrated; empty it to prove a real run from scratch (River's tables too).
	_, err := pool.Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	require.NoError(t, err)

	var g errgroup.Group
	for range 3 {
		g.Go(func() error { return migrations.Migrate(ctx, pool) })
	}
	require.NoError(t, g.Wait())
	require.NoError(t, migrations.Migrate(ctx, pool))

	var networks int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM platform_status").Scan(&networks))
	require.Equal(t, 15, networks)

	var riverTables int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('river_job', 'river_queue', 'river_leader')").Scan(&riverTables))
	require.Equal(t, 3, riverTables)
}

func TestFingerprintIsStable(t *testing.T) {
	t.Parallel()
	require.Equal(t, migrations.Fingerprint(), migrations.Fingerprint())
	require.Len(t, migrations.Fingerprint(), 12)
}
