package youtube

import "github.com/crier/crier/app"

// Payload is data.YOUTUBE.
type Payload struct {
	Type                    string   `json:"type,omitempty"` // SHORT (default) | VIDEO
	UploadIDs               []string `json:"uploadIds,omitempty"`
	Text                    string   `json:"text,omitempty"` // the title
	Description             string   `json:"description,omitempty"`
	Thumbnail               string   `json:"thumbnail,omitempty"`
	Privacy                 string   `json:"privacy,omitempty"` // PRIVATE | PUBLIC | UNLISTED
	DefaultLanguage         string   `json:"defaultLanguage,omitempty"`
	DefaultAudioLanguage    string   `json:"defaultAudioLanguage,omitempty"`
	MadeForKids             bool     `json:"madeForKids,omitempty"`
	ContainsSyntheticMedia  bool     `json:"containsSyntheticMedia,omitempty"`
	HasPaidProductPlacement bool     `json:"hasPaidProductPlacement,omitempty"`
}

// Of answers the YouTube payload of d (nil when YouTube is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.YouTube).(*Payload); return p }

func (p *Payload) Body() string         { return p.Text }
func (p *Payload) Uploads() []string    { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string { return p.Thumbnail }

// SetDefaults: a Short unless said otherwise.
func (p *Payload) SetDefaults() {
	if p.Type == "" {
		p.Type = "SHORT"
	}
}
