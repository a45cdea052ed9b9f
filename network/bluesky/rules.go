package bluesky

import (
	"github.com/rivo/uniseg"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const bytesLimit = 3000 // §13 ≤ 3,000 bytes

// length counts graphemes (§13: what people see as one character).
func length(text string) int { return uniseg.GraphemeClusterCount(text) }

// §13 Bluesky: 300 graphemes and 3,000 bytes; up to 4 images JPEG/PNG ≤ 1,000,000 bytes, or one video
// MP4/MOV ≤ 100 MB, ≤ 3 min; one embed: media, a link card or a quote (media with a quote is allowed).
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Bluesky
	used, limit := length(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	c.TextMax(n, app.JoinPath(base, "text"), len(p.Text), bytesLimit, "bytes (accented letters take 2, emoji 4 or more)", "text")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.OnlyKinds(n, m, "images and videos", app.MediaImage, app.MediaGIF, app.MediaVideo) && c.AloneKinds(n, m, "takes one video alone, or up to 4 images", app.MediaVideo) {
		c.Count(n, m, 0, 4, "up to 4 images")
	}
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG)
	c.MaxSize(n, m, app.MediaImage, 1000000)
	c.MaxSize(n, m, app.MediaVideo, 100*app.MiB)
	c.Duration(n, m, 0, 180, "videos")
	if p.ExternalURL != "" && (m.Count > 0 || p.QuoteURI != "") {
		c.Add(app.IssueCustom, "A Bluesky post shows one embed: a link card cannot go with media or a quote", app.JoinPath(base, "externalUrl")...)
	}
	c.NeedSomething(n, p.Text, m, p.ExternalURL != "", p.QuoteURI != "")
}
