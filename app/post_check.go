package app

// The post checking toolkit: what a network's Check (network/<name>/rules.go) uses to add issues —
// media resolved against the organization's library and checked for kind, format, count, size,
// duration and dimensions, text limits, required fields and URLs. Messages name the network the way
// people know it (DisplayName).

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crier/crier/media"
)

// MiB is a mebibyte: sizes in MB in the networks' limits are MiB (1 << 20 bytes).
const MiB = 1 << 20

// PostCheck collects the issues of a post beyond its schema; a network's Check adds to it with its
// helpers (counts, formats, sizes, durations, text limits).
type PostCheck struct {
	in         PostRuleInput
	publishing bool // SCHEDULED or REVIEW: complete and publishable now
	issues     []Issue
}

// Publishing reports whether the post must be complete and publishable now (SCHEDULED or REVIEW):
// rules that say something is missing apply only then.
func (c *PostCheck) Publishing() bool { return c.publishing }

// Account is the team's live account on n (nil: not connected).
func (c *PostCheck) Account(n Network) *SocialAccount { return c.in.Accounts[n] }

// PostDate is when the post is to be published (zero: not given).
func (c *PostCheck) PostDate() time.Time { return c.in.PostDate }

// Now is the time the post is checked at.
func (c *PostCheck) Now() time.Time { return c.in.Now }

// Add adds an issue at path.
func (c *PostCheck) Add(code, msg string, path ...any) {
	c.issues = append(c.issues, Issue{Code: code, Message: msg, Path: path})
}

// Rules of the media helpers, on their issues (Issue.Rule) for pages that word them.
const (
	RuleKind        = "media.kind"         // Want: the kinds the network takes ("image, GIF"); Media: the upload's
	RuleFormat      = "media.format"       // Want: the formats; Got: the upload's
	RuleSizeMax     = "media.size.max"     // Want, Got: sizes in words
	RuleSizeMin     = "media.size.min"     //
	RuleDurationMax = "media.duration.max" // Want, Got: durations in words
	RuleDurationMin = "media.duration.min" //
	RuleAspect      = "media.aspect"       // Want: the ratios; Got: width×height
	RuleSidesMax    = "media.sides.max"    // Want: pixels a side; Got: width×height
	RuleSidesMin    = "media.sides.min"    //
	RuleCountMax    = "media.count.max"    // Want: the count in words; Got: how many
	RuleCountMin    = "media.count.min"    //
	RuleAlone       = "media.alone"        // Want: the message's words
)

// addRule adds an issue of a media rule with its data.
func (c *PostCheck) addRule(code, msg, rule, kind, want, got string, path []any) {
	c.issues = append(c.issues, Issue{Code: code, Message: msg, Path: path, Rule: rule, Media: kind, Want: want, Got: got})
}

// Offer attaches a fix to the issues added since mark (len of the issues before the check):
// setting the network's field key to value (label says it to the user).
func (c *PostCheck) Offer(mark int, key, value, label string) {
	for i := mark; i < len(c.issues); i++ {
		c.issues[i].Fix = &IssueFix{Key: key, Value: value, Label: label}
	}
}

// Mark is the number of issues so far (for Offer).
func (c *PostCheck) Mark() int { return len(c.issues) }

// JoinPath is base followed by more, in a new slice.
func JoinPath(base []any, more ...any) []any {
	out := make([]any, 0, len(base)+len(more))
	return append(append(out, base...), more...)
}

// ---------------------------------------------------------------------------------------------
// Media.

// MediaRef is one upload a payload names, with where it is named.
type MediaRef struct {
	Path   []any
	Upload *Upload
}

// Kinds of uploads as networks tell them apart.
const (
	MediaImage    = "image"
	MediaGIF      = "gif"
	MediaVideo    = "video"
	MediaDocument = "document"
)

// Kind is the upload's kind: MediaImage, MediaGIF, MediaVideo or MediaDocument.
func (r MediaRef) Kind() string {
	switch r.Upload.Type {
	case media.KindVideo:
		return MediaVideo
	case media.KindDocument:
		return MediaDocument
	}
	if r.mime() == media.MIMEGIF {
		return MediaGIF
	}
	return MediaImage
}

