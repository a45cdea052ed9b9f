package facebook

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Facebook apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Facebook,
	Name:    "Facebook",
	Brand:   brand,
	Compose: compose,
}
