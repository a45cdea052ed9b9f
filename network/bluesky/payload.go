package bluesky

import "github.com/crier/crier/app"

// Payload is data.BLUESKY.
type Payload struct {
	Text                string   `json:"text,omitempty"`
	UploadIDs           []string `json:"uploadIds,omitempty"`
	Tags                []string `json:"tags,omitempty"`
	Labels              []string `json:"labels,omitempty"`
	QuoteURI            string   `json:"quoteUri,omitempty"`
	ExternalURL         string   `json:"externalUrl,omitempty"`
	ExternalTitle       string   `json:"externalTitle,omitempty"`
	ExternalDescription string   `json:"externalDescription,omitempty"`
	Thumbnail           string   `json:"thumbnail,omitempty"`
	VideoAlt            string   `json:"videoAlt,omitempty"`
}

// Of answers the Bluesky payload of d (nil when Bluesky is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Bluesky).(*Payload); return p }

func (p *Payload) Body() string      { return p.Text }
func (p *Payload) Uploads() []string { return p.UploadIDs }
