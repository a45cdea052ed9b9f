package youtube

import "github.com/crier/crier/app"

const textLimit = 100 // §2 title 1–100

// Spec is YouTube's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:       app.YouTube,
	Name:          "YouTube",
	NewPayload:    func() app.Payload { return &Payload{} },
	Check:         check,
	TextLength:    app.CountRunes(textLimit),
	DailyCaps:     app.DailyCaps{Posts: 6, Comments: 100},
	ChannelNoun:   "channel",
	ChannelNeeded: func(*app.SocialAccount) string { return "a YouTube channel" },
	Comments:      true,
	Brand:         brand,
	Compose:       compose,
}
