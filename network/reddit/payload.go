package reddit

import (
	"strings"

	"github.com/crier/crier/app"
)

// Payload is data.REDDIT.
type Payload struct {
	SR          string   `json:"sr"`
	Text        string   `json:"text"` // the title
	Description string   `json:"description,omitempty"`
	UploadIDs   []string `json:"uploadIds,omitempty"`
	Link        string   `json:"link,omitempty"`
	NSFW        bool     `json:"nsfw,omitempty"`
	FlairID     string   `json:"flairId,omitempty"`
}

// Of answers the Reddit payload of d (nil when Reddit is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Reddit).(*Payload); return p }

func (p *Payload) Body() string      { return p.Text }
func (p *Payload) Uploads() []string { return p.UploadIDs }

// PublishChannel is the account's subreddit named sr (by id or name, case-insensitively), else a
// bare one of that name.
func (p *Payload) PublishChannel(_ app.Network, acct *app.SocialAccount) (*app.Channel, error) {
	sr := strings.TrimPrefix(strings.TrimPrefix(p.SR, "/r/"), "r/")
	ch := app.SelectedChannel(acct, func(c app.Channel) bool {
		return strings.EqualFold(c.ID, sr) || (c.Name != nil && strings.EqualFold(*c.Name, sr))
	})
	if ch == nil {
		ch = &app.Channel{ID: sr, Name: &sr}
	}
	return ch, nil
}
