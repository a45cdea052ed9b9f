package network_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	_ "github.com/crier/crier/network" // registers the specs
)

// Importing network gives every network a spec, in app.Networks' order, that the dashboard can draw: a mark,
// a composer tab whose preview fields are fields of the tab.
func TestRegisterDashboardLook(t *testing.T) {
	specs := app.Specs()
	require.Len(t, specs, len(app.Networks))
	for i, s := range specs {
		require.Equal(t, app.Networks[i], s.Network)
		require.Equal(t, s.Network.DisplayName(), s.Name)
		require.Regexp(t, `^#[0-9a-f]{6}$`, s.Brand.Color, s.Network)
		require.NotEmpty(t, s.Brand.Icon, s.Network)
		require.Regexp(t, `^[A-Z]{1,2}$`, s.Brand.Monogram, s.Network)
		require.Contains(t, []string{"feed", "visual", "video", "reddit", "chat"}, s.Compose.Preview, s.Network)
		keys := map[string]bool{}
		for _, f := range s.Compose.Fields {
			require.False(t, keys[f.Key], "%s: field %s twice", s.Network, f.Key)
			keys[f.Key] = true
		}
		require.True(t, keys["text"], "%s has no text field", s.Network)
		for _, k := range []string{s.Compose.Card.Title, s.Compose.Card.Body, s.Compose.Card.Where} {
			require.True(t, k == "" || keys[k], "%s: the preview card's %q is not a field", s.Network, k)
		}
	}
}