func (r MediaRef) mime() string {
	if r.Upload.Mime == media.MIMEJPG {
		return media.MIMEJPEG
	}
	return r.Upload.Mime
}

var mimeNames = map[string]string{
	media.MIMEJPEG: "JPEG", media.MIMEPNG: "PNG", media.MIMEGIF: "GIF", media.MIMEMP4: "MP4",
	media.MIMEQuickTime: "MOV", media.MIMEPDF: "PDF",
}

func (r MediaRef) format() string {
	if n, ok := mimeNames[r.mime()]; ok {
		return n
	}
	return r.Upload.Mime
}

// Dims are the upload's width and height (ok false when unknown: dimension checks are skipped).
func (r MediaRef) Dims() (w, h int, ok bool) {
	if r.Upload.Width == nil || r.Upload.Height == nil || *r.Upload.Width <= 0 || *r.Upload.Height <= 0 {
		return 0, 0, false
	}
	return *r.Upload.Width, *r.Upload.Height, true
}

// MediaSet is a payload's media: the field that names them and the uploads found.
type MediaSet struct {
	Field []any // path of the list (["data","X","uploadIds"])
	Count int   // items named (found or not)
	Refs  []MediaRef
}

// Kinds counts the uploads found per kind.
func (m MediaSet) Kinds() map[string]int {
	k := map[string]int{}
	for _, r := range m.Refs {
		k[r.Kind()]++
	}
	return k
}

// Resolve looks the ids up: ids not found in the organization are issues.
func (c *PostCheck) Resolve(field []any, ids []string, itemPath func(i int) []any) MediaSet {
	m := MediaSet{Field: field, Count: len(ids)}
	for i, id := range ids {
		u := c.in.Uploads[id]
		p := itemPath(i)
		if u == nil || u.DeletedAt != nil {
			c.Add(IssueCustom, fmt.Sprintf("Upload %q was not found in your media library", id), p...)
			continue
		}
		m.Refs = append(m.Refs, MediaRef{Path: p, Upload: u})
	}
	return m
}

// ListMedia resolves a plain uploadIds list at base+field.
func (c *PostCheck) ListMedia(base []any, field string, ids []string) MediaSet {
	fp := JoinPath(base, field)
	return c.Resolve(fp, ids, func(i int) []any { return JoinPath(fp, i) })
}

// ItemsOrIDs resolves mediaItems when given, else uploadIds (both at once must agree).
func (c *PostCheck) ItemsOrIDs(base []any, items []MediaItem, ids []string) MediaSet {
	if len(items) == 0 {
		return c.ListMedia(base, "uploadIds", ids)
	}
	if len(ids) > 0 && !sameIDs(ids, MediaIDs(items, nil)) {
		c.Add(IssueCustom, "Give the media either as mediaItems or as uploadIds, not two different lists", JoinPath(base, "uploadIds")...)
	}
	fp := JoinPath(base, "mediaItems")
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.UploadID
	}
	return c.Resolve(fp, out, func(i int) []any { return JoinPath(fp, i, "uploadId") })
}

