package googlebusiness

import "github.com/crier/crier/app"

const textLimit = 1500 // §14 summary 1,500

// Spec is Google Business's: its payload and rules, caps and capabilities (no comments through Crier).
var Spec = &app.NetworkSpec{
	Network:       app.GoogleBusiness,
	Name:          "Google Business",
	NewPayload:    func() app.Payload { return &Payload{} },
	Check:         check,
	TextLength:    app.CountRunes(textLimit),
	DailyCaps:     app.DailyCaps{Posts: 50, Comments: 100},
	ChannelNoun:   "location",
	ChannelNeeded: func(*app.SocialAccount) string { return "a business location" },
	Brand:         brand,
	Compose:       compose,
}
