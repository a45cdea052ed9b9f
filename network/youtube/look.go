package youtube

import "github.com/crier/crier/app"

// brand is how the dashboard draws YouTube: its mark.
var brand = app.Brand{
	Color: "#ff0000",
	Icon: `<rect x="6" y="9.5" width="20" height="13" rx="4" fill="#fff"></rect>` +
		` <path d="M14 12.6v6.8l5.6-3.4z" fill="#ff0000"></path>`,
	Monogram: "YT",
}

// compose is YouTube's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "type", Label: "Format", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "SHORT", Label: "Short"}, {Value: "VIDEO", Label: "Video"}}},
		{Key: "text", Label: "Video title", Kind: app.KindText, Hint: app.SharedTextHint},
		{Key: "description", Label: "Description", Kind: app.KindTextarea},
		{Key: "privacy", Label: "Visibility", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "PUBLIC", Label: "Public"}, {Value: "UNLISTED", Label: "Unlisted"}, {Value: "PRIVATE", Label: "Private"}}, DefaultLabel: "Network default"},
		{Key: "thumbnail", Label: "Thumbnail", Kind: app.KindUpload, Group: "Media"},
		{Key: "defaultLanguage", Label: "Language", Kind: app.KindText, Group: "Options", Hint: "A language code such as en or fr-CA."},
		{Key: "defaultAudioLanguage", Label: "Audio language", Kind: app.KindText, Group: "Options"},
		{Key: "madeForKids", Label: "Made for kids", Kind: app.KindBool, Group: "Compliance"},
		{Key: "containsSyntheticMedia", Label: "Contains altered or synthetic content", Kind: app.KindBool, Group: "Compliance"},
		{Key: "hasPaidProductPlacement", Label: "Paid product placement", Kind: app.KindBool, Group: "Compliance"},
	},
	Preview: "video",
	Card:    app.PreviewCard{Title: "text", Body: "description"},
	Actions: []app.PreviewAction{{Label: "Like", Icon: "thumb"}, {Label: "Share", Icon: "share"}, {Label: "Save", Icon: "save"}, {Label: "Subscribe", Icon: "bell", End: true}},
}
