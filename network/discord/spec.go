package discord

import (
	"github.com/crier/crier/app"
	"github.com/crier/crier/network/pubutil"
)

const textLimit = 2000 // §11 content 2,000

// Spec is Discord's: its payload (a chat message) and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:     app.Discord,
	Name:        "Discord",
	NewPayload:  func() app.Payload { return &pubutil.ChatPayload{} },
	Check:       pubutil.CheckChat(app.Discord, textLimit, 10), // ≤ 10 attachments
	TextLength:  app.CountRunes(textLimit),
	DailyCaps:   app.DailyCaps{Posts: 1000, Comments: 1000},
	ChannelNoun: "channel",
	Comments:    true,
	Brand:       brand,
	Compose:     compose,
}
