package bluesky

import "github.com/crier/crier/app"

const textLimit = 300 // §13 300 graphemes

// Spec is Bluesky's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:    app.Bluesky,
	Name:       "Bluesky",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: func(text string, _ *app.SocialAccount) (int, int) { return length(text), textLimit },
	DailyCaps:  app.DailyCaps{Posts: 1000, Comments: 1000},
	Comments:   true,
	Brand:      brand,
	Compose:    compose,
}
