package reddit

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Reddit apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Reddit,
	Name:    "Reddit",
	Brand:   brand,
	Compose: compose,
}
