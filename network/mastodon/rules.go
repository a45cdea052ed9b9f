package mastodon

import (
	"unicode/utf8"

	"github.com/crier/crier/app"
)

// length counts characters, each http(s) URL counting 23 (§10 characters_reserved_per_url).
func length(text string) int {
	rest, urls := app.WithoutURLs(text, false)
	return utf8.RuneCountInString(rest) + urls*23
}

// §10 Mastodon: 500 with URLs 23 (spoiler included); ≤ 4 attachments, a video or GIF alone; images
// ≤ 16 MB, videos ≤ 99 MB.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Mastodon
	used, limit := length(p.Text), textLimit
	used += app.Runes(p.Spoiler)
	what := "text"
	if p.Spoiler != "" {
		what = "text with its content warning"
	}
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", what)
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.OnlyKinds(n, m, "images, GIFs and videos", app.MediaImage, app.MediaGIF, app.MediaVideo) && c.AloneKinds(n, m, "takes one video or GIF alone, or up to 4 images", app.MediaVideo, app.MediaGIF) {
		c.Count(n, m, 0, 4, "up to 4 attachments")
	}
	c.MaxSize(n, m, app.MediaImage, 16*app.MiB)
	c.MaxSize(n, m, app.MediaGIF, 16*app.MiB)
	c.MaxSize(n, m, app.MediaVideo, 99*app.MiB)
	c.NeedSomething(n, p.Text, m)
}
