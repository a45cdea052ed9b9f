package tiktok

import (
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const photoTitleLimit = 90 // §1 photo title 90

// §1 TikTok: no text-only post; VIDEO: exactly one MP4/MOV video ≤ 4 GB, 3 s–10 min, sides 360–4096;
// IMAGE: 1–35 JPEG photos ≤ 20 MB, never with video; title 2,200 (photo title 90).
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.TikTok
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if p.Type == "IMAGE" {
		c.TextMax(n, app.JoinPath(base, "text"), app.Runes(p.Text), photoTitleLimit, "characters in a photo post's title", "title")
		if c.Publishing() || m.Count > 35 {
			c.Count(n, m, 1, 35, "1 to 35 photos for a photo post")
		}
		c.OnlyKinds(n, m, "photos only in a photo post (type IMAGE); post a video with type VIDEO", app.MediaImage, app.MediaGIF)
		c.Formats(n, m, app.MediaImage, media.MIMEJPEG)
		c.MaxSize(n, m, app.MediaImage, 20*app.MiB)
		if m.Count > 0 && p.PhotoCoverIndex >= m.Count {
			c.Add(app.IssueTooBig, fmt.Sprintf("photoCoverIndex %d is past the last photo: choose 0 to %d", p.PhotoCoverIndex, m.Count-1), app.JoinPath(base, "photoCoverIndex")...)
		}
	} else {
		used, limit := app.Runes(p.Text), textLimit
		c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
		mark := c.Mark()
		if c.Publishing() || m.Count > 1 {
			c.Count(n, m, 1, 1, "exactly one video (for photos, use type IMAGE)")
		}
		c.OnlyKinds(n, m, "a video (for photos, use type IMAGE)", app.MediaVideo)
		// Only photos: a photo post takes them as they are.
		if k := m.Kinds(); len(m.Refs) > 0 && k[app.MediaImage]+k[app.MediaGIF] == len(m.Refs) {
			c.Offer(mark, "type", "IMAGE", "Post them as a photo post")
		}
		c.MaxSize(n, m, app.MediaVideo, 4096*app.MiB)
		c.Duration(n, m, 3, 10*60, "videos")
		c.Sides(n, m, app.MediaVideo, 360, 4096)
	}
	if p.IsBrandContent && p.Privacy == "SELF_ONLY" {
		c.Add(app.IssueCustom, "TikTok does not allow branded content to be private (SELF_ONLY); choose another privacy", app.JoinPath(base, "privacy")...)
	}
}
