package facebook

import (
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const (
	nativeMinLead = 10 * time.Minute
	nativeMaxLead = 30 * 24 * time.Hour // schema: max 30 days in the future
)

// §4 Facebook: 63,206; POST up to 10 photos or one video, never mixed, photos JPEG/PNG/GIF < 4 MB;
// REEL one video 3–90 s, 9:16 (U); STORY one photo or video; link only on POST.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Facebook
	c.TextMax(n, app.JoinPath(base, "text"), app.Runes(p.Text), textLimit, "characters", "text")
	m := c.ItemsOrIDs(base, p.MediaItems, p.UploadIDs)
	c.OnlyKinds(n, m, "photos and videos", app.MediaImage, app.MediaGIF, app.MediaVideo)
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG, media.MIMEGIF)
	c.MaxSize(n, m, app.MediaImage, 4*app.MiB)
	c.MaxSize(n, m, app.MediaGIF, 4*app.MiB)
	switch p.Type {
	case "REEL":
		if c.Publishing() || m.Count > 1 {
			c.Count(n, m, 1, 1, "one video for a reel")
		}
		c.OnlyKinds(n, m, "a video for a reel", app.MediaVideo)
		c.Duration(n, m, 3, 90, "reels")
		c.Aspect(n, m, app.MediaVideo, 9.0/16, 9.0/16, "9:16 (vertical) for reels")
	case "STORY":
		if c.Publishing() || m.Count > 1 {
			c.Count(n, m, 1, 1, "one photo or video for a story")
		}
	default:
		if c.AloneKinds(n, m, "takes one video alone, or up to 10 photos", app.MediaVideo) {
			c.Count(n, m, 0, 10, "up to 10 photos")
		}
		c.NeedSomething(n, p.Text, m, p.Link != "")
	}
	if p.Type == "REEL" || p.Type == "STORY" {
		if p.Link != "" {
			c.Add(app.IssueCustom, "Facebook links can only be added to feed posts (type POST)", app.JoinPath(base, "link")...)
		}
		if p.MediaTitle != "" {
			c.Add(app.IssueCustom, "mediaTitle is the title of a video in a feed post (type POST)", app.JoinPath(base, "mediaTitle")...)
		}
	}
	c.URL(p.Link, "The link must be a web address starting with http:// or https://", app.JoinPath(base, "link")...)
	if p.NativeScheduleTime != "" {
		path := app.JoinPath(base, "nativeScheduleTime")
		t, ok := app.ParseTime(p.NativeScheduleTime)
		if !ok {
			c.Add(app.IssueInvalidDate, "nativeScheduleTime must be a date and time like 2026-06-01T10:00:00Z", path...)
		} else if c.Publishing() {
			from := c.Now()
			if c.PostDate().After(from) {
				from = c.PostDate()
			}
			switch {
			case t.Before(from.Add(nativeMinLead)):
				c.Add(app.IssueTooSmall, "Facebook's own scheduling time must be at least 10 minutes after the post is sent to Facebook (its postDate)", path...)
			case t.After(from.Add(nativeMaxLead)):
				c.Add(app.IssueTooBig, "Facebook schedules posts at most 30 days ahead of the postDate", path...)
			}
		}
	}
}
