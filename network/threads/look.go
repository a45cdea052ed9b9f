package threads

import "github.com/crier/crier/app"

// brand is how the dashboard draws Threads: its mark.
var brand = app.Brand{
	Color:    "#111118",
	Icon:     `<path d="M20.8 12.6c-.8-2.6-2.8-3.9-5.3-3.9-4 0-6.2 3-6.2 7.3s2.2 7.3 6.4 7.3c3.3 0 5.8-1.9 5.8-4.6 0-2.4-1.9-3.7-4.5-3.7-2.3 0-3.9 1.1-3.9 2.8 0 1.5 1.3 2.4 2.9 2.4 2.6 0 3.8-2 3.8-5.4" fill="none" stroke="#fff" stroke-width="2.1" stroke-linecap="round"></path>`,
	Monogram: "TH",
}

// compose is Threads's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "topicTag", Label: "Topic", Kind: app.KindText},
		{Key: "linkAttachment", Label: "Link attachment", Kind: app.KindURL},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: app.KindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media."},
		{Key: "gif.gifId", Label: "GIPHY GIF id", Kind: app.KindText, Group: "Media"},
		{Key: "replyControl", Label: "Who can reply", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "everyone", Label: "Everyone"}, {Value: "accounts_you_follow", Label: "Accounts you follow"}, {Value: "mentioned_only", Label: "Only people you mention"}, {Value: "parent_post_author_only", Label: "Only the author of the parent post"}, {Value: "followers_only", Label: "Followers only"}}, DefaultLabel: "Everyone (default)", Group: "Options"},
		{Key: "allowlistedCountryCodes", Label: "Only show in countries", Kind: app.KindList, Group: "Options", Hint: "Country codes such as US, FR, separated by commas."},
		{Key: "crosspostToInstagramStory", Label: "Also share to the Instagram story", Kind: app.KindBool, Group: "Options"},
		{Key: "crosspostToInstagramStoryDarkMode", Label: "Use dark mode for the story", Kind: app.KindBool, Group: "Options"},
		{Key: "poll.optionA", Label: "Poll choice A", Kind: app.KindText, Group: "Poll"},
		{Key: "poll.optionB", Label: "Poll choice B", Kind: app.KindText, Group: "Poll"},
		{Key: "poll.optionC", Label: "Poll choice C", Kind: app.KindText, Group: "Poll"},
		{Key: "poll.optionD", Label: "Poll choice D", Kind: app.KindText, Group: "Poll"},
	},
	Preview:   "feed",
	Actions:   []app.PreviewAction{{Label: "Like", Icon: "like"}, {Label: "Reply", Icon: "comment"}, {Label: "Repost", Icon: "repost"}, {Label: "Share", Icon: "send"}},
	IconsOnly: true,
}
