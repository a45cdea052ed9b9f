package app_test

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/store/storetest"
)

// A missing dependency is an error when the Service is built, never a silent skip later.
func TestNewRefusesMissingDependencies(t *testing.T) {
	t.Parallel()
	_, err := app.New(app.Deps{Log: slog.New(slog.DiscardHandler), Mailer: app.OutboxOnly, Networks: app.Adapters{}}, app.Options{Secret: apptest.Secret})
	require.EqualError(t, err, "app: the Service needs Deps.DB, Deps.Jobs, Deps.Storage")

	var deps app.Deps
	apptest.New(t, storetest.Tx(t), app.Options{}, func(d *app.Deps) { deps = *d })
	_, err = app.New(deps, app.Options{Secret: []byte("short")})
	require.Error(t, err, "a secret too short to derive keys from")
	_, err = app.New(deps, app.Options{Secret: apptest.Secret})
	require.NoError(t, err)
}
