package pinterest

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Pinterest apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Pinterest,
	Name:    "Pinterest",
	Brand:   brand,
	Compose: compose,
}
