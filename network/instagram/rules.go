package instagram

import (
	"fmt"
	"regexp"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const (
	maxHashtags = 30 // §3
	maxMentions = 20 // §3
)

var (
	hashtagPattern = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+`)
	mentionPattern = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_.])@[A-Za-z0-9_.]+`)
)

// §3 Instagram: at least one media; POST: one image/video or a 2–10 item carousel; REEL: one video
// MP4/MOV 3 s–15 min ≤ 300 MB; STORY: one image or video (video ≤ 60 s, ≤ 100 MB); images JPEG ≤ 8 MB,
// aspect 4:5–1.91:1 (skipped with autoFitImage/autoCropImage); caption 2,200, 30 hashtags, 20 mentions.
// The width range 320–1440 is not enforced: Meta scales images into it (so do Threads, §6).
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Instagram
	c.TextMax(n, app.JoinPath(base, "text"), app.Runes(p.Text), textLimit, "characters in a caption", "caption")
	if h := len(hashtagPattern.FindAllString(p.Text, -1)); h > maxHashtags {
		c.Add(app.IssueTooBig, fmt.Sprintf("Instagram allows 30 hashtags in a caption (this one has %d)", h), app.JoinPath(base, "text")...)
	}
	if at := len(mentionPattern.FindAllString(p.Text, -1)); at > maxMentions {
		c.Add(app.IssueTooBig, fmt.Sprintf("Instagram allows 20 @mentions in a caption (this one has %d)", at), app.JoinPath(base, "text")...)
	}
	var m app.MediaSet
	if len(p.CarouselItems) > 0 {
		if len(p.UploadIDs) > 0 {
			c.Add(app.IssueCustom, "Give the media either as carouselItems or as uploadIds, not both", app.JoinPath(base, "uploadIds")...)
		}
		fp := app.JoinPath(base, "carouselItems")
		ids := make([]string, len(p.CarouselItems))
		for i, it := range p.CarouselItems {
			ids[i] = it.UploadID
		}
		m = c.Resolve(fp, ids, func(i int) []any { return app.JoinPath(fp, i, "uploadId") })
	} else {
		m = c.ListMedia(base, "uploadIds", p.UploadIDs)
	}
	if c.Publishing() {
		c.Count(n, m, 1, -1, "an image or a video: Instagram posts cannot be text only")
	}
	c.OnlyKinds(n, m, "images and videos", app.MediaImage, app.MediaGIF, app.MediaVideo)
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG)
	c.MaxSize(n, m, app.MediaImage, 8*app.MiB)
	c.Formats(n, m, app.MediaVideo, media.MIMEMP4, media.MIMEQuickTime)
	switch p.Type {
	case "REEL":
		c.Count(n, m, 0, 1, "one video for a reel")
		c.OnlyKinds(n, m, "a video for a reel", app.MediaVideo)
		c.MaxSize(n, m, app.MediaVideo, 300*app.MiB)
		c.Duration(n, m, 3, 15*60, "reels")
	case "STORY":
		c.Count(n, m, 0, 1, "one image or video for a story")
		c.MaxSize(n, m, app.MediaVideo, 100*app.MiB)
		c.Duration(n, m, 0, 60, "story videos")
	default:
		if len(p.CarouselItems) > 0 {
			c.Count(n, m, 2, 10, "2 to 10 items in a carousel")
		} else {
			c.Count(n, m, 0, 10, "up to 10 items in a carousel")
		}
		if !p.AutoFitImage && !p.AutoCropImage {
			mark := c.Mark()
			c.Aspect(n, m, app.MediaImage, 4.0/5, 1.91, "4:5 to 1.91:1 (or turn on autoFitImage or autoCropImage)")
			c.Offer(mark, "autoFitImage", "on", "Let Instagram fit the image (no cropping)")
		}
		c.MaxSize(n, m, app.MediaVideo, 300*app.MiB)
		c.Duration(n, m, 3, 15*60, "videos")
	}
	if p.TrialParams != nil && p.Type != "REEL" {
		c.Add(app.IssueCustom, "Trial reels need type REEL", app.JoinPath(base, "trialParams")...)
	}
}
