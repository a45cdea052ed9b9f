package googlebusiness

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Google Business apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.GoogleBusiness,
	Name:    "Google Business",
	Brand:   brand,
	Compose: compose,
}
