package x

import "github.com/crier/crier/app"

// brand is how the dashboard draws X: its mark.
var brand = app.Brand{
	Color: "#111118",
	Icon: `<path d="M8.5 8h4.6l10.4 16h-4.6z" fill="#fff"></path>` +
		` <path d="M22.8 8 9.2 24" stroke="#fff" stroke-width="1.8" stroke-linecap="round"></path>`,
	Monogram: "X",
}

// compose is X's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: app.KindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media (up to 1,000 characters each)."},
		{Key: "replySettings", Label: "Who can reply", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "EVERYONE", Label: "Everyone"}, {Value: "FOLLOWING", Label: "People you follow"}, {Value: "MENTIONED_USERS", Label: "Only people you mention"}, {Value: "SUBSCRIBERS", Label: "Subscribers"}, {Value: "VERIFIED", Label: "Verified accounts"}}, DefaultLabel: "Everyone (default)", Group: "Options"},
		{Key: "quoteTweetId", Label: "Quote post id", Kind: app.KindText, Group: "Options", Hint: "The id of the post to quote."},
		{Key: "replyToTweetId", Label: "Reply to post id", Kind: app.KindText, Group: "Options"},
		{Key: "subscribersOnly", Label: "Subscribers only", Kind: app.KindBool, Group: "Options"},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: app.KindBool, Group: "Options"},
		{Key: "poll.options", Label: "Poll choices", Kind: app.KindLines, Group: "Poll", Hint: "Two to four choices, one per line (25 characters each)."},
		{Key: "poll.durationMinutes", Label: "Poll length (minutes)", Kind: app.KindInt, Group: "Poll", Min: "5", Max: "10080", Hint: "5 minutes to 7 days (10,080)."},
		{Key: "thread", Label: "Thread: further posts", Kind: app.KindThread, Group: "Thread", Hint: "Each further post of the thread, with its own media (up to 4 images, or 1 video or GIF). Up to 25 posts; a line holding only --- splits a post."},
		{Key: "tweetStorm", Label: "Split long text into a thread", Kind: app.KindBool, Group: "Thread"},
		{Key: "tweetStormNumbering", Label: "Number the posts of the thread (1/n)", Kind: app.KindBool, Group: "Thread"},
	},
	Preview:   "feed",
	Actions:   []app.PreviewAction{{Label: "Reply", Icon: "reply"}, {Label: "Repost", Icon: "repost"}, {Label: "Like", Icon: "like"}, {Label: "Views", Icon: "views"}, {Label: "Bookmark", Icon: "save", End: true}},
	IconsOnly: true,
}
