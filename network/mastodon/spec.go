package mastodon

import "github.com/crier/crier/app"

const textLimit = 500 // §10 statuses.max_characters default 500

// Spec is Mastodon's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:    app.Mastodon,
	Name:       "Mastodon",
	NewPayload: func() app.Payload { return &Payload{} },
	Check:      check,
	TextLength: func(text string, _ *app.SocialAccount) (int, int) { return length(text), textLimit },
	DailyCaps:  app.DailyCaps{Posts: 300, Comments: 300},
	Comments:   true,
	Brand:      brand,
	Compose:    compose,
}
