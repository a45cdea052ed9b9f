package linkedin

import "github.com/crier/crier/app"

// Spec is everything Crier knows about LinkedIn apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.LinkedIn,
	Name:    "LinkedIn",
	Brand:   brand,
	Compose: compose,
}
