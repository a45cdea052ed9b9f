package x

import "github.com/crier/crier/app"

// Payload is data.TWITTER.
type Payload struct {
	Text                string          `json:"text,omitempty"`
	UploadIDs           []string        `json:"uploadIds,omitempty"`
	MediaItems          []app.MediaItem `json:"mediaItems,omitempty"`
	ReplySettings       string          `json:"replySettings,omitempty"` // EVERYONE | FOLLOWING | MENTIONED_USERS | SUBSCRIBERS | VERIFIED
	Poll                *Poll           `json:"poll,omitempty"`
	QuoteTweetID        string          `json:"quoteTweetId,omitempty"`
	ReplyToTweetID      string          `json:"replyToTweetId,omitempty"`
	SubscribersOnly     bool            `json:"subscribersOnly,omitempty"`
	Thread              []ThreadTweet   `json:"thread,omitempty"`
	TweetStorm          bool            `json:"tweetStorm,omitempty"`
	TweetStormNumbering bool            `json:"tweetStormNumbering,omitempty"`
	IsAIGenerated       bool            `json:"isAiGenerated,omitempty"`
}

// Poll is a poll attached to a tweet.
type Poll struct {
	Options         []string `json:"options"`
	DurationMinutes int      `json:"durationMinutes"`
}

// ThreadTweet is one further tweet of a thread.
type ThreadTweet struct {
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
}

// Of answers the X payload of d (nil when X is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Twitter).(*Payload); return p }

func (p *Payload) Body() string      { return p.Text }
func (p *Payload) Uploads() []string { return app.MediaIDs(p.MediaItems, p.UploadIDs) }

// NamedUploads are uploadIds given beside mediaItems and the uploads of the thread's posts.
func (p *Payload) NamedUploads() []string {
	return append(append([]string(nil), p.UploadIDs...), p.MoreUploads()...)
}

// MoreUploads are the uploads of the thread's posts.
func (p *Payload) MoreUploads() []string {
	var out []string
	for _, t := range p.Thread {
		out = append(out, t.UploadIDs...)
	}
	return out
}

func (p *Payload) ApplyAltTexts(media []app.MediaFile) { app.ApplyItemAltTexts(p.MediaItems, media) }
