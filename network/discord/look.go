package discord

import "github.com/crier/crier/app"

// brand is how the dashboard draws Discord: its mark.
var brand = app.Brand{
	Color: "#5865f2",
	Icon: `<path d="M22.4 10.1a16 16 0 0 0-4-1.2l-.5 1a15 15 0 0 0-3.8 0l-.5-1a16 16 0 0 0-4 1.2C7.1 13.9 6.4 17.6 6.8 21.2a16 16 0 0 0 4.9 2.4l1-1.6a10 10 0 0 1-1.6-.8l.4-.3a11.5 11.5 0 0 0 9.9 0l.4.3a10 10 0 0 1-1.6.8l1 1.6a16 16 0 0 0 4.9-2.4c.4-4.2-.7-7.9-2.7-11.1z" fill="#fff"></path>` +
		` <ellipse cx="12.9" cy="17.4" rx="1.6" ry="1.8" fill="#5865f2"></ellipse>` +
		` <ellipse cx="19.1" cy="17.4" rx="1.6" ry="1.8" fill="#5865f2"></ellipse>`,
	Monogram: "DC",
}

// compose is Discord's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "channelId", Label: "Channel", Kind: app.KindChannel, ChannelPrefix: "#"},
		{Key: "text", Label: "Message", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "username", Label: "Post as (name)", Kind: app.KindText, Group: "Options", Hint: "Overrides the name the message shows."},
		{Key: "avatarUrl", Label: "Post as (avatar URL)", Kind: app.KindURL, Group: "Options"},
	},
	Preview: "chat",
	Card:    app.PreviewCard{Where: "channelId", WherePrefix: "#"},
	Actions: []app.PreviewAction{{Label: "Add reaction", Icon: "react"}, {Label: "Reply", Icon: "reply"}},
}
