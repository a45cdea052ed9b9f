package publishing_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
)

// A missing dependency is a start-up error, never a nil dereference later.
func TestNewNeedsItsDependencies(t *testing.T) {
	t.Parallel()
	_, err := publishing.New(app.Core{}, (*app.Service)(nil))
	require.Error(t, err)
	_, err = publishing.New(app.Core{}, nil)
	require.Error(t, err)
}
