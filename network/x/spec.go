package x

import "github.com/crier/crier/app"

// Spec is X's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:    app.Twitter,
	Name:       "X",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: func(text string, a *app.SocialAccount) (int, int) { return weightedLength(text), textLimit(a) },
	DailyCaps:  app.DailyCaps{Posts: 100, Comments: 100},
	Comments:   true,
	Brand:      brand,
	Compose:    compose,
}
