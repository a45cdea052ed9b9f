package web

import (
	"os"
	"testing"

	"github.com/crier/crier/network"
)

// TestMain registers the networks' specs, as the server does: the composer's fields, previews and
// marks come from them.
func TestMain(m *testing.M) {
	network.Register()
	os.Exit(m.Run())
}
