package reddit

import "github.com/crier/crier/app"

const textLimit = 300 // §9 title 300

// Spec is Reddit's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:     app.Reddit,
	Name:        "Reddit",
	NewPayload:  func() app.Payload { return &Payload{} },
	Check:       check,
	TextLength:  app.CountRunes(textLimit),
	DailyCaps:   app.DailyCaps{Posts: 20, Comments: 100},
	ChannelNoun: "subreddit",
	Comments:    true,
	Brand:       brand,
	Compose:     compose,
}
