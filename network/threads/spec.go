package threads

import "github.com/crier/crier/app"

const textLimit = 500 // §6 500

// Spec is Threads's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:    app.Threads,
	Name:       "Threads",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: func(text string, _ *app.SocialAccount) (int, int) { return length(text), textLimit },
	DailyCaps:  app.DailyCaps{Posts: 250, Comments: 1000},
	Comments:   true,
	Brand:      brand,
	Compose:    compose,
}