func sameIDs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func mb(n int64) string {
	if n >= 1000000 && n%1000000 == 0 { // a limit given in decimal megabytes (Bluesky's 1,000,000 bytes)
		return fmt.Sprintf("%d MB", n/1000000)
	}
	v := float64(n) / MiB
	if v >= 1024 {
		return trimFloat(v/1024) + " GB"
	}
	if v < 1 {
		return fmt.Sprintf("%d KB", (n+1023)/1024)
	}
	return trimFloat(v) + " MB"
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

func dur(sec float64) string {
	if sec < 60 {
		return trimFloat(sec) + " s"
	}
	total := int(math.Round(sec))
	h, m, s := total/3600, total%3600/60, total%60
	switch {
	case h > 0 && m == 0 && s == 0:
		return fmt.Sprintf("%d h", h)
	case h > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case s == 0:
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d min %d s", m, s)
}

// noun names a kind for messages.
func noun(k string) string {
	switch k {
	case MediaGIF:
		return "GIF"
	case MediaDocument:
		return "document"
	}
	return k
}

// OnlyKinds refuses uploads whose kind is not allowed; what says what the network takes.
func (c *PostCheck) OnlyKinds(n Network, m MediaSet, what string, allowed ...string) bool {
	ok := true
	takes := make([]string, len(allowed))
	for i, a := range allowed {
		takes[i] = noun(a)
	}
	for _, r := range m.Refs {
		k := r.Kind()
		good := false
		for _, a := range allowed {
			if a == k {
				good = true
			}
		}
		if !good {
			ok = false
			c.addRule(IssueCustom, fmt.Sprintf("%s takes %s; this upload is a %s", n.DisplayName(), what, noun(k)), RuleKind, noun(k), strings.Join(takes, ", "), "", r.Path)
		}
	}
	return ok
}

// Formats refuses uploads of a kind whose format is not among mimes.
func (c *PostCheck) Formats(n Network, m MediaSet, k string, mimes ...string) {
	for _, r := range m.Refs {
		if r.Kind() != k && !(k == MediaImage && r.Kind() == MediaGIF) {
			continue
		}
		good := false
		names := make([]string, 0, len(mimes))
		for _, mm := range mimes {
			names = append(names, mimeNames[mm])
			if r.mime() == mm {
				good = true
			}
		}
		if !good {
			c.addRule(IssueCustom, fmt.Sprintf("%s accepts %s %ss only (this one is %s)", n.DisplayName(), strings.Join(names, " or "), noun(k), r.format()),
				RuleFormat, noun(k), strings.Join(names, " or "), r.format(), r.Path)
		}
	}
}

// MaxSize refuses uploads of kind k over max bytes.
func (c *PostCheck) MaxSize(n Network, m MediaSet, k string, max int64) {
	for _, r := range m.Refs {
		if r.Kind() == k && r.Upload.FileSize > max {
			c.addRule(IssueTooBig, fmt.Sprintf("%s accepts %ss up to %s (this one is %s)", n.DisplayName(), noun(k), mb(max), mb(r.Upload.FileSize)),
				RuleSizeMax, noun(k), mb(max), mb(r.Upload.FileSize), r.Path)
		}
	}
}

// MinSize refuses uploads of kind k under min bytes.
func (c *PostCheck) MinSize(n Network, m MediaSet, k string, min int64) {
	for _, r := range m.Refs {
		if r.Kind() == k && r.Upload.FileSize < min {
			c.addRule(IssueTooSmall, fmt.Sprintf("%s needs %ss of at least %s (this one is %s)", n.DisplayName(), noun(k), mb(min), mb(r.Upload.FileSize)),
				RuleSizeMin, noun(k), mb(min), mb(r.Upload.FileSize), r.Path)
		}
	}
}

// Duration refuses videos outside [min, max] seconds (max 0: no maximum).
func (c *PostCheck) Duration(n Network, m MediaSet, min, max float64, what string) {
	for _, r := range m.Refs {
		if r.Kind() != MediaVideo || r.Upload.VideoLength == nil {
			continue
		}
		l := *r.Upload.VideoLength
		switch {
		case l < min:
			c.addRule(IssueTooSmall, fmt.Sprintf("%s needs %s of at least %s (this one is %s)", n.DisplayName(), what, dur(min), dur(l)), RuleDurationMin, what, dur(min), dur(l), r.Path)
		case max > 0 && l > max:
			c.addRule(IssueTooBig, fmt.Sprintf("%s accepts %s up to %s (this one is %s)", n.DisplayName(), what, dur(max), dur(l)), RuleDurationMax, what, dur(max), dur(l), r.Path)
		}
	}
}

// Aspect refuses uploads of kind k whose width/height is outside [min, max] (1% tolerance).
func (c *PostCheck) Aspect(n Network, m MediaSet, k string, min, max float64, want string) {
	for _, r := range m.Refs {
		w, h, ok := r.Dims()
		if r.Kind() != k || !ok {
			continue
		}
		ratio := float64(w) / float64(h)
		if ratio < min*0.99 || ratio > max*1.01 {
			c.addRule(IssueCustom, fmt.Sprintf("%s needs %ss with an aspect ratio of %s (this one is %d×%d)", n.DisplayName(), noun(k), want, w, h),
				RuleAspect, noun(k), want, fmt.Sprintf("%d×%d", w, h), r.Path)
		}
	}
}

// Sides refuses uploads of kind k with a side outside [min, max] pixels (0: no bound).
func (c *PostCheck) Sides(n Network, m MediaSet, k string, min, max int) {
	for _, r := range m.Refs {
		w, h, ok := r.Dims()
		if r.Kind() != k || !ok {
			continue
		}
		if min > 0 && (w < min || h < min) {
			c.addRule(IssueTooSmall, fmt.Sprintf("%s needs %ss of at least %d×%d pixels (this one is %d×%d)", n.DisplayName(), noun(k), min, min, w, h),
				RuleSidesMin, noun(k), fmt.Sprintf("%d×%d pixels", min, min), fmt.Sprintf("%d×%d", w, h), r.Path)
		} else if max > 0 && (w > max || h > max) {
			c.addRule(IssueTooBig, fmt.Sprintf("%s accepts %ss up to %d pixels a side (this one is %d×%d)", n.DisplayName(), noun(k), max, w, h),
				RuleSidesMax, noun(k), fmt.Sprintf("%d pixels a side", max), fmt.Sprintf("%d×%d", w, h), r.Path)
		}
	}
}

// Count refuses a media list of fewer than min or more than max items (max < 0: no maximum).
func (c *PostCheck) Count(n Network, m MediaSet, min, max int, what string) bool {
	switch {
	case m.Count < min:
		c.addRule(IssueTooSmall, fmt.Sprintf("%s needs %s", n.DisplayName(), what), RuleCountMin, "", what, fmt.Sprint(m.Count), m.Field)
		return false
	case max >= 0 && m.Count > max:
		c.addRule(IssueTooBig, fmt.Sprintf("%s takes %s (this post has %d)", n.DisplayName(), what, m.Count), RuleCountMax, "", what, fmt.Sprint(m.Count), m.Field)
		return false
	}
	return true
}

// AloneKinds refuses a video (or GIF, or document) beside other media when the network wants it alone.
func (c *PostCheck) AloneKinds(n Network, m MediaSet, msg string, kinds ...string) bool {
	if m.Count < 2 {
		return true
	}
	k := m.Kinds()
	for _, a := range kinds {
		if k[a] > 0 {
			c.addRule(IssueCustom, n.DisplayName()+" "+msg, RuleAlone, a, msg, "", m.Field)
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------------
// Text and fields.

// TextMax refuses a text of used units over limit; unit and what name them in the message.
func (c *PostCheck) TextMax(n Network, path []any, used, limit int, unit, what string) {
	if used > limit {
		c.Add(IssueTooBig, fmt.Sprintf("%s allows %s %s (this %s counts %s)", n.DisplayName(), commas(limit), unit, what, commas(used)), path...)
	}
}

func commas(v int) string {
	s := fmt.Sprint(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Runes counts the characters (code points) of s.
func Runes(s string) int { return utf8.RuneCountInString(s) }

// Blank reports whether s has nothing but white space.
func Blank(s string) bool { return strings.TrimSpace(s) == "" }

// NeedSomething: a network with neither text nor media (nor any of other) has nothing to publish.
func (c *PostCheck) NeedSomething(n Network, text string, m MediaSet, other ...bool) {
	if !c.publishing || !Blank(text) || m.Count > 0 {
		return
	}
	for _, o := range other {
		if o {
			return
		}
	}
	c.Add(IssueCustom, fmt.Sprintf("The %s post is empty: add text or media", n.DisplayName()), "data", string(n))
}

// Required: a field that must be set for publishing.
func (c *PostCheck) Required(v string, msg string, path ...any) bool {
	if !Blank(v) {
		return true
	}
	if c.publishing {
		c.Add(IssueInvalidType, msg, path...)
	}
	return false
}

var httpURL = regexp.MustCompile(`(?i)^https?://[^\s/$.?#][^\s]*$`)

// URL refuses a value that is set but not an http(s) URL.
func (c *PostCheck) URL(v, msg string, path ...any) {
	if v != "" && !httpURL.MatchString(v) {
		c.Add(IssueInvalidString, msg, path...)
	}
}

// ParseTime reads a date and time as payloads give them (RFC 3339, or without a zone).
func ParseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Listing shows a few of the account's boards or channels in a message.
func Listing(label string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) > 5 {
		names = append(names[:5:5], "…")
	}
	return " (" + label + ": " + strings.Join(names, ", ") + ")"
}
