package threads

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

const maxLinks = 5 // Meta's Threads docs (not in networks.md): > 5 distinct links fail

// length counts characters, emoji counting their UTF-8 byte length (§6).
func length(text string) int {
	n := 0
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		if c := g.Str(); app.IsEmoji(c) {
			n += len(c)
		} else {
			n += utf8.RuneCountInString(c)
		}
	}
	return n
}

// §6 Threads: 500 (emoji count their UTF-8 bytes); carousel 2–20; images JPEG/PNG ≤ 8 MB, aspect
// ≤ 10:1; video MP4/MOV ≤ 1 GB, ≤ 5 min, width ≤ 1920; poll, link attachment and GIF on text posts.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.Threads
	used, limit := length(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	m := c.ItemsOrIDs(base, p.MediaItems, p.UploadIDs)
	c.OnlyKinds(n, m, "images and videos", app.MediaImage, app.MediaGIF, app.MediaVideo)
	c.Count(n, m, 0, 20, "up to 20 items in a carousel")
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG)
	c.MaxSize(n, m, app.MediaImage, 8*app.MiB)
	c.Aspect(n, m, app.MediaImage, 0.1, 10, "at most 10:1")
	c.MaxSize(n, m, app.MediaVideo, 1024*app.MiB)
	c.Duration(n, m, 0, 5*60, "videos")
	for _, r := range m.Refs {
		if w, _, ok := r.Dims(); ok && r.Kind() == app.MediaVideo && w > 1920 {
			c.Add(app.IssueTooBig, fmt.Sprintf("Threads accepts videos up to 1920 pixels wide (this one is %d)", w), r.Path...)
		}
	}
	if p.Poll != nil {
		pp := app.JoinPath(base, "poll")
		if app.Blank(p.Poll.OptionA) {
			c.Add(app.IssueTooSmall, "A Threads poll needs option A", app.JoinPath(pp, "optionA")...)
		}
		if app.Blank(p.Poll.OptionB) {
			c.Add(app.IssueTooSmall, "A Threads poll needs option B", app.JoinPath(pp, "optionB")...)
		}
		if app.Blank(p.Poll.OptionC) && !app.Blank(p.Poll.OptionD) {
			c.Add(app.IssueCustom, "Fill option C before option D", app.JoinPath(pp, "optionD")...)
		}
	}
	attach := func(field, what string, set bool) {
		if set && m.Count > 0 {
			c.Add(app.IssueCustom, fmt.Sprintf("A Threads post with %s cannot have media; remove one of them", what), app.JoinPath(base, field)...)
		}
	}
	attach("poll", "a poll", p.Poll != nil)
	attach("linkAttachment", "a link attachment", p.LinkAttachment != "")
	attach("gif", "a GIF", p.GIF != nil)
	c.URL(p.LinkAttachment, "The link attachment must be a web address starting with http:// or https://", app.JoinPath(base, "linkAttachment")...)
	// Meta's Threads docs (Text attachments, from December 2025): more than 5 distinct links fail.
	links := map[string]bool{}
	for _, sp := range app.URLSpans(p.Text, true) {
		links[strings.ToLower(p.Text[sp[0]:sp[1]])] = true
	}
	if p.LinkAttachment != "" {
		links[strings.ToLower(p.LinkAttachment)] = true
	}
	if len(links) > maxLinks {
		c.Add(app.IssueTooBig, fmt.Sprintf("Threads allows 5 links in a post (this one has %d, counting the link attachment)", len(links)), app.JoinPath(base, "text")...)
	}
	c.NeedSomething(n, p.Text, m, p.GIF != nil)
}
