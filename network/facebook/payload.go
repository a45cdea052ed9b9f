package facebook

import "github.com/crier/crier/app"

// Payload is data.FACEBOOK.
type Payload struct {
	Type               string          `json:"type,omitempty"` // POST (default) | REEL | STORY
	Text               string          `json:"text,omitempty"`
	UploadIDs          []string        `json:"uploadIds,omitempty"`
	MediaItems         []app.MediaItem `json:"mediaItems,omitempty"`
	Link               string          `json:"link,omitempty"`
	Thumbnail          string          `json:"thumbnail,omitempty"`
	MediaTitle         string          `json:"mediaTitle,omitempty"`
	NativeScheduleTime string          `json:"nativeScheduleTime,omitempty"`
	TextFormatPresetID string          `json:"textFormatPresetId,omitempty"`
}

// Of answers the Facebook payload of d (nil when Facebook is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Facebook).(*Payload); return p }

func (p *Payload) Body() string                        { return p.Text }
func (p *Payload) Uploads() []string                   { return app.MediaIDs(p.MediaItems, p.UploadIDs) }
func (p *Payload) NamedUploads() []string              { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string                { return p.Thumbnail }
func (p *Payload) IsStory() bool                       { return p.Type == "STORY" }
func (p *Payload) ApplyAltTexts(media []app.MediaFile) { app.ApplyItemAltTexts(p.MediaItems, media) }

// SetDefaults: a feed post unless said otherwise.
func (p *Payload) SetDefaults() {
	if p.Type == "" {
		p.Type = "POST"
	}
}
