package linkedin

import "github.com/crier/crier/app"

// Payload is data.LINKEDIN.
type Payload struct {
	Text           string   `json:"text"`
	UploadIDs      []string `json:"uploadIds,omitempty"`
	Link           string   `json:"link,omitempty"`
	Thumbnail      string   `json:"thumbnail,omitempty"`
	MediaTitle     string   `json:"mediaTitle,omitempty"`
	Privacy        string   `json:"privacy,omitempty"` // CONNECTIONS | PUBLIC | LOGGED_IN | CONTAINER
	HideFromFeed   bool     `json:"hideFromFeed,omitempty"`
	DisableReshare bool     `json:"disableReshare,omitempty"`
}

// Of answers the LinkedIn payload of d (nil when LinkedIn is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.LinkedIn).(*Payload); return p }

func (p *Payload) Body() string         { return p.Text }
func (p *Payload) Uploads() []string    { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string { return p.Thumbnail }
