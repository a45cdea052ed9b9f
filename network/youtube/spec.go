package youtube

import "github.com/crier/crier/app"

// Spec is everything Crier knows about YouTube apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.YouTube,
	Name:    "YouTube",
	Brand:   brand,
	Compose: compose,
}
