package snapchat

import "github.com/crier/crier/app"

const textLimit = 160 // §15 Spotlight description 160 (U)

// Spec is Snapchat's: its payload and rules, caps and capabilities (no comments through Crier).
var Spec = &app.NetworkSpec{
	Network:    app.Snapchat,
	Name:       "Snapchat",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: app.CountRunes(textLimit),
	DailyCaps:  app.DailyCaps{Posts: 20, Comments: 20},
	Brand:      brand,
	Compose:    compose,
}
