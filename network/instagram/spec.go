package instagram

import "github.com/crier/crier/app"

const textLimit = 2200 // §3 caption 2,200

// Spec is Instagram's: its payload and rules, caps and capabilities.
var Spec = &app.NetworkSpec{
	Network:        app.Instagram,
	Name:           "Instagram",
	NewPayload:     func() app.Payload { return &Payload{} },
	Check:          check,
	TextLength:     app.CountRunes(textLimit),
	DailyCaps:      app.DailyCaps{Posts: 50, Comments: 200},
	ChannelNeeded:  channelNeeded,
	Comments:       true,
	ConnectMethods: []string{MethodFacebook, MethodInstagram},
	Brand:          brand,
	Compose:        compose,
}

// channelNeeded: an account connected through Facebook publishes as a chosen business account; one
// connected with Instagram Login is the account itself.
func channelNeeded(a *app.SocialAccount) string {
	if a.InstagramConnectionMethod != nil && *a.InstagramConnectionMethod == "INSTAGRAM" {
		return ""
	}
	return "an Instagram business account"
}
