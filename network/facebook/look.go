package facebook

import "github.com/crier/crier/app"

// brand is how the dashboard draws Facebook: its mark.
var brand = app.Brand{
	Color:    "#1877f2",
	Icon:     `<path d="M17.6 27v-9.3h3.1l.5-3.6h-3.6v-2.3c0-1 .3-1.8 1.8-1.8h1.9V6.8a25 25 0 0 0-2.8-.1c-2.8 0-4.6 1.7-4.6 4.8v2.6h-3.1v3.6h3.1V27z" fill="#fff"></path>`,
	Monogram: "FB",
}

// compose is Facebook's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "type", Label: "Format", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "POST", Label: "Post"}, {Value: "REEL", Label: "Reel"}, {Value: "STORY", Label: "Story"}}},
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "link", Label: "Link", Kind: app.KindURL},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: app.KindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media."},
		{Key: "thumbnail", Label: "Video thumbnail", Kind: app.KindUpload, Group: "Media"},
		{Key: "mediaTitle", Label: "Video title", Kind: app.KindText, Group: "Media"},
		{Key: "nativeScheduleTime", Label: "Schedule on Facebook itself at", Kind: app.KindDateTime, Group: "Options", Hint: "In your timezone. Leave empty to publish at the post’s time."},
		{Key: "textFormatPresetId", Label: "Background preset id", Kind: app.KindText, Group: "Options"},
	},
	Preview: "feed",
	Actions: []app.PreviewAction{{Label: "Like", Icon: "thumb"}, {Label: "Comment", Icon: "comment"}, {Label: "Share", Icon: "share"}},
}
