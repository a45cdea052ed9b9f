package x

import (
	"fmt"
	"strings"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const (
	basicLimit   = 280   // §5 280 weighted
	premiumLimit = 25000 // §5 Premium long posts (U)
	urlWeight    = 23    // §5 every URL counts 23
)

// textLimit is the account's limit: premium accounts write long posts.
func textLimit(a *app.SocialAccount) int {
	if a != nil && a.TwitterSubType != nil {
		switch *a.TwitterSubType {
		case "premium", "premium_plus":
			return premiumLimit
		}
	}
	return basicLimit
}

// weightedLength is twitter-text v3's weighted length: NFC-normalized text, URLs 23, emoji 2,
// code points in U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F and U+2032–U+2037 count 1, others 2 (§5).
func weightedLength(text string) int {
	if strings.TrimSpace(text) == "" {
		return 0 // twitter-text: blank text is empty
	}
	rest, urls := app.WithoutURLs(norm.NFC.String(text), true)
	weight := urls * urlWeight * 100
	g := uniseg.NewGraphemes(rest)
	for g.Next() {
		cluster := g.Str()
		if app.IsEmoji(cluster) {
			weight += 200
			continue
		}
		for _, r := range cluster {
			weight += runeWeight(r)
		}
	}
	return weight / 100
}

func runeWeight(r rune) int {
	switch {
	case r <= 0x10FF, r >= 0x2000 && r <= 0x200D, r >= 0x2010 && r <= 0x201F, r >= 0x2032 && r <= 0x2037:
		return 100
	}
	return 200
}

// §5 X: 280 weighted (25,000 premium); up to 4 images, or 1 GIF, or 1 video, never mixed; images
// JPEG/PNG ≤ 5 MB, GIF ≤ 15 MB, video MP4/MOV ≤ 512 MB, 0.5–140 s (premium: no 140 s cap).
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Twitter
	limit := textLimit(c.Account(n))
	used := weightedLength(p.Text)
	if p.TweetStorm {
		// The text is split into a storm of at most 25 posts.
		c.TextMax(n, app.JoinPath(base, "text"), used, limit*25, "characters in a tweet storm of up to 25 posts", "text")
	} else {
		c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	}
	m := c.ItemsOrIDs(base, p.MediaItems, p.UploadIDs)
	checkMedia(c, m, limit > basicLimit)
	if p.Poll != nil {
		if m.Count > 0 {
			c.Add(app.IssueCustom, "An X post with a poll cannot have media; remove the poll or the media", app.JoinPath(base, "poll")...)
		}
		if c.Publishing() && app.Blank(p.Text) {
			c.Add(app.IssueInvalidType, "An X poll needs a question: write it in the text", app.JoinPath(base, "text")...)
		}
	}
	c.NeedSomething(n, p.Text, m, p.QuoteTweetID != "", p.Poll != nil)
	for i, t := range p.Thread {
		tb := app.JoinPath(base, "thread", i)
		c.TextMax(n, app.JoinPath(tb, "text"), weightedLength(t.Text), limit, "characters", "post of the thread")
		tm := c.ListMedia(tb, "uploadIds", t.UploadIDs)
		checkMedia(c, tm, limit > basicLimit)
		if c.Publishing() && app.Blank(t.Text) && tm.Count == 0 {
			c.Add(app.IssueCustom, fmt.Sprintf("Post %d of the X thread is empty: add text or media, or remove it", i+2), tb...)
		}
	}
}

func checkMedia(c *app.PostCheck, m app.MediaSet, premium bool) {
	n := app.Twitter
	if !c.OnlyKinds(n, m, "images, GIFs and videos", app.MediaImage, app.MediaGIF, app.MediaVideo) {
		return
	}
	k := m.Kinds()
	switch {
	case k[app.MediaVideo]+k[app.MediaGIF] > 0 && m.Count > 1:
		c.Add(app.IssueTooBig, "X takes up to 4 images, or 1 GIF, or 1 video per post — never mixed", m.Field...)
	case m.Count > 4:
		c.Add(app.IssueTooBig, fmt.Sprintf("X takes up to 4 images per post (this post has %d)", m.Count), m.Field...)
	}
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG, media.MIMEGIF)
	c.MaxSize(n, m, app.MediaImage, 5*app.MiB)
	c.MaxSize(n, m, app.MediaGIF, 15*app.MiB)
	c.MaxSize(n, m, app.MediaVideo, 512*app.MiB)
	max := 140.0
	if premium {
		max = 0
	}
	c.Duration(n, m, 0.5, max, "videos")
}
