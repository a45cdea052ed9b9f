package mastodon

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Mastodon apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Mastodon,
	Name:    "Mastodon",
	Brand:   brand,
	Compose: compose,
}
