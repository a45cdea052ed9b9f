package discord

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Discord apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Discord,
	Name:    "Discord",
	Brand:   brand,
	Compose: compose,
}
