package slack

import (
	"github.com/crier/crier/app"
	"github.com/crier/crier/network/pubutil"
)

const textLimit = 40000 // §12 text 40,000

// Spec is Slack's: its payload (a chat message) and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:     app.Slack,
	Name:        "Slack",
	NewPayload:  func() app.Payload { return &pubutil.ChatPayload{} },
	Check:       pubutil.CheckChat(app.Slack, textLimit, -1), // any files
	TextLength:  app.CountRunes(textLimit),
	DailyCaps:   app.DailyCaps{Posts: 1000, Comments: 1000},
	ChannelNoun: "channel",
	Comments:    true,
	Brand:       brand,
	Compose:     compose,
}
