package pinterest

import "github.com/crier/crier/app"

// brand is how the dashboard draws Pinterest: its mark.
var brand = app.Brand{
	Color:    "#e60023",
	Icon:     `<path d="M16.4 6.5c-5.5 0-8.4 3.7-8.4 7.3 0 2 1 3.9 2.8 4.5.3.1.5 0 .5-.3l.3-1.1c.1-.3 0-.4-.2-.7-.5-.6-.8-1.3-.8-2.4 0-3 2.3-5.4 5.9-5.4 3.2 0 5 1.9 5 4.5 0 3.4-1.5 6.3-3.8 6.3-1.2 0-2.2-1-1.9-2.3.4-1.5 1.1-3.1 1.1-4.2 0-1-.5-1.8-1.6-1.8-1.3 0-2.3 1.3-2.3 3.1 0 1.1.4 1.9.4 1.9l-1.5 6.3c-.4 1.8-.1 4.1 0 4.3 0 .1.2.2.3.1.1-.2 1.5-1.9 2-3.7l.8-3c.4.8 1.6 1.4 2.8 1.4 3.7 0 6.2-3.4 6.2-7.9 0-3.4-2.9-6.6-7.6-6.6z" fill="#fff"></path>`,
	Monogram: "PI",
}

// compose is Pinterest's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Pin title", Kind: app.KindText, Hint: app.SharedTextHint},
		{Key: "description", Label: "Description", Kind: app.KindTextarea},
		{Key: "boardName", Label: "Board", Kind: app.KindChannel, ByName: true, Hint: "The name of one of the account’s boards."},
		{Key: "link", Label: "Destination link", Kind: app.KindURL},
		{Key: "altText", Label: "Alt text", Kind: app.KindText, Group: "Media"},
		{Key: "thumbnail", Label: "Cover image (video pins)", Kind: app.KindUpload, Group: "Media"},
		{Key: "note", Label: "Note to self", Kind: app.KindText, Group: "Options"},
		{Key: "dominantColor", Label: "Dominant colour", Kind: app.KindText, Group: "Options", Hint: "A hex colour such as #6E7874."},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: app.KindBool, Group: "Options"},
	},
	Preview: "visual",
	Card:    app.PreviewCard{Title: "text", Body: "description", Where: "boardName", WherePrefix: "Board: "},
	Actions: []app.PreviewAction{{Label: "Share", Icon: "share"}, {Label: "Save", Icon: "pin", End: true}},
}
