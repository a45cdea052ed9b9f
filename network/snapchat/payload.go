package snapchat

import "github.com/crier/crier/app"

// Payload is data.SNAPCHAT.
type Payload struct {
	Type              string   `json:"type,omitempty"` // STORY (default) | SPOTLIGHT | SAVED_STORY
	UploadIDs         []string `json:"uploadIds,omitempty"`
	Text              string   `json:"text,omitempty"`
	Title             string   `json:"title,omitempty"`
	Description       string   `json:"description,omitempty"`
	Locale            string   `json:"locale,omitempty"`
	SkipSaveToProfile bool     `json:"skipSaveToProfile,omitempty"`
	StoryDuration     string   `json:"storyDuration,omitempty"` // ONE_DAY | TWO_DAYS | THREE_DAYS | ONE_WEEK
}

// Of answers the Snapchat payload of d (nil when Snapchat is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Snapchat).(*Payload); return p }

func (p *Payload) Body() string      { return p.Text }
func (p *Payload) Uploads() []string { return p.UploadIDs }

// SetDefaults: a story unless said otherwise.
func (p *Payload) SetDefaults() {
	if p.Type == "" {
		p.Type = "STORY"
	}
}
