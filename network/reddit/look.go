package reddit

import "github.com/crier/crier/app"

// brand is how the dashboard draws Reddit: its mark.
var brand = app.Brand{
	Color: "#ff4500",
	Icon: `<ellipse cx="16" cy="18.6" rx="8.2" ry="5.6" fill="#fff"></ellipse>` +
		` <circle cx="23.4" cy="14.2" r="2" fill="#fff"></circle>` +
		` <circle cx="8.6" cy="14.2" r="2" fill="#fff"></circle>` +
		` <circle cx="21" cy="8.2" r="1.7" fill="#fff"></circle>` +
		` <path d="M16 13l1.3-5.2 3.7.4" fill="none" stroke="#fff" stroke-width="1.3" stroke-linecap="round" stroke-linejoin="round"></path>` +
		` <circle cx="13" cy="17.8" r="1.3" fill="#ff4500"></circle>` +
		` <circle cx="19" cy="17.8" r="1.3" fill="#ff4500"></circle>` +
		` <path d="M12.8 20.9c1.8 1.2 4.6 1.2 6.4 0" fill="none" stroke="#ff4500" stroke-width="1.1" stroke-linecap="round"></path>`,
	Monogram:     "RD",
	HandlePrefix: "u/",
}

// compose is Reddit's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "sr", Label: "Subreddit", Kind: app.KindChannel, ByName: true, ChannelPrefix: "r/", Hint: "Without r/."},
		{Key: "text", Label: "Title", Kind: app.KindText, Hint: app.SharedTextHint},
		{Key: "description", Label: "Body", Kind: app.KindTextarea},
		{Key: "link", Label: "Link", Kind: app.KindURL},
		{Key: "flairId", Label: "Flair id", Kind: app.KindText, Group: "Options"},
		{Key: "nsfw", Label: "NSFW", Kind: app.KindBool, Group: "Options"},
	},
	Preview: "reddit",
	Card:    app.PreviewCard{Title: "text", Body: "description", Where: "sr", WherePrefix: "r/", AlwaysWhere: true},
	Actions: []app.PreviewAction{{Label: "Vote", Icon: "vote"}, {Label: "Comments", Icon: "comment"}, {Label: "Share", Icon: "share"}},
}
