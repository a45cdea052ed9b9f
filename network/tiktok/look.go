package tiktok

import "github.com/crier/crier/app"

// brand is how the dashboard draws TikTok: its mark.
var brand = app.Brand{
	Color: "#111118",
	Icon: `<path d="M18.6 6.5v13.2a3.9 3.9 0 1 1-3.9-3.9" fill="none" stroke="#25f4ee" stroke-width="3" stroke-linecap="round" transform="translate(-1 -.6)"></path>` +
		` <path d="M18.6 6.5c.4 2.9 2.3 4.7 5.2 5" fill="none" stroke="#fe2c55" stroke-width="3" stroke-linecap="round" transform="translate(1 .6)"></path>` +
		` <path d="M18.6 6.5v13.2a3.9 3.9 0 1 1-3.9-3.9M18.6 6.5c.4 2.9 2.3 4.7 5.2 5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"></path>`,
	Monogram: "TT",
}

// compose is TikTok's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "type", Label: "Format", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "VIDEO", Label: "Video"}, {Value: "IMAGE", Label: "Photos"}}},
		{Key: "text", Label: "Caption", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "privacy", Label: "Who can watch", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "PUBLIC_TO_EVERYONE", Label: "Everyone"}, {Value: "MUTUAL_FOLLOW_FRIENDS", Label: "Friends"}, {Value: "FOLLOWER_OF_CREATOR", Label: "Followers"}, {Value: "SELF_ONLY", Label: "Only me"}}, DefaultLabel: "Network default"},
		{Key: "thumbnail", Label: "Cover image", Kind: app.KindUpload, Group: "Media"},
		{Key: "thumbnailOffset", Label: "Cover frame (ms into the video)", Kind: app.KindNumber, Group: "Media", Min: "0"},
		{Key: "photoCoverIndex", Label: "Cover photo (position, from 0)", Kind: app.KindInt, Group: "Media", Min: "0"},
		{Key: "autoScale", Label: "Scale photos to fit", Kind: app.KindBool, Group: "Media"},
		{Key: "disableComments", Label: "Turn off comments", Kind: app.KindBool, Group: "Options"},
		{Key: "disableDuet", Label: "Turn off duets", Kind: app.KindBool, Group: "Options"},
		{Key: "disableStitch", Label: "Turn off stitches", Kind: app.KindBool, Group: "Options"},
		{Key: "uploadToDraft", Label: "Send to TikTok drafts instead of posting", Kind: app.KindBool, Group: "Options"},
		{Key: "autoAddMusic", Label: "Add recommended music (photos)", Kind: app.KindBool, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundId", Label: "Sound id", Kind: app.KindText, Group: "Sound"},
		{Key: "musicSoundInfo.musicSoundVolume", Label: "Sound volume", Kind: app.KindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "musicSoundInfo.musicSoundStart", Label: "Sound starts at (s)", Kind: app.KindNumber, Group: "Sound", Min: "0"},
		{Key: "musicSoundInfo.musicSoundEnd", Label: "Sound ends at (s)", Kind: app.KindNumber, Group: "Sound", Min: "0"},
		{Key: "musicSoundInfo.videoOriginalSoundVolume", Label: "Original audio volume", Kind: app.KindInt, Group: "Sound", Min: "0", Max: "100"},
		{Key: "isBrandContent", Label: "Branded content (a paid partnership)", Kind: app.KindBool, Group: "Compliance"},
		{Key: "isOrganicBrandContent", Label: "Promotes your own business", Kind: app.KindBool, Group: "Compliance"},
		{Key: "isAiGenerated", Label: "Made with AI", Kind: app.KindBool, Group: "Compliance"},
	},
	Preview:   "video",
	Actions:   []app.PreviewAction{{Label: "Like", Icon: "like"}, {Label: "Comment", Icon: "comment"}, {Label: "Save", Icon: "save"}, {Label: "Share", Icon: "share"}},
	IconsOnly: true,
}
