package web

import "github.com/crier/crier/app"

// The composer's per-network tabs hold every field of each network's payload (the spec's payload
// table, app/post_payload.go). One table drives both directions: the tabs' controls are rendered
// from it, the submitted form is read back through it into app.PostData (by building each
// payload's JSON), and a saved post's payloads fill the controls again. uploadIds is not in the
// table: the shared media (and a tab's own media, when chosen) provide it.

// fieldKind says how a field is edited and read.
type fieldKind string

const (
	kindText     fieldKind = "text"     // one line
	kindTextarea fieldKind = "textarea" // several lines
	kindURL      fieldKind = "url"
	kindSelect   fieldKind = "select"   // one of Options ("" = the network's default)
	kindChecks   fieldKind = "checks"   // any of Options (a string array)
	kindBool     fieldKind = "bool"     // a checkbox
	kindInt      fieldKind = "int"      // a whole number
	kindNumber   fieldKind = "number"   // any number
	kindList     fieldKind = "list"     // strings separated by commas or new lines
	kindLines    fieldKind = "lines"    // strings, one per line (may hold commas)
	kindDateTime fieldKind = "datetime" // a local date and time → ISO 8601 in UTC
	kindUpload   fieldKind = "upload"   // an upload id from the library (the picker fills it)
	kindChannel  fieldKind = "channel"  // a destination of the account (its channels), or typed
	kindAltTexts fieldKind = "alttexts" // one alt text per line, for the media in order → mediaItems
	kindTags     fieldKind = "tags"     // "username, x, y" per line → [{username, x, y}]
	kindCarousel fieldKind = "carousel" // "uploadId, alt text" per line → [{uploadId, altText}]
	kindThread   fieldKind = "thread"   // further tweets separated by a line "---" → [{text}]
)

// netField is one field of a network's payload.
type netField struct {
	Key     string // the JSON path inside the payload ("poll.options")
	Label   string
	Kind    fieldKind
	Options []string
	Hint    string
	Default string // the control's value for a new post ("on" checks a box)
	Group   string // the tab's section: "" (main), "Options", "Media", "Poll", "Sound", "Compliance"…
	Min     string // numbers: the control's min
	Max     string // numbers: the control's max
}

// textHint is the per-network text override's hint.
const textHint = "Leave empty to use the shared text."

