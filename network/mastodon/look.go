package mastodon

import "github.com/crier/crier/app"

// brand is how the dashboard draws Mastodon: its mark.
var brand = app.Brand{
	Color: "#6364ff",
	Icon: `<path d="M24.6 13.1c0-3.9-2.6-5-2.6-5-1.3-.6-3.5-.8-5.8-.9h-.1c-2.3 0-4.5.3-5.8.9 0 0-2.6 1.1-2.6 5v3.2c.1 3.9.7 7.7 4.4 8.7 1.7.4 3.1.5 4.3.5 2.1-.1 3.3-.8 3.3-.8l-.1-1.6s-1.5.5-3.2.4c-1.7 0-3.4-.2-3.7-2.2v-.6s1.6.4 3.7.5c1.3.1 2.5-.1 3.7-.2 2.3-.3 4.3-1.7 4.6-3 .4-2.1.4-5 .4-5z" fill="#fff"></path>` +
		` <path d="M12.3 18.6v-5.2c0-1.1.6-1.8 1.6-1.8s1.6.7 1.6 1.9v2.7h.9v-2.7c0-1.2.6-1.9 1.6-1.9s1.6.7 1.6 1.8v5.2" fill="none" stroke="#6364ff" stroke-width="1.5" stroke-linejoin="round"></path>`,
	Monogram: "MA",
}

// compose is Mastodon's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "spoiler", Label: "Content warning", Kind: app.KindText},
		{Key: "privacy", Label: "Visibility", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "PUBLIC", Label: "Public"}, {Value: "UNLISTED", Label: "Unlisted"}, {Value: "PRIVATE", Label: "Private"}, {Value: "DIRECT", Label: "Mentioned people only"}}, DefaultLabel: "Network default"},
		{Key: "thumbnail", Label: "Video thumbnail", Kind: app.KindUpload, Group: "Media"},
	},
	Preview:   "feed",
	Actions:   []app.PreviewAction{{Label: "Reply", Icon: "reply"}, {Label: "Boost", Icon: "repost"}, {Label: "Favourite", Icon: "star"}, {Label: "Bookmark", Icon: "save"}},
	IconsOnly: true,
}
