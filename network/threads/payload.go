package threads

import "github.com/crier/crier/app"

// Payload is data.THREADS.
type Payload struct {
	Text                              string          `json:"text,omitempty"`
	UploadIDs                         []string        `json:"uploadIds,omitempty"`
	MediaItems                        []app.MediaItem `json:"mediaItems,omitempty"`
	TopicTag                          string          `json:"topicTag,omitempty"`
	ReplyControl                      string          `json:"replyControl,omitempty"`
	LinkAttachment                    string          `json:"linkAttachment,omitempty"`
	Poll                              *Poll           `json:"poll,omitempty"`
	GIF                               *GIF            `json:"gif,omitempty"`
	AllowlistedCountryCodes           []string        `json:"allowlistedCountryCodes,omitempty"`
	CrosspostToInstagramStory         bool            `json:"crosspostToInstagramStory,omitempty"`
	CrosspostToInstagramStoryDarkMode bool            `json:"crosspostToInstagramStoryDarkMode,omitempty"`
}

// Poll is a poll of two to four options.
type Poll struct {
	OptionA string `json:"optionA"`
	OptionB string `json:"optionB"`
	OptionC string `json:"optionC,omitempty"`
	OptionD string `json:"optionD,omitempty"`
}

// GIF is a GIF attachment (GIPHY only).
type GIF struct {
	GIFID    string `json:"gifId"`
	Provider string `json:"provider,omitempty"`
}

// Of answers the Threads payload of d (nil when Threads is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.Threads).(*Payload); return p }

func (p *Payload) Body() string                        { return p.Text }
func (p *Payload) Uploads() []string                   { return app.MediaIDs(p.MediaItems, p.UploadIDs) }
func (p *Payload) NamedUploads() []string              { return p.UploadIDs }
func (p *Payload) ApplyAltTexts(media []app.MediaFile) { app.ApplyItemAltTexts(p.MediaItems, media) }

// SetDefaults: GIFs come from GIPHY.
func (p *Payload) SetDefaults() {
	if p.GIF != nil && p.GIF.Provider == "" {
		p.GIF.Provider = "GIPHY"
	}
}
