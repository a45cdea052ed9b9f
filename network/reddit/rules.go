package reddit

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crier/crier/app"
)

const selftextLimit = 40000 // §9 selftext 40,000

var subredditPattern = regexp.MustCompile(`^(?:/?[ru]/)?[A-Za-z0-9_]{2,21}$`)

// §9 Reddit: title 1–300, selftext 40,000; one video or 1–20 images (a gallery), images ≤ 20 MB,
// video ≤ 1 GB, ≤ 15 min (U); a link post has no media; the subreddit's own media rules.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Reddit
	srPath := app.JoinPath(base, "sr")
	if c.Required(p.SR, "Choose the subreddit to post to (sr)", srPath...) && !subredditPattern.MatchString(strings.TrimSpace(p.SR)) {
		c.Add(app.IssueInvalidString, fmt.Sprintf("%q is not a subreddit name: write it like r/marketing or marketing", p.SR), srPath...)
	}
	c.Required(p.Text, "A Reddit post needs a title (text)", app.JoinPath(base, "text")...)
	used, limit := app.Runes(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters in a title", "title")
	c.TextMax(n, app.JoinPath(base, "description"), app.Runes(p.Description), selftextLimit, "characters in a post body", "body")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	if c.OnlyKinds(n, m, "images and videos", app.MediaImage, app.MediaGIF, app.MediaVideo) && c.AloneKinds(n, m, "takes one video alone, or up to 20 images for a gallery", app.MediaVideo) {
		c.Count(n, m, 0, 20, "up to 20 images in a gallery")
	}
	c.MaxSize(n, m, app.MediaImage, 20*app.MiB)
	c.MaxSize(n, m, app.MediaGIF, 20*app.MiB)
	c.MaxSize(n, m, app.MediaVideo, 1024*app.MiB)
	c.Duration(n, m, 0, 15*60, "videos")
	if p.Link != "" && m.Count > 0 {
		c.Add(app.IssueCustom, "A Reddit post is either a link or media, not both; remove the link or the media", app.JoinPath(base, "link")...)
	}
	c.URL(p.Link, "The link must be a web address starting with http:// or https://", app.JoinPath(base, "link")...)
	// The subreddit's own rules, when the account lists it (§9: media allowed varies).
	if a := c.Account(n); a != nil && m.Count > 0 {
		name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(p.SR), "/"), "r/")
		for _, ch := range a.Channels {
			if !strings.EqualFold(ch.ID, name) || ch.Metadata == nil {
				continue
			}
			k, md := m.Kinds(), ch.Metadata
			switch {
			case k[app.MediaVideo] > 0 && md.AllowVideos != nil && !*md.AllowVideos:
				c.Add(app.IssueCustom, fmt.Sprintf("r/%s does not allow videos", ch.ID), m.Field...)
			case k[app.MediaImage]+k[app.MediaGIF] > 0 && md.AllowImages != nil && !*md.AllowImages:
				c.Add(app.IssueCustom, fmt.Sprintf("r/%s does not allow images", ch.ID), m.Field...)
			case m.Count > 1 && md.AllowGalleries != nil && !*md.AllowGalleries:
				c.Add(app.IssueCustom, fmt.Sprintf("r/%s does not allow galleries: post one image", ch.ID), m.Field...)
			}
		}
	}
}
