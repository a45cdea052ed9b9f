package x

import "github.com/crier/crier/app"

// Spec is everything Crier knows about X apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Twitter,
	Name:    "X",
	Brand:   brand,
	Compose: compose,
}
