package youtube

import (
	"fmt"
	"strings"

	"github.com/crier/crier/app"
)

const descBytes = 5000 // §2 description ≤ 5,000 bytes

// §2 YouTube: exactly one video; title 100, no < or >; description 5,000 bytes; SHORT ≤ 3 min,
// vertical or square; VIDEO ≤ 12 h, ≤ 256 GB.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.YouTube
	used, limit := app.Runes(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters in a title", "title")
	if strings.ContainsAny(p.Text, "<>") {
		c.Add(app.IssueInvalidString, "YouTube titles cannot contain < or >", app.JoinPath(base, "text")...)
	}
	c.TextMax(n, app.JoinPath(base, "description"), len(p.Description), descBytes, "bytes in a description (accented letters take 2, emoji 4)", "description")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.Publishing() || m.Count > 1 {
		c.Count(n, m, 1, 1, "exactly one video")
	}
	c.OnlyKinds(n, m, "a video", app.MediaVideo)
	c.MaxSize(n, m, app.MediaVideo, 256*1024*app.MiB)
	if p.Type == "VIDEO" {
		c.Duration(n, m, 0, 12*3600, "videos")
	} else {
		c.Duration(n, m, 0, 180, "Shorts")
		for _, r := range m.Refs {
			if w, h, ok := r.Dims(); ok && r.Kind() == app.MediaVideo && w > h {
				c.Add(app.IssueCustom, fmt.Sprintf("YouTube Shorts are vertical or square (this video is %d×%d); use type VIDEO for a landscape video", w, h), r.Path...)
			}
		}
	}
}
