package bluesky

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Bluesky apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Bluesky,
	Name:    "Bluesky",
	Brand:   brand,
	Compose: compose,
}
