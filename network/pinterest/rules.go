package pinterest

import (
	"fmt"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const (
	titleLimit = 100  // §8 title 100 (spec Limits)
	descLimit  = 800  // spec Limits: description 800
	linkLimit  = 2048 // §8 link ≤ 2,048
	altLimit   = 500  // §8 alt text ≤ 500
)

// §8 and the spec's Limits: media required; images JPEG/PNG < 20 MB; carousel 2–5 images of identical
// dimensions; video MP4/MOV 4 s–15 min ≤ 2 GB, alone; title 100, description 800, link 2,048, alt 500.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Pinterest
	c.TextMax(n, app.JoinPath(base, "text"), app.Runes(p.Text), titleLimit, "characters in a pin title", "title")
	c.TextMax(n, app.JoinPath(base, "description"), app.Runes(p.Description), descLimit, "characters in a pin description", "description")
	c.TextMax(n, app.JoinPath(base, "link"), app.Runes(p.Link), linkLimit, "characters in a link", "link")
	c.TextMax(n, app.JoinPath(base, "altText"), app.Runes(p.AltText), altLimit, "characters of alt text", "alt text")
	c.URL(p.Link, "The pin's link must be a web address starting with http:// or https://", app.JoinPath(base, "link")...)
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.Publishing() {
		c.Count(n, m, 1, -1, "an image or a video: pins cannot be text only")
	}
	if c.OnlyKinds(n, m, "images and videos", app.MediaImage, app.MediaGIF, app.MediaVideo) {
		if c.AloneKinds(n, m, "takes one video alone, or 2 to 5 images for a carousel", app.MediaVideo) && c.Count(n, m, 0, 5, "2 to 5 images in a carousel") && m.Count > 1 {
			sameDims(c, n, m)
		}
	}
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG)
	c.MaxSize(n, m, app.MediaImage, 20*app.MiB-1) // "under 20 MB"
	c.MaxSize(n, m, app.MediaVideo, 2048*app.MiB)
	c.Duration(n, m, 4, 15*60, "videos")
	board(c, base, p.BoardName)
}

func sameDims(c *app.PostCheck, n app.Network, m app.MediaSet) {
	var fw, fh int
	for i, r := range m.Refs {
		w, h, ok := r.Dims()
		if !ok {
			continue
		}
		if fw == 0 {
			fw, fh = w, h
			continue
		}
		if w != fw || h != fh {
			c.Add(app.IssueCustom, fmt.Sprintf("%s carousel images must all have the same dimensions (%d×%d, but image %d is %d×%d)", n.DisplayName(), fw, fh, i+1, w, h), r.Path...)
		}
	}
}

// board: the boardName must be one of the account's boards, case-insensitively (spec error table).
func board(c *app.PostCheck, base []any, name string) {
	a := c.Account(app.Pinterest)
	if !c.Required(name, "Choose the Pinterest board to pin to", app.JoinPath(base, "boardName")...) || a == nil {
		return
	}
	var names []string
	for _, ch := range a.Channels {
		if ch.Name == nil {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(*ch.Name), strings.TrimSpace(name)) {
			return
		}
		names = append(names, *ch.Name)
	}
	c.Add(app.IssueCustom, fmt.Sprintf("The Pinterest account has no board named %q%s; use an existing board's name or refresh the account's boards", name, app.Listing("boards", names)), app.JoinPath(base, "boardName")...)
}
