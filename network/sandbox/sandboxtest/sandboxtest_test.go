package sandboxtest_test

import (
	"context"
	"testing"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

// Every network connects through its adapter, and the token reads the profile.
func TestConnectEveryNetwork(t *testing.T) {
	t.Parallel()
	nets := sandboxtest.Start(t)
	for _, n := range app.Networks {
		tok := nets.Connect(t, n, "alice")
		p, err := nets.Adapters[n].Profile(context.Background(), tok)
		if err != nil {
			t.Fatalf("%s profile: %v", n, err)
		}
		if p.ExternalID == "" {
			t.Fatalf("%s profile has no id: %+v", n, p)
		}
	}
}
