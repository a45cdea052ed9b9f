package linkedin

import "github.com/crier/crier/app"

// brand is how the dashboard draws LinkedIn: its mark.
var brand = app.Brand{
	Color: "#0a66c2",
	Icon: `<rect x="8" y="13" width="3.6" height="11" rx=".6" fill="#fff"></rect>` +
		` <circle cx="9.8" cy="9.2" r="2.1" fill="#fff"></circle>` +
		` <path d="M14.4 13h3.4v1.6c.6-1.1 2-1.9 3.7-1.9 3 0 4.1 1.9 4.1 5V24H22v-5.6c0-1.6-.4-2.7-1.9-2.7s-2.2 1.1-2.2 2.7V24h-3.5z" fill="#fff"></path>`,
	Monogram: "IN",
}

// compose is LinkedIn's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "link", Label: "Link", Kind: app.KindURL},
		{Key: "privacy", Label: "Visibility", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "PUBLIC", Label: "Public"}, {Value: "CONNECTIONS", Label: "Connections"}, {Value: "LOGGED_IN", Label: "Signed-in members"}, {Value: "CONTAINER", Label: "The page’s followers"}}, DefaultLabel: "Network default"},
		{Key: "thumbnail", Label: "Link or video thumbnail", Kind: app.KindUpload, Group: "Media"},
		{Key: "mediaTitle", Label: "Media title", Kind: app.KindText, Group: "Media"},
		{Key: "hideFromFeed", Label: "Hide from the feed", Kind: app.KindBool, Group: "Options"},
		{Key: "disableReshare", Label: "Turn off resharing", Kind: app.KindBool, Group: "Options"},
	},
	Preview: "feed",
	Actions: []app.PreviewAction{{Label: "Like", Icon: "thumb"}, {Label: "Comment", Icon: "comment"}, {Label: "Repost", Icon: "repost"}, {Label: "Send", Icon: "send"}},
}