// networkFields is the payload table, network by network, in the spec's order of fields.
var networkFields = map[app.Network][]netField{
	app.Twitter: {
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: kindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media (up to 1,000 characters each)."},
		{Key: "replySettings", Label: "Who can reply", Kind: kindSelect, Options: []string{"EVERYONE", "FOLLOWING", "MENTIONED_USERS", "SUBSCRIBERS", "VERIFIED"}, Group: "Options"},
		{Key: "quoteTweetId", Label: "Quote post id", Kind: kindText, Group: "Options", Hint: "The id of the post to quote."},
		{Key: "replyToTweetId", Label: "Reply to post id", Kind: kindText, Group: "Options"},
		{Key: "subscribersOnly", Label: "Subscribers only", Kind: kindBool, Group: "Options"},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: kindBool, Group: "Options"},
		{Key: "poll.options", Label: "Poll choices", Kind: kindLines, Group: "Poll", Hint: "Two to four choices, one per line (25 characters each)."},
		{Key: "poll.durationMinutes", Label: "Poll length (minutes)", Kind: kindInt, Group: "Poll", Min: "5", Max: "10080", Hint: "5 minutes to 7 days (10,080)."},
		{Key: "thread", Label: "Thread: further posts", Kind: kindThread, Group: "Thread", Hint: "Each further post of the thread, with its own media (up to 4 images, or 1 video or GIF). Up to 25 posts; a line holding only --- splits a post."},
		{Key: "tweetStorm", Label: "Split long text into a thread", Kind: kindBool, Group: "Thread"},
		{Key: "tweetStormNumbering", Label: "Number the posts of the thread (1/n)", Kind: kindBool, Group: "Thread"},
	},
	app.Pinterest: {
		{Key: "text", Label: "Pin title", Kind: kindText, Hint: textHint},
		{Key: "description", Label: "Description", Kind: kindTextarea},
		{Key: "boardName", Label: "Board", Kind: kindChannel, Hint: "The name of one of the account’s boards."},
		{Key: "link", Label: "Destination link", Kind: kindURL},
		{Key: "altText", Label: "Alt text", Kind: kindText, Group: "Media"},
		{Key: "thumbnail", Label: "Cover image (video pins)", Kind: kindUpload, Group: "Media"},
		{Key: "note", Label: "Note to self", Kind: kindText, Group: "Options"},
		{Key: "dominantColor", Label: "Dominant colour", Kind: kindText, Group: "Options", Hint: "A hex colour such as #6E7874."},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: kindBool, Group: "Options"},
	},
	app.Facebook: {
		{Key: "type", Label: "Format", Kind: kindSelect, Options: []string{"POST", "REEL", "STORY"}},
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "link", Label: "Link", Kind: kindURL},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: kindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media."},
		{Key: "thumbnail", Label: "Video thumbnail", Kind: kindUpload, Group: "Media"},
		{Key: "mediaTitle", Label: "Video title", Kind: kindText, Group: "Media"},
		{Key: "nativeScheduleTime", Label: "Schedule on Facebook itself at", Kind: kindDateTime, Group: "Options", Hint: "In your timezone. Leave empty to publish at the post’s time."},
		{Key: "textFormatPresetId", Label: "Background preset id", Kind: kindText, Group: "Options"},
	},
	app.Instagram: {
		{Key: "type", Label: "Format", Kind: kindSelect, Options: []string{"POST", "REEL", "STORY"}},
		{Key: "text", Label: "Caption", Kind: kindTextarea, Hint: textHint},
		{Key: "altText", Label: "Alt text", Kind: kindText, Group: "Media", Hint: "For a single image or video; each carousel slide has its own below."},
		{Key: "carouselItems", Label: "Carousel slides", Kind: kindCarousel, Group: "Media", Hint: "One slide per chosen image or video, in the media’s order. Optional: each slide’s own alt text and tagged people."},
		{Key: "thumbnail", Label: "Reel cover", Kind: kindUpload, Group: "Media"},
		{Key: "thumbnailOffset", Label: "Cover frame (ms into the video)", Kind: kindNumber, Group: "Media", Min: "0"},
		{Key: "autoFitImage", Label: "Fit images to Instagram’s ratios", Kind: kindBool, Group: "Media"},
		{Key: "autoCropImage", Label: "Crop images to Instagram’s ratios", Kind: kindBool, Group: "Media"},
		{Key: "shareToFeed", Label: "Also share the reel to the feed", Kind: kindBool, Default: "on", Group: "Options"},
		{Key: "collaborators", Label: "Collaborators", Kind: kindList, Group: "Options", Hint: "Usernames, separated by commas."},
		{Key: "tagged", Label: "Tagged people", Kind: kindTags, Group: "Options", Hint: "One per line: username, x, y (x and y from 0 to 1, the point on the image). For a single image; each carousel slide has its own, under Media."},
		{Key: "locationId", Label: "Location id", Kind: kindText, Group: "Options"},
		{Key: "trialParams.graduationStrategy", Label: "Trial reel", Kind: kindSelect, Options: []string{"MANUAL", "SS_PERFORMANCE"}, Group: "Options", Hint: "Show the reel to non-followers first; graduate it by hand or by performance."},
		{Key: "musicSoundInfo.musicSoundId", Label: "Sound id", Kind: kindText, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundVolume", Label: "Sound volume", Kind: kindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "musicSoundInfo.videoOriginalSoundVolume", Label: "Original audio volume", Kind: kindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "isPaidPartnership", Label: "Paid partnership", Kind: kindBool, Group: "Compliance"},
		{Key: "brandedContentSponsors", Label: "Sponsors", Kind: kindList, Group: "Compliance", Hint: "Up to two usernames, separated by commas."},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: kindBool, Group: "Compliance"},
	},
	app.Threads: {
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "topicTag", Label: "Topic", Kind: kindText},
		{Key: "linkAttachment", Label: "Link attachment", Kind: kindURL},
		{Key: "mediaItems", Label: "Alt text of each image", Kind: kindAltTexts, Group: "Media", Hint: "One line per image, in the order of the media."},
		{Key: "gif.gifId", Label: "GIPHY GIF id", Kind: kindText, Group: "Media"},
		{Key: "replyControl", Label: "Who can reply", Kind: kindSelect, Options: []string{"everyone", "accounts_you_follow", "mentioned_only", "parent_post_author_only", "followers_only"}, Group: "Options"},
		{Key: "allowlistedCountryCodes", Label: "Only show in countries", Kind: kindList, Group: "Options", Hint: "Country codes such as US, FR, separated by commas."},
		{Key: "crosspostToInstagramStory", Label: "Also share to the Instagram story", Kind: kindBool, Group: "Options"},
		{Key: "crosspostToInstagramStoryDarkMode", Label: "Use dark mode for the story", Kind: kindBool, Group: "Options"},
		{Key: "poll.optionA", Label: "Poll choice A", Kind: kindText, Group: "Poll"},
		{Key: "poll.optionB", Label: "Poll choice B", Kind: kindText, Group: "Poll"},
		{Key: "poll.optionC", Label: "Poll choice C", Kind: kindText, Group: "Poll"},
		{Key: "poll.optionD", Label: "Poll choice D", Kind: kindText, Group: "Poll"},
	},
	app.TikTok: {
		{Key: "type", Label: "Format", Kind: kindSelect, Options: []string{"VIDEO", "IMAGE"}},
		{Key: "text", Label: "Caption", Kind: kindTextarea, Hint: textHint},
		{Key: "privacy", Label: "Who can watch", Kind: kindSelect, Options: []string{"PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"}},
		{Key: "thumbnail", Label: "Cover image", Kind: kindUpload, Group: "Media"},
		{Key: "thumbnailOffset", Label: "Cover frame (ms into the video)", Kind: kindNumber, Group: "Media", Min: "0"},
		{Key: "photoCoverIndex", Label: "Cover photo (position, from 0)", Kind: kindInt, Group: "Media", Min: "0"},
		{Key: "autoScale", Label: "Scale photos to fit", Kind: kindBool, Group: "Media"},
		{Key: "disableComments", Label: "Turn off comments", Kind: kindBool, Group: "Options"},
		{Key: "disableDuet", Label: "Turn off duets", Kind: kindBool, Group: "Options"},
		{Key: "disableStitch", Label: "Turn off stitches", Kind: kindBool, Group: "Options"},
		{Key: "uploadToDraft", Label: "Send to TikTok drafts instead of posting", Kind: kindBool, Group: "Options"},
		{Key: "autoAddMusic", Label: "Add recommended music (photos)", Kind: kindBool, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundId", Label: "Sound id", Kind: kindText, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundVolume", Label: "Sound volume", Kind: kindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "musicSoundInfo.musicSoundStart", Label: "Sound starts at (s)", Kind: kindNumber, Group: "Sound", Min: "0"},
		{Key: "musicSoundInfo.musicSoundEnd", Label: "Sound ends at (s)", Kind: kindNumber, Group: "Sound", Min: "0"},
		{Key: "musicSoundInfo.videoOriginalSoundVolume", Label: "Original audio volume", Kind: kindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "isBrandContent", Label: "Branded content (a paid partnership)", Kind: kindBool, Group: "Compliance"},
		{Key: "isOrganicBrandContent", Label: "Promotes your own business", Kind: kindBool, Group: "Compliance"},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: kindBool, Group: "Compliance"},
	},
	app.LinkedIn: {
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "link", Label: "Link", Kind: kindURL},
		{Key: "privacy", Label: "Visibility", Kind: kindSelect, Options: []string{"PUBLIC", "CONNECTIONS", "LOGGED_IN", "CONTAINER"}},
		{Key: "thumbnail", Label: "Link or video thumbnail", Kind: kindUpload, Group: "Media"},
		{Key: "mediaTitle", Label: "Media title", Kind: kindText, Group: "Media"},
		{Key: "hideFromFeed", Label: "Hide from the feed", Kind: kindBool, Group: "Options"},
		{Key: "disableReshare", Label: "Turn off resharing", Kind: kindBool, Group: "Options"},
	},
	app.YouTube: {
		{Key: "type", Label: "Format", Kind: kindSelect, Options: []string{"SHORT", "VIDEO"}},
		{Key: "text", Label: "Video title", Kind: kindText, Hint: textHint},
		{Key: "description", Label: "Description", Kind: kindTextarea},
		{Key: "privacy", Label: "Visibility", Kind: kindSelect, Options: []string{"PUBLIC", "UNLISTED", "PRIVATE"}},
		{Key: "thumbnail", Label: "Thumbnail", Kind: kindUpload, Group: "Media"},
		{Key: "defaultLanguage", Label: "Language", Kind: kindText, Group: "Options", Hint: "A language code such as en or fr-CA."},
		{Key: "defaultAudioLanguage", Label: "Audio language", Kind: kindText, Group: "Options"},
		{Key: "madeForKids", Label: "Made for kids", Kind: kindBool, Group: "Compliance"},
		{Key: "containsSyntheticMedia", Label: "Contains altered or synthetic content", Kind: kindBool, Group: "Compliance"},
		{Key: "hasPaidProductPlacement", Label: "Paid product placement", Kind: kindBool, Group: "Compliance"},
	},
	app.Reddit: {
		{Key: "sr", Label: "Subreddit", Kind: kindChannel, Hint: "Without r/."},
		{Key: "text", Label: "Title", Kind: kindText, Hint: textHint},
		{Key: "description", Label: "Body", Kind: kindTextarea},
		{Key: "link", Label: "Link", Kind: kindURL},
		{Key: "flairId", Label: "Flair id", Kind: kindText, Group: "Options"},
		{Key: "nsfw", Label: "NSFW", Kind: kindBool, Group: "Options"},
	},
	app.Discord: chatFields,
	app.Slack:   chatFields,
	app.Mastodon: {
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "spoiler", Label: "Content warning", Kind: kindText},
		{Key: "privacy", Label: "Visibility", Kind: kindSelect, Options: []string{"PUBLIC", "UNLISTED", "PRIVATE", "DIRECT"}},
		{Key: "thumbnail", Label: "Video thumbnail", Kind: kindUpload, Group: "Media"},
	},
	app.Bluesky: {
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "tags", Label: "Tags", Kind: kindList, Hint: "Up to 8, separated by commas."},
		{Key: "labels", Label: "Self-labels", Kind: kindChecks, Options: []string{"!no-unauthenticated", "porn", "sexual", "nudity", "graphic-media"}},
		{Key: "quoteUri", Label: "Quote post (at:// URI)", Kind: kindText, Group: "Options"},
		{Key: "videoAlt", Label: "Video alt text", Kind: kindTextarea, Group: "Media"},
		{Key: "externalUrl", Label: "Link card URL", Kind: kindURL, Group: "Link card"},
		{Key: "externalTitle", Label: "Link card title", Kind: kindText, Group: "Link card"},
		{Key: "externalDescription", Label: "Link card description", Kind: kindText, Group: "Link card"},
		{Key: "thumbnail", Label: "Link card image URL", Kind: kindURL, Group: "Link card"},
	},
	app.GoogleBusiness: {
		{Key: "topicType", Label: "Post type", Kind: kindSelect, Options: []string{"STANDARD", "EVENT", "OFFER", "ALERT"}},
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "languageCode", Label: "Language", Kind: kindText, Hint: "A language code such as en."},
		{Key: "callToActionType", Label: "Button", Kind: kindSelect, Options: []string{"BOOK", "ORDER", "SHOP", "LEARN_MORE", "SIGN_UP", "CALL"}, Group: "Call to action"},
		{Key: "callToActionUrl", Label: "Button link", Kind: kindURL, Group: "Call to action"},
		{Key: "eventTitle", Label: "Event title", Kind: kindText, Group: "Event"},
		{Key: "eventStartDate", Label: "Starts", Kind: kindDateTime, Group: "Event"},
		{Key: "eventEndDate", Label: "Ends", Kind: kindDateTime, Group: "Event"},
		{Key: "offerCouponCode", Label: "Coupon code", Kind: kindText, Group: "Offer"},
		{Key: "offerRedeemOnlineUrl", Label: "Redeem online at", Kind: kindURL, Group: "Offer"},
		{Key: "offerTermsConditions", Label: "Terms and conditions", Kind: kindTextarea, Group: "Offer"},
		{Key: "alertType", Label: "Alert type", Kind: kindSelect, Options: []string{"COVID_19"}, Group: "Alert"},
	},
	app.Snapchat: {
		{Key: "type", Label: "Format", Kind: kindSelect, Options: []string{"STORY", "SPOTLIGHT", "SAVED_STORY"}},
		{Key: "text", Label: "Text", Kind: kindTextarea, Hint: textHint},
		{Key: "title", Label: "Title", Kind: kindText},
		{Key: "description", Label: "Description", Kind: kindTextarea},
		{Key: "locale", Label: "Locale", Kind: kindText, Group: "Options", Hint: "Such as en_US."},
		{Key: "storyDuration", Label: "Story stays for", Kind: kindSelect, Options: []string{"ONE_DAY", "TWO_DAYS", "THREE_DAYS", "ONE_WEEK"}, Group: "Options"},
		{Key: "skipSaveToProfile", Label: "Don’t save to the public profile", Kind: kindBool, Group: "Options"},
	},
}

