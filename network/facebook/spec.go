package facebook

import "github.com/crier/crier/app"

const textLimit = 63206 // §4 63,206

// Spec is Facebook's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:       app.Facebook,
	Name:          "Facebook",
	NewPayload:    func() app.Payload { return &Payload{} },
	Check:         check,
	TextLength:    app.CountRunes(textLimit),
	DailyCaps:     app.DailyCaps{Posts: 50, Comments: 200},
	ChannelNoun:   "page",
	ChannelNeeded: func(*app.SocialAccount) string { return "a Facebook page" },
	Comments:      true,
	Brand:         brand,
	Compose:       compose,
}
