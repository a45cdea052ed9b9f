package snapchat

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Snapchat apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Snapchat,
	Name:    "Snapchat",
	Brand:   brand,
	Compose: compose,
}
