package threads

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Threads apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Threads,
	Name:    "Threads",
	Brand:   brand,
	Compose: compose,
}
