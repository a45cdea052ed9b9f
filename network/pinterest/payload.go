package pinterest

import (
	"strings"

	"github.com/crier/crier/app"
)

// Payload is data.PINTEREST.
type Payload struct {
	Text          string   `json:"text,omitempty"` // the pin's title
	Description   string   `json:"description,omitempty"`
	BoardName     string   `json:"boardName"`
	UploadIDs     []string `json:"uploadIds,omitempty"`
	Thumbnail     string   `json:"thumbnail,omitempty"`
	Link          string   `json:"link,omitempty"`
	AltText       string   `json:"altText,omitempty"`
	Note          string   `json:"note,omitempty"`
	DominantColor string   `json:"dominantColor,omitempty"`
	IsAIGenerated bool     `json:"isAiGenerated,omitempty"`
}

// Of answers the Pinterest payload of d (nil when Pinterest is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Pinterest).(*Payload); return p }

func (p *Payload) Body() string         { return p.Text }
func (p *Payload) Uploads() []string    { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string { return p.Thumbnail }

// ApplyAltTexts gives the pin's first medium its alt text.
func (p *Payload) ApplyAltTexts(media []app.MediaFile) {
	if len(media) > 0 {
		media[0].AltText = p.AltText
	}
}

// PublishChannel is the account's board named boardName (case-insensitively); a board the account
// does not list cannot be pinned to.
func (p *Payload) PublishChannel(n app.Network, acct *app.SocialAccount) (*app.Channel, error) {
	ch := app.SelectedChannel(acct, func(c app.Channel) bool { return c.Name != nil && strings.EqualFold(*c.Name, p.BoardName) })
	if ch == nil {
		return nil, &app.NetworkError{Network: n, Class: app.ErrPermanent, Status: 404, Code: "board_not_found",
			Message: "Board not found: data.PINTEREST.boardName \"" + p.BoardName + "\" matches no board of the account"}
	}
	return ch, nil
}
