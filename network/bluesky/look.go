package bluesky

import "github.com/crier/crier/app"

// brand is how the dashboard draws Bluesky: its mark.
var brand = app.Brand{
	Color:    "#0085ff",
	Icon:     `<path d="M10.7 9.4c2.2 1.6 4.5 4.9 5.3 6.7.8-1.8 3.1-5.1 5.3-6.7 1.6-1.2 4.2-2.1 4.2.8 0 .6-.3 4.9-.5 5.6-.7 2.4-3.1 3-5.3 2.7 3.8.6 4.8 2.8 2.7 5-4 4.1-5.7-1-6.1-2.3l-.3-.7-.3.7c-.4 1.3-2.1 6.4-6.1 2.3-2.1-2.2-1.1-4.4 2.7-5-2.2.3-4.6-.3-5.3-2.7-.2-.7-.5-5-.5-5.6 0-2.9 2.6-2 4.2-.8z" fill="#fff"></path>`,
	Monogram: "BS",
}

// compose is Bluesky's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "tags", Label: "Tags", Kind: app.KindList, Hint: "Up to 8, separated by commas."},
		{Key: "labels", Label: "Self-labels", Kind: app.KindChecks, Options: []app.FieldOption{{Value: "!no-unauthenticated", Label: "Hide from signed-out viewers"}, {Value: "porn", Label: "Porn"}, {Value: "sexual", Label: "Sexual"}, {Value: "nudity", Label: "Nudity"}, {Value: "graphic-media", Label: "Graphic media"}}},
		{Key: "quoteUri", Label: "Quote post (at:// URI)", Kind: app.KindText, Group: "Options"},
		{Key: "videoAlt", Label: "Video alt text", Kind: app.KindTextarea, Group: "Media"},
		{Key: "externalUrl", Label: "Link card URL", Kind: app.KindURL, Group: "Link card"},
		{Key: "externalTitle", Label: "Link card title", Kind: app.KindText, Group: "Link card"},
		{Key: "externalDescription", Label: "Link card description", Kind: app.KindText, Group: "Link card"},
		{Key: "thumbnail", Label: "Link card image URL", Kind: app.KindURL, Group: "Link card"},
	},
	Preview:   "feed",
	Actions:   []app.PreviewAction{{Label: "Reply", Icon: "comment"}, {Label: "Repost", Icon: "repost"}, {Label: "Like", Icon: "like"}},
	IconsOnly: true,
}
