package tiktok

import "github.com/crier/crier/app"

// Spec is everything Crier knows about TikTok apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.TikTok,
	Name:    "TikTok",
	Brand:   brand,
	Compose: compose,
}
