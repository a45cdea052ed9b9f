package slack

import "github.com/crier/crier/app"

// brand is how the dashboard draws Slack: its mark.
var brand = app.Brand{
	Color:  "#ffffff",
	Border: "#e3e3ea",
	Icon: `<rect x="13.6" y="6.5" width="3.2" height="9" rx="1.6" fill="#36c5f0"></rect>` +
		` <rect x="6.5" y="15.2" width="9" height="3.2" rx="1.6" fill="#2eb67d"></rect>` +
		` <rect x="15.2" y="16.5" width="3.2" height="9" rx="1.6" fill="#e01e5a"></rect>` +
		` <rect x="16.5" y="13.6" width="9" height="3.2" rx="1.6" fill="#ecb22e"></rect>`,
	Monogram: "SL",
}

// compose is Slack's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "channelId", Label: "Channel", Kind: app.KindChannel, ChannelPrefix: "#"},
		{Key: "text", Label: "Message", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "username", Label: "Post as (name)", Kind: app.KindText, Group: "Options", Hint: "Overrides the name the message shows."},
		{Key: "avatarUrl", Label: "Post as (avatar URL)", Kind: app.KindURL, Group: "Options"},
	},
	Preview: "chat",
	Card:    app.PreviewCard{Where: "channelId", WherePrefix: "#"},
	Actions: []app.PreviewAction{{Label: "Add reaction", Icon: "react"}, {Label: "Reply in thread", Icon: "comment"}},
}
