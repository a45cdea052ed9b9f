package tiktok

import "github.com/crier/crier/app"

// Payload is data.TIKTOK.
type Payload struct {
	Type                  string              `json:"type,omitempty"` // VIDEO (default) | IMAGE
	Text                  string              `json:"text,omitempty"`
	UploadIDs             []string            `json:"uploadIds,omitempty"`
	Thumbnail             string              `json:"thumbnail,omitempty"`
	Privacy               string              `json:"privacy,omitempty"`
	PhotoCoverIndex       int                 `json:"photoCoverIndex,omitempty"`
	IsBrandContent        bool                `json:"isBrandContent,omitempty"`
	IsOrganicBrandContent bool                `json:"isOrganicBrandContent,omitempty"`
	DisableComments       bool                `json:"disableComments,omitempty"`
	DisableDuet           bool                `json:"disableDuet,omitempty"`
	DisableStitch         bool                `json:"disableStitch,omitempty"`
	ThumbnailOffset       float64             `json:"thumbnailOffset,omitempty"`
	IsAIGenerated         bool                `json:"isAiGenerated,omitempty"`
	AutoAddMusic          bool                `json:"autoAddMusic,omitempty"`
	AutoScale             bool                `json:"autoScale,omitempty"`
	UploadToDraft         bool                `json:"uploadToDraft,omitempty"`
	MusicSoundInfo        *app.MusicSoundInfo `json:"musicSoundInfo,omitempty"`
}

// Of answers the TikTok payload of d (nil when TikTok is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.TikTok).(*Payload); return p }

func (p *Payload) Body() string         { return p.Text }
func (p *Payload) Uploads() []string    { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string { return p.Thumbnail }

// SetDefaults: a video unless said otherwise.
func (p *Payload) SetDefaults() {
	if p.Type == "" {
		p.Type = "VIDEO"
	}
}
