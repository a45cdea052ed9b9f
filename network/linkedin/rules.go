package linkedin

import (
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

// §7 LinkedIn: 3,000; images JPG/PNG/GIF < 36,152,320 pixels, 2–20 for a multi-image post; one video
// MP4 3 s–30 min, 75 KB–500 MB, aspect 1:2.4–2.4:1; one document ≤ 100 MB; never mixed; link or media.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.LinkedIn
	used, limit := app.Runes(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.AloneKinds(n, m, "takes one video or one document alone, or up to 20 images", app.MediaVideo, app.MediaDocument) {
		c.Count(n, m, 0, 20, "up to 20 images")
	}
	c.Formats(n, m, app.MediaVideo, media.MIMEMP4)
	c.MaxSize(n, m, app.MediaVideo, 500*app.MiB)
	c.MinSize(n, m, app.MediaVideo, 75*1024)
	c.Duration(n, m, 3, 30*60, "videos")
	c.Aspect(n, m, app.MediaVideo, 1/2.4, 2.4, "1:2.4 to 2.4:1")
	c.MaxSize(n, m, app.MediaDocument, 100*app.MiB)
	for _, r := range m.Refs {
		if w, h, ok := r.Dims(); ok && (r.Kind() == app.MediaImage || r.Kind() == app.MediaGIF) && w*h >= 36152320 {
			c.Add(app.IssueTooBig, fmt.Sprintf("LinkedIn accepts images under 36,152,320 pixels (this one is %d×%d)", w, h), r.Path...)
		}
	}
	if p.Link != "" && m.Count > 0 {
		c.Add(app.IssueCustom, "A LinkedIn post shows either a link preview or media, not both; remove the link or the media", app.JoinPath(base, "link")...)
	}
	c.URL(p.Link, "The link must be a web address starting with http:// or https://", app.JoinPath(base, "link")...)
	c.NeedSomething(n, p.Text, m, p.Link != "")
}
