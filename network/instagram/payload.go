package instagram

import "github.com/crier/crier/app"

// Payload is data.INSTAGRAM.
type Payload struct {
	Type                   string              `json:"type,omitempty"` // POST (default) | REEL | STORY
	Text                   string              `json:"text,omitempty"`
	UploadIDs              []string            `json:"uploadIds,omitempty"`
	AltText                string              `json:"altText,omitempty"`
	ThumbnailOffset        float64             `json:"thumbnailOffset,omitempty"`
	Thumbnail              string              `json:"thumbnail,omitempty"`
	ShareToFeed            *bool               `json:"shareToFeed,omitempty"` // default true
	Collaborators          []string            `json:"collaborators,omitempty"`
	AutoFitImage           bool                `json:"autoFitImage,omitempty"`
	AutoCropImage          bool                `json:"autoCropImage,omitempty"`
	Tagged                 []Tag               `json:"tagged,omitempty"`
	CarouselItems          []CarouselItem      `json:"carouselItems,omitempty"`
	LocationID             string              `json:"locationId,omitempty"`
	TrialParams            *TrialParams        `json:"trialParams,omitempty"`
	IsPaidPartnership      bool                `json:"isPaidPartnership,omitempty"`
	BrandedContentSponsors []string            `json:"brandedContentSponsors,omitempty"`
	MusicSoundInfo         *app.MusicSoundInfo `json:"musicSoundInfo,omitempty"`
	IsAIGenerated          bool                `json:"isAiGenerated,omitempty"`
}

// Tag tags a user at a point of the image (0..1).
type Tag struct {
	Username string  `json:"username"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

// CarouselItem is one slide of a carousel.
type CarouselItem struct {
	UploadID string `json:"uploadId"`
	AltText  string `json:"altText,omitempty"`
	Tagged   []Tag  `json:"tagged,omitempty"`
}

// TrialParams makes a reel a trial reel.
type TrialParams struct {
	GraduationStrategy string `json:"graduationStrategy"` // MANUAL | SS_PERFORMANCE
}

// Of answers the Instagram payload of d (nil when Instagram is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Instagram).(*Payload); return p }

func (p *Payload) Body() string { return p.Text }
func (p *Payload) Uploads() []string {
	if len(p.CarouselItems) == 0 {
		return p.UploadIDs
	}
	out := make([]string, 0, len(p.CarouselItems))
	for _, c := range p.CarouselItems {
		out = append(out, c.UploadID)
	}
	return out
}
func (p *Payload) NamedUploads() []string { return p.UploadIDs }
func (p *Payload) ThumbnailRef() string   { return p.Thumbnail }
func (p *Payload) IsStory() bool          { return p.Type == "STORY" }

// ApplyAltTexts gives each slide its alt text, or the single medium the payload's.
func (p *Payload) ApplyAltTexts(media []app.MediaFile) {
	for i, c := range p.CarouselItems {
		if i < len(media) {
			media[i].AltText = c.AltText
		}
	}
	if len(p.CarouselItems) == 0 && len(media) > 0 {
		media[0].AltText = p.AltText
	}
}

// SetDefaults: a feed post, shared to the feed.
func (p *Payload) SetDefaults() {
	if p.Type == "" {
		p.Type = "POST"
	}
	if p.ShareToFeed == nil {
		t := true
		p.ShareToFeed = &t
	}
}
