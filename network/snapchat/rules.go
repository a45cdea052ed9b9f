package snapchat

import (
	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const (
	titleLimit = 45  // §15 saved-story title (U)
	descLimit  = 160 // §15 Spotlight description (U)
)

// §15 Snapchat (U): exactly one media; image JPEG/PNG ≤ 20 MB; video MP4 ≤ 500 MB, 5–60 s, 9:16;
// Spotlight is video only, description 160; saved stories have a title of 45.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Snapchat
	used, limit := app.Runes(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	c.TextMax(n, app.JoinPath(base, "description"), app.Runes(p.Description), descLimit, "characters in a description", "description")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.Publishing() || m.Count > 1 {
		c.Count(n, m, 1, 1, "exactly one image or video: Snapchat posts cannot be text only")
	}
	if p.Type == "SPOTLIGHT" {
		c.OnlyKinds(n, m, "a video for Spotlight", app.MediaVideo)
	} else {
		c.OnlyKinds(n, m, "an image or a video", app.MediaImage, app.MediaGIF, app.MediaVideo)
	}
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG)
	c.MaxSize(n, m, app.MediaImage, 20*app.MiB)
	c.Formats(n, m, app.MediaVideo, media.MIMEMP4)
	c.MaxSize(n, m, app.MediaVideo, 500*app.MiB)
	c.Duration(n, m, 5, 60, "videos")
	c.Aspect(n, m, app.MediaVideo, 9.0/16, 9.0/16, "9:16 (vertical)")
	if p.Type == "SAVED_STORY" {
		c.Required(p.Title, "A saved story needs a title", app.JoinPath(base, "title")...)
	}
	c.TextMax(n, app.JoinPath(base, "title"), app.Runes(p.Title), titleLimit, "characters in a saved story's title", "title")
}
