package instagram

import "github.com/crier/crier/app"

// brand is how the dashboard draws Instagram: its mark.
var brand = app.Brand{
	Color: "#d62976",
	Icon: `<rect x="7.5" y="7.5" width="17" height="17" rx="5" fill="none" stroke="#fff" stroke-width="2.2"></rect>` +
		` <circle cx="16" cy="16" r="4" fill="none" stroke="#fff" stroke-width="2.2"></circle>` +
		` <circle cx="21.2" cy="10.8" r="1.3" fill="#fff"></circle>`,
	Monogram: "IG",
}

// compose is Instagram's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "type", Label: "Format", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "POST", Label: "Post"}, {Value: "REEL", Label: "Reel"}, {Value: "STORY", Label: "Story"}}},
		{Key: "text", Label: "Caption", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "altText", Label: "Alt text", Kind: app.KindText, Group: "Media", Hint: "For a single image or video; each carousel slide has its own below."},
		{Key: "carouselItems", Label: "Carousel slides", Kind: app.KindCarousel, Group: "Media", Hint: "One slide per chosen image or video, in the media’s order. Optional: each slide’s own alt text and tagged people."},
		{Key: "thumbnail", Label: "Reel cover", Kind: app.KindUpload, Group: "Media"},
		{Key: "thumbnailOffset", Label: "Cover frame (ms into the video)", Kind: app.KindNumber, Group: "Media", Min: "0"},
		{Key: "autoFitImage", Label: "Fit images to Instagram’s ratios", Kind: app.KindBool, Group: "Media"},
		{Key: "autoCropImage", Label: "Crop images to Instagram’s ratios", Kind: app.KindBool, Group: "Media"},
		{Key: "shareToFeed", Label: "Also share the reel to the feed", Kind: app.KindBool, Default: "on", Group: "Options"},
		{Key: "collaborators", Label: "Collaborators", Kind: app.KindList, Group: "Options", Hint: "Usernames, separated by commas."},
		{Key: "tagged", Label: "Tagged people", Kind: app.KindTags, Group: "Options", Hint: "One per line: username, x, y (x and y from 0 to 1, the point on the image). For a single image; each carousel slide has its own, under Media."},
		{Key: "locationId", Label: "Location id", Kind: app.KindText, Group: "Options"},
		{Key: "trialParams.graduationStrategy", Label: "Trial reel", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "MANUAL", Label: "Trial, graduate by hand"}, {Value: "SS_PERFORMANCE", Label: "Trial, graduate on performance"}}, DefaultLabel: "Not a trial reel", Group: "Options", Hint: "Show the reel to non-followers first; graduate it by hand or by performance."},
		{Key: "musicSoundInfo.musicSoundId", Label: "Sound id", Kind: app.KindText, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundVolume", Label: "Sound volume", Kind: app.KindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "musicSoundInfo.videoOriginalSoundVolume", Label: "Original audio volume", Kind: app.KindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "isPaidPartnership", Label: "Paid partnership", Kind: app.KindBool, Group: "Compliance"},
		{Key: "brandedContentSponsors", Label: "Sponsors", Kind: app.KindList, Group: "Compliance", Hint: "Up to two usernames, separated by commas."},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: app.KindBool, Group: "Compliance"},
	},
	Preview:   "visual",
	Actions:   []app.PreviewAction{{Label: "Like", Icon: "like"}, {Label: "Comment", Icon: "comment"}, {Label: "Share", Icon: "send"}, {Label: "Save", Icon: "save", End: true}},
	IconsOnly: true,
}
