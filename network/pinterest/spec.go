package pinterest

import "github.com/crier/crier/app"

// Spec is Pinterest's: its payload and rules, caps and capabilities (no comments through Crier).
var Spec = &app.NetworkSpec{
	Network:     app.Pinterest,
	Name:        "Pinterest",
	NewPayload:  func() app.Payload { return &Payload{} },
	Check:       check,
	TextLength:  app.CountRunes(titleLimit),
	DailyCaps:   app.DailyCaps{Posts: 100, Comments: 100},
	ChannelNoun: "board",
	Brand:       brand,
	Compose:     compose,
}
