package pubutil

import (
	"fmt"

	"github.com/crier/crier/app"
)

// ChatPayload is data.DISCORD and data.SLACK: a message to one of the account's channels.
type ChatPayload struct {
	ChannelID string   `json:"channelId"`
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
	Username  string   `json:"username,omitempty"`
	AvatarURL string   `json:"avatarUrl,omitempty"`
}

func (p *ChatPayload) Body() string      { return p.Text }
func (p *ChatPayload) Uploads() []string { return p.UploadIDs }

// PublishChannel is the account's channel of the payload's channelId (a bare one when the account
// does not list it).
func (p *ChatPayload) PublishChannel(_ app.Network, acct *app.SocialAccount) (*app.Channel, error) {
	if ch := app.SelectedChannel(acct, func(c app.Channel) bool { return c.ID == p.ChannelID }); ch != nil {
		return ch, nil
	}
	return &app.Channel{ID: p.ChannelID}, nil
}

// CheckChat is the rules of a chat network n (§11 Discord, §12 Slack): text up to textLimit,
// at most maxFiles attachments (< 0: any number), something to post, channelId one of the account's
// channels.
func CheckChat(n app.Network, textLimit, maxFiles int) func(c *app.PostCheck, base []any, pl app.Payload) {
	return func(c *app.PostCheck, base []any, pl app.Payload) {
		p := pl.(*ChatPayload)
		c.TextMax(n, app.JoinPath(base, "text"), app.Runes(p.Text), textLimit, "characters", "message")
		m := c.ListMedia(base, "uploadIds", p.UploadIDs)
		if maxFiles >= 0 {
			c.Count(n, m, 0, maxFiles, fmt.Sprintf("up to %d attachments", maxFiles))
		}
		c.NeedSomething(n, p.Text, m)
		path := app.JoinPath(base, "channelId")
		a := c.Account(n)
		if !c.Required(p.ChannelID, fmt.Sprintf("Choose the %s channel to post to", n.DisplayName()), path...) || a == nil {
			return
		}
		var names []string
		for _, ch := range a.Channels {
			if ch.ID == p.ChannelID {
				return
			}
			if ch.Name != nil {
				names = append(names, "#"+*ch.Name)
			}
		}
		c.Add(app.IssueCustom, fmt.Sprintf("Channel %q is not one of the %s account's channels%s; choose one the bot can post to or refresh the channels",
			p.ChannelID, n.DisplayName(), app.Listing("channels", names)), path...)
	}
}
