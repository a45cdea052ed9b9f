package snapchat

import "github.com/crier/crier/app"

// brand is how the dashboard draws Snapchat: its mark.
var brand = app.Brand{
	Color:    "#fffc00",
	Icon:     `<path d="M16 7.2c3 0 5.2 2.2 5.2 5.2v2.2l1.6-.5c.6-.1 1 .6.5 1l-2 1.2c.5 1.7 1.8 3 3.5 3.5.4.1.4.6 0 .8-.8.4-1.7.5-2.2.7l-.3 1.1c-1.2-.2-2.3.1-3.2.8-.9.6-1.9 1-3.1 1s-2.2-.4-3.1-1c-.9-.7-2-1-3.2-.8l-.3-1.1c-.5-.2-1.4-.3-2.2-.7-.4-.2-.4-.7 0-.8 1.7-.5 3-1.8 3.5-3.5l-2-1.2c-.5-.4-.1-1.1.5-1l1.6.5v-2.2c0-3 2.2-5.2 5.2-5.2z" fill="#fff" stroke="#111118" stroke-width="1.3" stroke-linejoin="round"></path>`,
	Monogram: "SC",
}

// compose is Snapchat's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "type", Label: "Format", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "STORY", Label: "Story"}, {Value: "SPOTLIGHT", Label: "Spotlight"}, {Value: "SAVED_STORY", Label: "Saved story"}}},
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "title", Label: "Title", Kind: app.KindText},
		{Key: "description", Label: "Description", Kind: app.KindTextarea},
		{Key: "locale", Label: "Locale", Kind: app.KindText, Group: "Options", Hint: "Such as en_US."},
		{Key: "storyDuration", Label: "Story stays for", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "ONE_DAY", Label: "One day"}, {Value: "TWO_DAYS", Label: "Two days"}, {Value: "THREE_DAYS", Label: "Three days"}, {Value: "ONE_WEEK", Label: "One week"}}, DefaultLabel: "Network default", Group: "Options"},
		{Key: "skipSaveToProfile", Label: "Don’t save to the public profile", Kind: app.KindBool, Group: "Options"},
	},
	Preview: "visual",
	Card:    app.PreviewCard{Title: "title"},
	Actions: []app.PreviewAction{{Label: "Send a chat", Icon: "comment"}, {Label: "Share", Icon: "send"}},
}
