package slack

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Slack apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Slack,
	Name:    "Slack",
	Brand:   brand,
	Compose: compose,
}