var chatFields = []netField{
	{Key: "channelId", Label: "Channel", Kind: kindChannel},
	{Key: "text", Label: "Message", Kind: kindTextarea, Hint: textHint},
	{Key: "username", Label: "Post as (name)", Kind: kindText, Group: "Options", Hint: "Overrides the name the message shows."},
	{Key: "avatarUrl", Label: "Post as (avatar URL)", Kind: kindURL, Group: "Options"},
}

// optionLabels say the payload's enum values for people.
var optionLabels = map[string]string{
	"EVERYONE": "Everyone", "FOLLOWING": "People you follow", "MENTIONED_USERS": "Only people you mention",
	"SUBSCRIBERS": "Subscribers", "VERIFIED": "Verified accounts",
	"POST": "Post", "REEL": "Reel", "STORY": "Story", "VIDEO": "Video", "IMAGE": "Photos", "SHORT": "Short",
	"MANUAL": "Trial, graduate by hand", "SS_PERFORMANCE": "Trial, graduate on performance",
	"everyone": "Everyone", "accounts_you_follow": "Accounts you follow", "mentioned_only": "Only people you mention",
	"parent_post_author_only": "Only the author of the parent post", "followers_only": "Followers only",
	"PUBLIC_TO_EVERYONE": "Everyone", "MUTUAL_FOLLOW_FRIENDS": "Friends", "FOLLOWER_OF_CREATOR": "Followers", "SELF_ONLY": "Only me",
	"PUBLIC": "Public", "CONNECTIONS": "Connections", "LOGGED_IN": "Signed-in members", "CONTAINER": "The page’s followers",
	"UNLISTED": "Unlisted", "PRIVATE": "Private", "DIRECT": "Mentioned people only",
	"!no-unauthenticated": "Hide from signed-out viewers", "porn": "Porn", "sexual": "Sexual", "nudity": "Nudity", "graphic-media": "Graphic media",
	"STANDARD": "Update", "EVENT": "Event", "OFFER": "Offer", "ALERT": "Alert",
	"BOOK": "Book", "ORDER": "Order online", "SHOP": "Buy", "LEARN_MORE": "Learn more", "SIGN_UP": "Sign up", "CALL": "Call now",
	"COVID_19": "COVID-19", "SPOTLIGHT": "Spotlight", "SAVED_STORY": "Saved story",
	"ONE_DAY": "One day", "TWO_DAYS": "Two days", "THREE_DAYS": "Three days", "ONE_WEEK": "One week",
}

// defaultLabels are what an empty select means (the network's default, from the payload table).
var defaultLabels = map[string]string{
	"type": "Default", "privacy": "Network default", "replySettings": "Everyone (default)", "replyControl": "Everyone (default)",
	"topicType": "Update (default)", "callToActionType": "No button", "trialParams.graduationStrategy": "Not a trial reel",
	"alertType": "None", "storyDuration": "Network default",
}
