package instagram

import "github.com/crier/crier/app"

// Spec is everything Crier knows about Instagram apart from its API.
var Spec = &app.NetworkSpec{
	Network: app.Instagram,
	Name:    "Instagram",
	Brand:   brand,
	Compose: compose,
}
