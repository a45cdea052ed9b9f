package linkedin

import "github.com/crier/crier/app"

const textLimit = 3000 // §7 commentary 3,000

// Spec is LinkedIn's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:     app.LinkedIn,
	Name:        "LinkedIn",
	NewPayload:  func() app.Payload { return &Payload{} },
	Check:       check,
	TextLength:  app.CountRunes(textLimit),
	DailyCaps:   app.DailyCaps{Posts: 150, Comments: 150},
	ChannelNoun: "page",
	Comments:    true,
	Brand:       brand,
	Compose:     compose,
}
