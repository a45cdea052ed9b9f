package mastodon

import "github.com/crier/crier/app"

// Payload is data.MASTODON.
type Payload struct {
	Text      string   `json:"text,omitempty"`
	UploadIDs []string `json:"uploadIds,omitempty"`
	Thumbnail string   `json:"thumbnail,omitempty"`
	Privacy   string   `json:"privacy,omitempty"` // PUBLIC | UNLISTED | PRIVATE | DIRECT
	Spoiler   string   `json:"spoiler,omitempty"`
}

// Of answers the Mastodon payload of d (nil when Mastodon is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Mastodon).(*Payload); return p }

func (p *Payload) Body() string         { return p.Text }
func (p *Payload) Uploads() []string    { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string { return p.Thumbnail }
