package tiktok

import "github.com/crier/crier/app"

const textLimit = 2200 // §1 video title 2,200

// Spec is TikTok's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:    app.TikTok,
	Name:       "TikTok",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: app.CountRunes(textLimit),
	DailyCaps:  app.DailyCaps{Posts: 15, Comments: 100},
	Comments:   true,
	Brand:      brand,
	Compose:    compose,
}
