package app

// Post rules: what a post must satisfy beyond its schema, per network. checkPostRules is pure (no
// database): the posts service loads the team's accounts and the organization's uploads named by the
// payloads, calls it, and answers its issues as a 400.
//
// Where each rule lives:
//   - The contract's schema (api/openapi.json, validated by kin-openapi before the service runs):
//     types, enums, required keys, unknown keys, and the fixed bounds of the spec's payload table —
//     poll options 2–4 of 1–25 chars and 5–10080 minutes, thread ≤ 25 items of ≤ 25,000 chars, alt
//     text ≤ 1,000, Instagram tag coordinates 0–1, sponsors ≤ 2 of 1–30 chars, volumes 0–100, Bluesky
//     tags ≤ 8 / quoteUri at:// ≤ 512 / thumbnail ≤ 2,048 / videoAlt ≤ 10,000, YouTube language fields
//     ≤ 35, Pinterest title ≤ 100 / description ≤ 800 / ≤ 5 uploads, TikTok photoCoverIndex ≥ 0,
//     socialAccountTypes ≥ 1 item, firstComment's per-network maximum lengths.
//   - Here: what depends on other fields, on the team's accounts, on the uploads or on the clock:
//     socialAccountTypes ⇄ data; a connected account per network (and not awaiting reconnection, a
//     selected page/channel where the network needs one); Discord/Slack channelId and Pinterest
//     boardName among the account's channels, Reddit sr (a name; the subreddit's media rules when the
//     account lists it); uploads found in the organization and
//     suiting the network (kind, format, count, size, duration, dimensions, aspect ratio); text
//     limits as each network counts them (X weighted length, Bluesky graphemes, YouTube description
//     bytes, Threads emoji bytes, Mastodon URLs); something to publish per network; cross-field rules
//     (X poll without media, Threads poll/link/GIF, Instagram REEL/STORY media, Google Business
//     EVENT/OFFER/call to action, TikTok photo cover, Facebook native schedule time …); postDate not in
//     the past; firstComment only for networks of data.
//
// Per status: a DRAFT may be incomplete but not wrong. Rules that say something is missing (no
// text or media, a required video, a Reddit title or subreddit, an event's title and dates, a call to
// action URL, the selected page) and rules that only matter when publishing (an account awaiting
// reconnection, postDate in the past, Facebook's native schedule window) apply to SCHEDULED and REVIEW
// only. Rules that say something present is wrong (too long, too many, wrong kind, upload not found,
// unknown board or channel) and a network without a connected account apply to every status.
//
// Limits come from ../shared/networks.md (section numbers in the comments, "§n") and the spec's Limits
// table, which wins where they differ (Pinterest images JPEG/PNG). Sizes in MB are MiB (1 << 20 bytes);
// when an upload's duration or dimensions are unknown (nil) those checks are skipped.

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"

	"github.com/crier/crier/media"
)

// PostRuleInput is everything checkPostRules looks at.
type PostRuleInput struct {
	Data               *PostData
	SocialAccountTypes []Network
	Status             string // DRAFT | SCHEDULED | REVIEW (any other value is checked as a DRAFT)
	PostDate, Now      time.Time
	Accounts           map[Network]*SocialAccount // the team's live accounts (absent: not connected)
	Uploads            map[string]*Upload         // uploads of the organization named by the payloads (absent: not found)
	FirstComment       map[Network]string
}

// PostDateGrace is how far in the past a SCHEDULED or REVIEW postDate may be (clock skew, "publish now").
const PostDateGrace = time.Minute

const mib = 1 << 20

// Text limits of the main text (TextLength), per network.
var textLimits = map[Network]int{
	TikTok:         2200,  // §1 video title 2,200
	YouTube:        100,   // §2 title 1–100
	Instagram:      2200,  // §3 caption 2,200
	Facebook:       63206, // §4 63,206
	Twitter:        280,   // §5 280 weighted (premium: 25,000)
	Threads:        500,   // §6 500
	LinkedIn:       3000,  // §7 commentary 3,000
	Pinterest:      100,   // §8 title 100 (spec Limits)
	Reddit:         300,   // §9 title 300
	Mastodon:       500,   // §10 statuses.max_characters default 500
	Discord:        2000,  // §11 content 2,000
	Slack:          40000, // §12 text 40,000
	Bluesky:        300,   // §13 300 graphemes
	GoogleBusiness: 1500,  // §14 summary 1,500
	Snapchat:       160,   // §15 Spotlight description 160 (U)
}

// Further limits.
const (
	twitterPremiumLimit   = 25000 // §5 Premium long posts (U)
	twitterURLWeight      = 23    // §5 every URL counts 23
	tiktokPhotoTitleLimit = 90    // §1 photo title 90
	youtubeDescBytes      = 5000  // §2 description ≤ 5,000 bytes
	pinterestDescLimit    = 800   // spec Limits: description 800
	pinterestLinkLimit    = 2048  // §8 link ≤ 2,048
	pinterestAltLimit     = 500   // §8 alt text ≤ 500
	redditSelftextLimit   = 40000 // §9 selftext 40,000
	blueskyBytesLimit     = 3000  // §13 ≤ 3,000 bytes
	threadsMaxLinks       = 5     // Meta's Threads docs (not in networks.md): > 5 distinct links fail
	instagramHashtags     = 30    // §3
	instagramMentions     = 20    // §3
	snapchatTitleLimit    = 45    // §15 saved-story title (U)
	snapchatDescLimit     = 160   // §15 Spotlight description (U)
	fbNativeMinLead       = 10 * time.Minute
	fbNativeMaxLead       = 30 * 24 * time.Hour // schema: max 30 days in the future
)

// channelRequired: networks whose account publishes to a selected channel (set-channel). LinkedIn is
// not here: without a page it posts as the connected member (w_member_social). Instagram connected
// with Instagram Login is the account itself (see needsChannel).
var channelRequired = map[Network]string{
	Facebook:       "a Facebook page",
	Instagram:      "an Instagram business account",
	YouTube:        "a YouTube channel",
	GoogleBusiness: "a business location",
}

// TextLength answers how long text is as network n counts its main text, and the limit (the account
// matters for X: premium accounts write long posts). The composer shows it as a live counter.
func TextLength(n Network, text string, a *SocialAccount) (used, limit int) {
	limit = textLimits[n]
	switch n {
	case Twitter:
		return twitterWeightedLength(text), twitterLimit(a)
	case Bluesky:
		return uniseg.GraphemeClusterCount(text), limit
	case Threads:
		return threadsLength(text), limit
	case Mastodon:
		return mastodonLength(text), limit
	}
	return utf8.RuneCountInString(text), limit
}

func twitterLimit(a *SocialAccount) int {
	if a != nil && a.TwitterSubType != nil {
		switch *a.TwitterSubType {
		case "premium", "premium_plus":
			return twitterPremiumLimit
		}
	}
	return textLimits[Twitter]
}

// urlPattern finds URLs as X and Mastodon shorten them: http(s) URLs, and (X only) bare domains of
// common TLDs. An approximation of twitter-text's extractor (which knows every TLD).
var (
	urlWithScheme = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"]+`)
	urlBare       = regexp.MustCompile(`(?i)(?:^|[^\w@./-])((?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|edu|gov|info|biz|io|co|ai|app|dev|me|tv|xyz|ly|gg|shop|blog|news)(?::\d{1,5})?(?:/[^\s<>"]*)?)`)
)

// urlSpans answers the byte ranges of URLs in s (trailing punctuation excluded).
func urlSpans(s string, bare bool) [][2]int {
	var spans [][2]int
	for _, m := range urlWithScheme.FindAllStringIndex(s, -1) {
		spans = append(spans, [2]int{m[0], m[0] + len(trimURL(s[m[0]:m[1]]))})
	}
	if bare {
		for _, m := range urlBare.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2], m[3]
			inside := false
			for _, sp := range spans {
				if start < sp[1] && end > sp[0] {
					inside = true
				}
			}
			if !inside {
				spans = append(spans, [2]int{start, start + len(trimURL(s[start:end]))})
			}
		}
	}
	return spans
}

func trimURL(u string) string {
	return strings.TrimRight(u, ".,!?;:)]}'\"…")
}

// withoutURLs answers s with its URLs removed, and how many there were.
func withoutURLs(s string, bare bool) (string, int) {
	spans := urlSpans(s, bare)
	if len(spans) == 0 {
		return s, 0
	}
	cut := make([]bool, len(s))
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			cut[i] = true
		}
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if !cut[i] {
			b = append(b, s[i])
		}
	}
	return string(b), len(spans)
}

// twitterWeightedLength is twitter-text v3's weighted length: NFC-normalized text, URLs 23, emoji 2,
// code points in U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F and U+2032–U+2037 count 1, others 2 (§5).
func twitterWeightedLength(text string) int {
	if strings.TrimSpace(text) == "" {
		return 0 // twitter-text: blank text is empty
	}
	rest, urls := withoutURLs(norm.NFC.String(text), true)
	weight := urls * twitterURLWeight * 100
	g := uniseg.NewGraphemes(rest)
	for g.Next() {
		cluster := g.Str()
		if isEmoji(cluster) {
			weight += 200
			continue
		}
		for _, r := range cluster {
			weight += twitterRuneWeight(r)
		}
	}
	return weight / 100
}

func twitterRuneWeight(r rune) int {
	switch {
	case r <= 0x10FF, r >= 0x2000 && r <= 0x200D, r >= 0x2010 && r <= 0x201F, r >= 0x2032 && r <= 0x2037:
		return 100
	}
	return 200
}

// isEmoji reports whether a grapheme cluster is an emoji (pictographs, flags, keycaps, emoji
// presentation sequences).
func isEmoji(cluster string) bool {
	r, _ := utf8.DecodeRuneInString(cluster)
	if strings.ContainsRune(cluster, 0xFE0F) || strings.ContainsRune(cluster, 0x20E3) {
		return true
	}
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, // pictographs, emoticons, flags (regional indicators)
		r >= 0x2600 && r <= 0x27BF, // misc symbols, dingbats
		r >= 0x2B00 && r <= 0x2BFF, r >= 0x2300 && r <= 0x23FF:
		return true
	}
	return false
}

// threadsLength counts characters, emoji counting their UTF-8 byte length (§6).
func threadsLength(text string) int {
	n := 0
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		if c := g.Str(); isEmoji(c) {
			n += len(c)
		} else {
			n += utf8.RuneCountInString(c)
		}
	}
	return n
}

// mastodonLength counts characters, each http(s) URL counting 23 (§10 characters_reserved_per_url).
func mastodonLength(text string) int {
	rest, urls := withoutURLs(text, false)
	return utf8.RuneCountInString(rest) + urls*23
}

// ---------------------------------------------------------------------------------------------

type ruleCtx struct {
	in         PostRuleInput
	publishing bool // SCHEDULED or REVIEW: complete and publishable now
	issues     []Issue
}

func (c *ruleCtx) add(code, msg string, path ...any) {
	c.issues = append(c.issues, Issue{Code: code, Message: msg, Path: path})
}

// checkPostRules answers the issues of a post beyond its schema (nil when none).
func checkPostRules(in PostRuleInput) []Issue {
	c := &ruleCtx{in: in, publishing: in.Status == "SCHEDULED" || in.Status == "REVIEW"}
	c.targets()
	c.postDate()
	for _, n := range in.Data.Networks() {
		c.network(n)
	}
	c.firstComment()
	return c.issues
}

// targets: socialAccountTypes and data name the same networks, each with a connected account.
func (c *ruleCtx) targets() {
	listed := map[Network]bool{}
	for i, n := range c.in.SocialAccountTypes {
		if !n.Valid() {
			continue // the schema's enum
		}
		if listed[n] {
			c.add(IssueCustom, n.DisplayName()+" is listed twice", "socialAccountTypes", i)
			continue
		}
		listed[n] = true
		if c.in.Data.Of(n) == nil {
			c.add(IssueCustom, fmt.Sprintf("%s is chosen but data has no %s settings (data.%s)", n.DisplayName(), n.DisplayName(), n), "data", string(n))
		}
		a := c.in.Accounts[n]
		switch {
		case a == nil:
			c.add(IssueCustom, fmt.Sprintf("No %s account is connected to this team; connect one or remove %s from the post", n.DisplayName(), n.DisplayName()), "socialAccountTypes", i)
		case c.publishing && a.ReconnectRequiredAt != nil:
			c.add(IssueCustom, fmt.Sprintf("The %s account needs to be reconnected before this post can be scheduled; reconnect it or save the post as a draft", n.DisplayName()), "socialAccountTypes", i)
		case c.publishing && needsChannel(n, a) && (a.ProviderPageID == nil || *a.ProviderPageID == ""):
			c.add(IssueCustom, fmt.Sprintf("Choose %s for the %s account before scheduling (account settings, channel)", channelRequired[n], n.DisplayName()), "socialAccountTypes", i)
		}
	}
	for _, n := range c.in.Data.Networks() {
		if !listed[n] {
			c.add(IssueCustom, fmt.Sprintf("data has %s settings but %s is not in socialAccountTypes; add it or remove data.%s", n.DisplayName(), n.DisplayName(), n), "data", string(n))
		}
	}
}

func needsChannel(n Network, a *SocialAccount) bool {
	if _, ok := channelRequired[n]; !ok {
		return false
	}
	return !(n == Instagram && a.InstagramConnectionMethod != nil && *a.InstagramConnectionMethod == "INSTAGRAM")
}

func (c *ruleCtx) postDate() {
	if !c.publishing {
		return
	}
	if c.in.PostDate.IsZero() {
		c.add(IssueInvalidType, "Choose when to publish: a scheduled post needs a postDate", "postDate")
		return
	}
	if c.in.PostDate.Before(c.in.Now.Add(-PostDateGrace)) {
		c.add(IssueTooSmall, fmt.Sprintf("The publish time %s is in the past; choose a time from now on", c.in.PostDate.UTC().Format("2006-01-02 15:04 UTC")), "postDate")
	}
}

func (c *ruleCtx) firstComment() {
	for _, n := range Networks {
		text, ok := c.in.FirstComment[n]
		if !ok || strings.TrimSpace(text) == "" {
			continue
		}
		path := []any{"firstComment", string(n)}
		switch {
		case c.in.Data.Of(n) == nil:
			c.add(IssueCustom, fmt.Sprintf("A first comment for %s needs %s among the post's networks", n.DisplayName(), n.DisplayName()), path...)
		case n == Instagram && c.in.Data.Instagram.Type == "STORY", n == Facebook && c.in.Data.Facebook.Type == "STORY":
			c.add(IssueCustom, fmt.Sprintf("%s stories cannot be commented on: remove the first comment or post to the feed", n.DisplayName()), path...)
		}
	}
}

// ruleUploadIDs lists every upload the payloads name (media, carousel items, X thread posts), once
// each: the uploads the caller loads into PostRuleInput.Uploads.
func ruleUploadIDs(d *PostData) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ids []string) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	for _, n := range d.Networks() {
		p := d.Of(n)
		add(p.Uploads())
		switch n {
		case Twitter:
			add(d.Twitter.UploadIDs) // when mediaItems are given too (checked to agree)
			for _, t := range d.Twitter.Thread {
				add(t.UploadIDs)
			}
		case Facebook:
			add(d.Facebook.UploadIDs)
		case Threads:
			add(d.Threads.UploadIDs)
		case Instagram:
			add(d.Instagram.UploadIDs)
		}
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// Media.

// mediaRef is one upload a payload names, with where it is named.
type mediaRef struct {
	path []any
	up   *Upload
}

// kind of an upload as networks tell them apart: image, gif, video, document.
const (
	kImage = "image"
	kGIF   = "gif"
	kVideo = "video"
	kDoc   = "document"
)

func (r mediaRef) kind() string {
	switch r.up.Type {
	case media.KindVideo:
		return kVideo
	case media.KindDocument:
		return kDoc
	}
	if r.mime() == media.MIMEGIF {
		return kGIF
	}
	return kImage
}

func (r mediaRef) mime() string {
	if r.up.Mime == media.MIMEJPG {
		return media.MIMEJPEG
	}
	return r.up.Mime
}

var mimeNames = map[string]string{
	media.MIMEJPEG: "JPEG", media.MIMEPNG: "PNG", media.MIMEGIF: "GIF", media.MIMEMP4: "MP4",
	media.MIMEQuickTime: "MOV", media.MIMEPDF: "PDF",
}

func (r mediaRef) format() string {
	if n, ok := mimeNames[r.mime()]; ok {
		return n
	}
	return r.up.Mime
}

// mediaSet is a payload's media: the field that names them and the uploads found.
type mediaSet struct {
	field []any // path of the list (["data","X","uploadIds"])
	count int   // items named (found or not)
	refs  []mediaRef
}

func (m mediaSet) kinds() map[string]int {
	k := map[string]int{}
	for _, r := range m.refs {
		k[r.kind()]++
	}
	return k
}

// resolve looks the ids up: ids not found in the organization are issues.
func (c *ruleCtx) resolve(field []any, ids []string, itemPath func(i int) []any) mediaSet {
	m := mediaSet{field: field, count: len(ids)}
	for i, id := range ids {
		u := c.in.Uploads[id]
		p := itemPath(i)
		if u == nil || u.DeletedAt != nil {
			c.add(IssueCustom, fmt.Sprintf("Upload %q was not found in your media library", id), p...)
			continue
		}
		m.refs = append(m.refs, mediaRef{path: p, up: u})
	}
	return m
}

func join(base []any, more ...any) []any {
	out := make([]any, 0, len(base)+len(more))
	return append(append(out, base...), more...)
}

// listMedia resolves a plain uploadIds list at base+field.
func (c *ruleCtx) listMedia(base []any, field string, ids []string) mediaSet {
	fp := join(base, field)
	return c.resolve(fp, ids, func(i int) []any { return join(fp, i) })
}

// itemsOrIDs resolves mediaItems when given, else uploadIds (both at once must agree).
func (c *ruleCtx) itemsOrIDs(base []any, items []MediaItem, ids []string) mediaSet {
	if len(items) == 0 {
		return c.listMedia(base, "uploadIds", ids)
	}
	if len(ids) > 0 && !sameIDs(ids, mediaIDs(items, nil)) {
		c.add(IssueCustom, "Give the media either as mediaItems or as uploadIds, not two different lists", join(base, "uploadIds")...)
	}
	fp := join(base, "mediaItems")
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.UploadID
	}
	return c.resolve(fp, out, func(i int) []any { return join(fp, i, "uploadId") })
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
	v := float64(n) / mib
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
	case kGIF:
		return "GIF"
	case kDoc:
		return "document"
	}
	return k
}

// onlyKinds refuses uploads whose kind is not allowed; what says what the network takes.
func (c *ruleCtx) onlyKinds(n Network, m mediaSet, what string, allowed ...string) bool {
	ok := true
	for _, r := range m.refs {
		k := r.kind()
		good := false
		for _, a := range allowed {
			if a == k {
				good = true
			}
		}
		if !good {
			ok = false
			c.add(IssueCustom, fmt.Sprintf("%s takes %s; this upload is a %s", n.DisplayName(), what, noun(k)), r.path...)
		}
	}
	return ok
}

// formats refuses uploads of a kind whose format is not among mimes.
func (c *ruleCtx) formats(n Network, m mediaSet, k string, mimes ...string) {
	for _, r := range m.refs {
		if r.kind() != k && !(k == kImage && r.kind() == kGIF) {
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
			c.add(IssueCustom, fmt.Sprintf("%s accepts %s %ss only (this one is %s)", n.DisplayName(), strings.Join(names, " or "), noun(k), r.format()), r.path...)
		}
	}
}

// maxSize refuses uploads of kind k over max bytes.
func (c *ruleCtx) maxSize(n Network, m mediaSet, k string, max int64) {
	for _, r := range m.refs {
		if r.kind() == k && r.up.FileSize > max {
			c.add(IssueTooBig, fmt.Sprintf("%s accepts %ss up to %s (this one is %s)", n.DisplayName(), noun(k), mb(max), mb(r.up.FileSize)), r.path...)
		}
	}
}

func (c *ruleCtx) minSize(n Network, m mediaSet, k string, min int64) {
	for _, r := range m.refs {
		if r.kind() == k && r.up.FileSize < min {
			c.add(IssueTooSmall, fmt.Sprintf("%s needs %ss of at least %s (this one is %s)", n.DisplayName(), noun(k), mb(min), mb(r.up.FileSize)), r.path...)
		}
	}
}

// duration refuses videos outside [min, max] seconds (max 0: no maximum).
func (c *ruleCtx) duration(n Network, m mediaSet, min, max float64, what string) {
	for _, r := range m.refs {
		if r.kind() != kVideo || r.up.VideoLength == nil {
			continue
		}
		l := *r.up.VideoLength
		switch {
		case l < min:
			c.add(IssueTooSmall, fmt.Sprintf("%s needs %s of at least %s (this one is %s)", n.DisplayName(), what, dur(min), dur(l)), r.path...)
		case max > 0 && l > max:
			c.add(IssueTooBig, fmt.Sprintf("%s accepts %s up to %s (this one is %s)", n.DisplayName(), what, dur(max), dur(l)), r.path...)
		}
	}
}

func dims(r mediaRef) (w, h int, ok bool) {
	if r.up.Width == nil || r.up.Height == nil || *r.up.Width <= 0 || *r.up.Height <= 0 {
		return 0, 0, false
	}
	return *r.up.Width, *r.up.Height, true
}

// aspect refuses uploads of kind k whose width/height is outside [min, max] (1% tolerance).
func (c *ruleCtx) aspect(n Network, m mediaSet, k string, min, max float64, want string) {
	for _, r := range m.refs {
		w, h, ok := dims(r)
		if r.kind() != k || !ok {
			continue
		}
		ratio := float64(w) / float64(h)
		if ratio < min*0.99 || ratio > max*1.01 {
			c.add(IssueCustom, fmt.Sprintf("%s needs %ss with an aspect ratio of %s (this one is %d×%d)", n.DisplayName(), noun(k), want, w, h), r.path...)
		}
	}
}

// sides refuses uploads of kind k with a side outside [min, max] pixels (0: no bound).
func (c *ruleCtx) sides(n Network, m mediaSet, k string, min, max int) {
	for _, r := range m.refs {
		w, h, ok := dims(r)
		if r.kind() != k || !ok {
			continue
		}
		if min > 0 && (w < min || h < min) {
			c.add(IssueTooSmall, fmt.Sprintf("%s needs %ss of at least %d×%d pixels (this one is %d×%d)", n.DisplayName(), noun(k), min, min, w, h), r.path...)
		} else if max > 0 && (w > max || h > max) {
			c.add(IssueTooBig, fmt.Sprintf("%s accepts %ss up to %d pixels a side (this one is %d×%d)", n.DisplayName(), noun(k), max, w, h), r.path...)
		}
	}
}

// count refuses a media list of fewer than min or more than max items.
func (c *ruleCtx) count(n Network, m mediaSet, min, max int, what string) bool {
	switch {
	case m.count < min:
		c.add(IssueTooSmall, fmt.Sprintf("%s needs %s", n.DisplayName(), what), m.field...)
		return false
	case max >= 0 && m.count > max:
		c.add(IssueTooBig, fmt.Sprintf("%s takes %s (this post has %d)", n.DisplayName(), what, m.count), m.field...)
		return false
	}
	return true
}

// aloneKinds refuses a video (or GIF, or document) beside other media when the network wants it alone.
func (c *ruleCtx) aloneKinds(n Network, m mediaSet, msg string, kinds ...string) bool {
	if m.count < 2 {
		return true
	}
	k := m.kinds()
	for _, a := range kinds {
		if k[a] > 0 {
			c.add(IssueCustom, n.DisplayName()+" "+msg, m.field...)
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------------
// Text.

func (c *ruleCtx) textMax(n Network, path []any, used, limit int, unit, what string) {
	if used > limit {
		c.add(IssueTooBig, fmt.Sprintf("%s allows %s %s (this %s counts %s)", n.DisplayName(), commas(limit), unit, what, commas(used)), path...)
	}
}

func commas(v int) string {
	s := fmt.Sprint(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// needSomething: a network with neither text nor media has nothing to publish.
func (c *ruleCtx) needSomething(n Network, text string, m mediaSet, other ...bool) {
	if !c.publishing || !blank(text) || m.count > 0 {
		return
	}
	for _, o := range other {
		if o {
			return
		}
	}
	c.add(IssueCustom, fmt.Sprintf("The %s post is empty: add text or media", n.DisplayName()), "data", string(n))
}

// required: a field that must be set for publishing.
func (c *ruleCtx) required(v string, msg string, path ...any) bool {
	if !blank(v) {
		return true
	}
	if c.publishing {
		c.add(IssueInvalidType, msg, path...)
	}
	return false
}

var (
	hashtagPattern = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+`)
	mentionPattern = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_.])@[A-Za-z0-9_.]+`)
	httpURL        = regexp.MustCompile(`(?i)^https?://[^\s/$.?#][^\s]*$`)
)

func (c *ruleCtx) url(v, msg string, path ...any) {
	if v != "" && !httpURL.MatchString(v) {
		c.add(IssueInvalidString, msg, path...)
	}
}

func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ---------------------------------------------------------------------------------------------
// Networks.

func (c *ruleCtx) network(n Network) {
	base := []any{"data", string(n)}
	d := c.in.Data
	switch n {
	case Twitter:
		c.twitter(base, d.Twitter)
	case Pinterest:
		c.pinterest(base, d.Pinterest)
	case Facebook:
		c.facebook(base, d.Facebook)
	case Instagram:
		c.instagram(base, d.Instagram)
	case Threads:
		c.threads(base, d.Threads)
	case TikTok:
		c.tiktok(base, d.TikTok)
	case LinkedIn:
		c.linkedin(base, d.LinkedIn)
	case YouTube:
		c.youtube(base, d.YouTube)
	case Reddit:
		c.reddit(base, d.Reddit)
	case Discord, Slack:
		c.chat(n, base, d.Of(n).(*ChatPayload))
	case Mastodon:
		c.mastodon(base, d.Mastodon)
	case Bluesky:
		c.bluesky(base, d.Bluesky)
	case GoogleBusiness:
		c.googleBusiness(base, d.GoogleBusiness)
	case Snapchat:
		c.snapchat(base, d.Snapchat)
	}
}

// §5 X: 280 weighted (25,000 premium); up to 4 images, or 1 GIF, or 1 video, never mixed; images
// JPEG/PNG ≤ 5 MB, GIF ≤ 15 MB, video MP4/MOV ≤ 512 MB, 0.5–140 s (premium: no 140 s cap).
func (c *ruleCtx) twitter(base []any, p *TwitterPayload) {
	n := Twitter
	acct := c.in.Accounts[n]
	limit := twitterLimit(acct)
	used := twitterWeightedLength(p.Text)
	if p.TweetStorm {
		// The text is split into a storm of at most 25 posts.
		c.textMax(n, join(base, "text"), used, limit*25, "characters in a tweet storm of up to 25 posts", "text")
	} else {
		c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	}
	m := c.itemsOrIDs(base, p.MediaItems, p.UploadIDs)
	c.twitterMedia(m, limit > textLimits[Twitter])
	if p.Poll != nil {
		if m.count > 0 {
			c.add(IssueCustom, "An X post with a poll cannot have media; remove the poll or the media", join(base, "poll")...)
		}
		if c.publishing && blank(p.Text) {
			c.add(IssueInvalidType, "An X poll needs a question: write it in the text", join(base, "text")...)
		}
	}
	c.needSomething(n, p.Text, m, p.QuoteTweetID != "", p.Poll != nil)
	for i, t := range p.Thread {
		tb := join(base, "thread", i)
		c.textMax(n, join(tb, "text"), twitterWeightedLength(t.Text), limit, "characters", "post of the thread")
		tm := c.listMedia(tb, "uploadIds", t.UploadIDs)
		c.twitterMedia(tm, limit > textLimits[Twitter])
		if c.publishing && blank(t.Text) && tm.count == 0 {
			c.add(IssueCustom, fmt.Sprintf("Post %d of the X thread is empty: add text or media, or remove it", i+2), tb...)
		}
	}
}

func (c *ruleCtx) twitterMedia(m mediaSet, premium bool) {
	n := Twitter
	if !c.onlyKinds(n, m, "images, GIFs and videos", kImage, kGIF, kVideo) {
		return
	}
	k := m.kinds()
	switch {
	case k[kVideo]+k[kGIF] > 0 && m.count > 1:
		c.add(IssueTooBig, "X takes up to 4 images, or 1 GIF, or 1 video per post — never mixed", m.field...)
	case m.count > 4:
		c.add(IssueTooBig, fmt.Sprintf("X takes up to 4 images per post (this post has %d)", m.count), m.field...)
	}
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG, media.MIMEGIF)
	c.maxSize(n, m, kImage, 5*mib)
	c.maxSize(n, m, kGIF, 15*mib)
	c.maxSize(n, m, kVideo, 512*mib)
	max := 140.0
	if premium {
		max = 0
	}
	c.duration(n, m, 0.5, max, "videos")
}

// §8 and the spec's Limits: media required; images JPEG/PNG < 20 MB; carousel 2–5 images of identical
// dimensions; video MP4/MOV 4 s–15 min ≤ 2 GB, alone; title 100, description 800, link 2,048, alt 500.
func (c *ruleCtx) pinterest(base []any, p *PinterestPayload) {
	n := Pinterest
	c.textMax(n, join(base, "text"), runes(p.Text), textLimits[n], "characters in a pin title", "title")
	c.textMax(n, join(base, "description"), runes(p.Description), pinterestDescLimit, "characters in a pin description", "description")
	c.textMax(n, join(base, "link"), runes(p.Link), pinterestLinkLimit, "characters in a link", "link")
	c.textMax(n, join(base, "altText"), runes(p.AltText), pinterestAltLimit, "characters of alt text", "alt text")
	c.url(p.Link, "The pin's link must be a web address starting with http:// or https://", join(base, "link")...)
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.publishing {
		c.count(n, m, 1, -1, "an image or a video: pins cannot be text only")
	}
	if c.onlyKinds(n, m, "images and videos", kImage, kGIF, kVideo) {
		if c.aloneKinds(n, m, "takes one video alone, or 2 to 5 images for a carousel", kVideo) && c.count(n, m, 0, 5, "2 to 5 images in a carousel") && m.count > 1 {
			c.sameDims(n, m)
		}
	}
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG)
	c.maxSize(n, m, kImage, 20*mib-1) // "under 20 MB"
	c.maxSize(n, m, kVideo, 2048*mib)
	c.duration(n, m, 4, 15*60, "videos")
	c.board(base, p.BoardName)
}

func (c *ruleCtx) sameDims(n Network, m mediaSet) {
	var fw, fh int
	for i, r := range m.refs {
		w, h, ok := dims(r)
		if !ok {
			continue
		}
		if fw == 0 {
			fw, fh = w, h
			continue
		}
		if w != fw || h != fh {
			c.add(IssueCustom, fmt.Sprintf("%s carousel images must all have the same dimensions (%d×%d, but image %d is %d×%d)", n.DisplayName(), fw, fh, i+1, w, h), r.path...)
		}
	}
}

// board: the boardName must be one of the account's boards, case-insensitively (spec error table).
func (c *ruleCtx) board(base []any, name string) {
	a := c.in.Accounts[Pinterest]
	if !c.required(name, "Choose the Pinterest board to pin to", join(base, "boardName")...) || a == nil {
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
	c.add(IssueCustom, fmt.Sprintf("The Pinterest account has no board named %q%s; use an existing board's name or refresh the account's boards", name, listing("boards", names)), join(base, "boardName")...)
}

// listing shows a few of the account's boards or channels in a message.
func listing(label string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) > 5 {
		names = append(names[:5:5], "…")
	}
	return " (" + label + ": " + strings.Join(names, ", ") + ")"
}

// §4 Facebook: 63,206; POST up to 10 photos or one video, never mixed, photos JPEG/PNG/GIF < 4 MB;
// REEL one video 3–90 s, 9:16 (U); STORY one photo or video; link only on POST.
func (c *ruleCtx) facebook(base []any, p *FacebookPayload) {
	n := Facebook
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	m := c.itemsOrIDs(base, p.MediaItems, p.UploadIDs)
	c.onlyKinds(n, m, "photos and videos", kImage, kGIF, kVideo)
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG, media.MIMEGIF)
	c.maxSize(n, m, kImage, 4*mib)
	c.maxSize(n, m, kGIF, 4*mib)
	switch p.Type {
	case "REEL":
		if c.publishing || m.count > 1 {
			c.count(n, m, 1, 1, "one video for a reel")
		}
		c.onlyKinds(n, m, "a video for a reel", kVideo)
		c.duration(n, m, 3, 90, "reels")
		c.aspect(n, m, kVideo, 9.0/16, 9.0/16, "9:16 (vertical) for reels")
	case "STORY":
		if c.publishing || m.count > 1 {
			c.count(n, m, 1, 1, "one photo or video for a story")
		}
	default:
		if c.aloneKinds(n, m, "takes one video alone, or up to 10 photos", kVideo) {
			c.count(n, m, 0, 10, "up to 10 photos")
		}
		c.needSomething(n, p.Text, m, p.Link != "")
	}
	if p.Type == "REEL" || p.Type == "STORY" {
		if p.Link != "" {
			c.add(IssueCustom, "Facebook links can only be added to feed posts (type POST)", join(base, "link")...)
		}
		if p.MediaTitle != "" {
			c.add(IssueCustom, "mediaTitle is the title of a video in a feed post (type POST)", join(base, "mediaTitle")...)
		}
	}
	c.url(p.Link, "The link must be a web address starting with http:// or https://", join(base, "link")...)
	if p.NativeScheduleTime != "" {
		path := join(base, "nativeScheduleTime")
		t, ok := parseTime(p.NativeScheduleTime)
		if !ok {
			c.add(IssueInvalidDate, "nativeScheduleTime must be a date and time like 2026-06-01T10:00:00Z", path...)
		} else if c.publishing {
			from := c.in.Now
			if c.in.PostDate.After(from) {
				from = c.in.PostDate
			}
			switch {
			case t.Before(from.Add(fbNativeMinLead)):
				c.add(IssueTooSmall, "Facebook's own scheduling time must be at least 10 minutes after the post is sent to Facebook (its postDate)", path...)
			case t.After(from.Add(fbNativeMaxLead)):
				c.add(IssueTooBig, "Facebook schedules posts at most 30 days ahead of the postDate", path...)
			}
		}
	}
}

// §3 Instagram: at least one media; POST: one image/video or a 2–10 item carousel; REEL: one video
// MP4/MOV 3 s–15 min ≤ 300 MB; STORY: one image or video (video ≤ 60 s, ≤ 100 MB); images JPEG ≤ 8 MB,
// aspect 4:5–1.91:1 (skipped with autoFitImage/autoCropImage); caption 2,200, 30 hashtags, 20 mentions.
// The width range 320–1440 is not enforced: Meta scales images into it (so do Threads, §6).
func (c *ruleCtx) instagram(base []any, p *InstagramPayload) {
	n := Instagram
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters in a caption", "caption")
	if h := len(hashtagPattern.FindAllString(p.Text, -1)); h > instagramHashtags {
		c.add(IssueTooBig, fmt.Sprintf("Instagram allows 30 hashtags in a caption (this one has %d)", h), join(base, "text")...)
	}
	if at := len(mentionPattern.FindAllString(p.Text, -1)); at > instagramMentions {
		c.add(IssueTooBig, fmt.Sprintf("Instagram allows 20 @mentions in a caption (this one has %d)", at), join(base, "text")...)
	}
	var m mediaSet
	if len(p.CarouselItems) > 0 {
		if len(p.UploadIDs) > 0 {
			c.add(IssueCustom, "Give the media either as carouselItems or as uploadIds, not both", join(base, "uploadIds")...)
		}
		fp := join(base, "carouselItems")
		ids := make([]string, len(p.CarouselItems))
		for i, it := range p.CarouselItems {
			ids[i] = it.UploadID
		}
		m = c.resolve(fp, ids, func(i int) []any { return join(fp, i, "uploadId") })
	} else {
		m = c.listMedia(base, "uploadIds", p.UploadIDs)
	}
	if c.publishing {
		c.count(n, m, 1, -1, "an image or a video: Instagram posts cannot be text only")
	}
	c.onlyKinds(n, m, "images and videos", kImage, kGIF, kVideo)
	c.formats(n, m, kImage, media.MIMEJPEG)
	c.maxSize(n, m, kImage, 8*mib)
	c.formats(n, m, kVideo, media.MIMEMP4, media.MIMEQuickTime)
	switch p.Type {
	case "REEL":
		c.count(n, m, 0, 1, "one video for a reel")
		c.onlyKinds(n, m, "a video for a reel", kVideo)
		c.maxSize(n, m, kVideo, 300*mib)
		c.duration(n, m, 3, 15*60, "reels")
	case "STORY":
		c.count(n, m, 0, 1, "one image or video for a story")
		c.maxSize(n, m, kVideo, 100*mib)
		c.duration(n, m, 0, 60, "story videos")
	default:
		if len(p.CarouselItems) > 0 {
			c.count(n, m, 2, 10, "2 to 10 items in a carousel")
		} else {
			c.count(n, m, 0, 10, "up to 10 items in a carousel")
		}
		if !p.AutoFitImage && !p.AutoCropImage {
			c.aspect(n, m, kImage, 4.0/5, 1.91, "4:5 to 1.91:1 (or turn on autoFitImage or autoCropImage)")
		}
		c.maxSize(n, m, kVideo, 300*mib)
		c.duration(n, m, 3, 15*60, "videos")
	}
	if p.TrialParams != nil && p.Type != "REEL" {
		c.add(IssueCustom, "Trial reels need type REEL", join(base, "trialParams")...)
	}
}

// §6 Threads: 500 (emoji count their UTF-8 bytes); carousel 2–20; images JPEG/PNG ≤ 8 MB, aspect
// ≤ 10:1; video MP4/MOV ≤ 1 GB, ≤ 5 min, width ≤ 1920; poll, link attachment and GIF on text posts.
func (c *ruleCtx) threads(base []any, p *ThreadsPayload) {
	n := Threads
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	m := c.itemsOrIDs(base, p.MediaItems, p.UploadIDs)
	c.onlyKinds(n, m, "images and videos", kImage, kGIF, kVideo)
	c.count(n, m, 0, 20, "up to 20 items in a carousel")
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG)
	c.maxSize(n, m, kImage, 8*mib)
	c.aspect(n, m, kImage, 0.1, 10, "at most 10:1")
	c.maxSize(n, m, kVideo, 1024*mib)
	c.duration(n, m, 0, 5*60, "videos")
	for _, r := range m.refs {
		if w, _, ok := dims(r); ok && r.kind() == kVideo && w > 1920 {
			c.add(IssueTooBig, fmt.Sprintf("Threads accepts videos up to 1920 pixels wide (this one is %d)", w), r.path...)
		}
	}
	if p.Poll != nil {
		pp := join(base, "poll")
		if blank(p.Poll.OptionA) {
			c.add(IssueTooSmall, "A Threads poll needs option A", join(pp, "optionA")...)
		}
		if blank(p.Poll.OptionB) {
			c.add(IssueTooSmall, "A Threads poll needs option B", join(pp, "optionB")...)
		}
		if blank(p.Poll.OptionC) && !blank(p.Poll.OptionD) {
			c.add(IssueCustom, "Fill option C before option D", join(pp, "optionD")...)
		}
	}
	attach := func(field, what string, set bool) {
		if set && m.count > 0 {
			c.add(IssueCustom, fmt.Sprintf("A Threads post with %s cannot have media; remove one of them", what), join(base, field)...)
		}
	}
	attach("poll", "a poll", p.Poll != nil)
	attach("linkAttachment", "a link attachment", p.LinkAttachment != "")
	attach("gif", "a GIF", p.GIF != nil)
	c.url(p.LinkAttachment, "The link attachment must be a web address starting with http:// or https://", join(base, "linkAttachment")...)
	// Meta's Threads docs (Text attachments, from December 2025): more than 5 distinct links fail.
	links := map[string]bool{}
	for _, sp := range urlSpans(p.Text, true) {
		links[strings.ToLower(p.Text[sp[0]:sp[1]])] = true
	}
	if p.LinkAttachment != "" {
		links[strings.ToLower(p.LinkAttachment)] = true
	}
	if len(links) > threadsMaxLinks {
		c.add(IssueTooBig, fmt.Sprintf("Threads allows 5 links in a post (this one has %d, counting the link attachment)", len(links)), join(base, "text")...)
	}
	c.needSomething(n, p.Text, m, p.GIF != nil)
}

// §1 TikTok: no text-only post; VIDEO: exactly one MP4/MOV video ≤ 4 GB, 3 s–10 min, sides 360–4096;
// IMAGE: 1–35 JPEG photos ≤ 20 MB, never with video; title 2,200 (photo title 90).
func (c *ruleCtx) tiktok(base []any, p *TikTokPayload) {
	n := TikTok
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if p.Type == "IMAGE" {
		c.textMax(n, join(base, "text"), runes(p.Text), tiktokPhotoTitleLimit, "characters in a photo post's title", "title")
		if c.publishing || m.count > 35 {
			c.count(n, m, 1, 35, "1 to 35 photos for a photo post")
		}
		c.onlyKinds(n, m, "photos only in a photo post (type IMAGE); post a video with type VIDEO", kImage, kGIF)
		c.formats(n, m, kImage, media.MIMEJPEG)
		c.maxSize(n, m, kImage, 20*mib)
		if m.count > 0 && p.PhotoCoverIndex >= m.count {
			c.add(IssueTooBig, fmt.Sprintf("photoCoverIndex %d is past the last photo: choose 0 to %d", p.PhotoCoverIndex, m.count-1), join(base, "photoCoverIndex")...)
		}
	} else {
		used, limit := TextLength(n, p.Text, nil)
		c.textMax(n, join(base, "text"), used, limit, "characters", "text")
		if c.publishing || m.count > 1 {
			c.count(n, m, 1, 1, "exactly one video (for photos, use type IMAGE)")
		}
		c.onlyKinds(n, m, "a video (for photos, use type IMAGE)", kVideo)
		c.maxSize(n, m, kVideo, 4096*mib)
		c.duration(n, m, 3, 10*60, "videos")
		c.sides(n, m, kVideo, 360, 4096)
	}
	if p.IsBrandContent && p.Privacy == "SELF_ONLY" {
		c.add(IssueCustom, "TikTok does not allow branded content to be private (SELF_ONLY); choose another privacy", join(base, "privacy")...)
	}
}

// §7 LinkedIn: 3,000; images JPG/PNG/GIF < 36,152,320 pixels, 2–20 for a multi-image post; one video
// MP4 3 s–30 min, 75 KB–500 MB, aspect 1:2.4–2.4:1; one document ≤ 100 MB; never mixed; link or media.
func (c *ruleCtx) linkedin(base []any, p *LinkedInPayload) {
	n := LinkedIn
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.aloneKinds(n, m, "takes one video or one document alone, or up to 20 images", kVideo, kDoc) {
		c.count(n, m, 0, 20, "up to 20 images")
	}
	c.formats(n, m, kVideo, media.MIMEMP4)
	c.maxSize(n, m, kVideo, 500*mib)
	c.minSize(n, m, kVideo, 75*1024)
	c.duration(n, m, 3, 30*60, "videos")
	c.aspect(n, m, kVideo, 1/2.4, 2.4, "1:2.4 to 2.4:1")
	c.maxSize(n, m, kDoc, 100*mib)
	for _, r := range m.refs {
		if w, h, ok := dims(r); ok && (r.kind() == kImage || r.kind() == kGIF) && w*h >= 36152320 {
			c.add(IssueTooBig, fmt.Sprintf("LinkedIn accepts images under 36,152,320 pixels (this one is %d×%d)", w, h), r.path...)
		}
	}
	if p.Link != "" && m.count > 0 {
		c.add(IssueCustom, "A LinkedIn post shows either a link preview or media, not both; remove the link or the media", join(base, "link")...)
	}
	c.url(p.Link, "The link must be a web address starting with http:// or https://", join(base, "link")...)
	c.needSomething(n, p.Text, m, p.Link != "")
}

// §2 YouTube: exactly one video; title 100, no < or >; description 5,000 bytes; SHORT ≤ 3 min,
// vertical or square; VIDEO ≤ 12 h, ≤ 256 GB.
func (c *ruleCtx) youtube(base []any, p *YouTubePayload) {
	n := YouTube
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters in a title", "title")
	if strings.ContainsAny(p.Text, "<>") {
		c.add(IssueInvalidString, "YouTube titles cannot contain < or >", join(base, "text")...)
	}
	c.textMax(n, join(base, "description"), len(p.Description), youtubeDescBytes, "bytes in a description (accented letters take 2, emoji 4)", "description")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.publishing || m.count > 1 {
		c.count(n, m, 1, 1, "exactly one video")
	}
	c.onlyKinds(n, m, "a video", kVideo)
	c.maxSize(n, m, kVideo, 256*1024*mib)
	if p.Type == "VIDEO" {
		c.duration(n, m, 0, 12*3600, "videos")
	} else {
		c.duration(n, m, 0, 180, "Shorts")
		for _, r := range m.refs {
			if w, h, ok := dims(r); ok && r.kind() == kVideo && w > h {
				c.add(IssueCustom, fmt.Sprintf("YouTube Shorts are vertical or square (this video is %d×%d); use type VIDEO for a landscape video", w, h), r.path...)
			}
		}
	}
}

var subredditPattern = regexp.MustCompile(`^(?:/?[ru]/)?[A-Za-z0-9_]{2,21}$`)

// §9 Reddit: title 1–300, selftext 40,000; one video or 1–20 images (a gallery), images ≤ 20 MB,
// video ≤ 1 GB, ≤ 15 min (U); a link post has no media; the subreddit's own media rules.
func (c *ruleCtx) reddit(base []any, p *RedditPayload) {
	n := Reddit
	srPath := join(base, "sr")
	if c.required(p.SR, "Choose the subreddit to post to (sr)", srPath...) && !subredditPattern.MatchString(strings.TrimSpace(p.SR)) {
		c.add(IssueInvalidString, fmt.Sprintf("%q is not a subreddit name: write it like r/marketing or marketing", p.SR), srPath...)
	}
	c.required(p.Text, "A Reddit post needs a title (text)", join(base, "text")...)
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters in a title", "title")
	c.textMax(n, join(base, "description"), runes(p.Description), redditSelftextLimit, "characters in a post body", "body")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.onlyKinds(n, m, "images and videos", kImage, kGIF, kVideo) && c.aloneKinds(n, m, "takes one video alone, or up to 20 images for a gallery", kVideo) {
		c.count(n, m, 0, 20, "up to 20 images in a gallery")
	}
	c.maxSize(n, m, kImage, 20*mib)
	c.maxSize(n, m, kGIF, 20*mib)
	c.maxSize(n, m, kVideo, 1024*mib)
	c.duration(n, m, 0, 15*60, "videos")
	if p.Link != "" && m.count > 0 {
		c.add(IssueCustom, "A Reddit post is either a link or media, not both; remove the link or the media", join(base, "link")...)
	}
	c.url(p.Link, "The link must be a web address starting with http:// or https://", join(base, "link")...)
	// The subreddit's own rules, when the account lists it (§9: media allowed varies).
	if a := c.in.Accounts[n]; a != nil && m.count > 0 {
		name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(p.SR), "/"), "r/")
		for _, ch := range a.Channels {
			if !strings.EqualFold(ch.ID, name) || ch.Metadata == nil {
				continue
			}
			k, md := m.kinds(), ch.Metadata
			switch {
			case k[kVideo] > 0 && md.AllowVideos != nil && !*md.AllowVideos:
				c.add(IssueCustom, fmt.Sprintf("r/%s does not allow videos", ch.ID), m.field...)
			case k[kImage]+k[kGIF] > 0 && md.AllowImages != nil && !*md.AllowImages:
				c.add(IssueCustom, fmt.Sprintf("r/%s does not allow images", ch.ID), m.field...)
			case m.count > 1 && md.AllowGalleries != nil && !*md.AllowGalleries:
				c.add(IssueCustom, fmt.Sprintf("r/%s does not allow galleries: post one image", ch.ID), m.field...)
			}
		}
	}
}

// §11 Discord (2,000; ≤ 10 attachments) and §12 Slack (40,000): channelId one of the account's
// channels; any files.
func (c *ruleCtx) chat(n Network, base []any, p *ChatPayload) {
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "message")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if n == Discord {
		c.count(n, m, 0, 10, "up to 10 attachments")
	}
	c.needSomething(n, p.Text, m)
	path := join(base, "channelId")
	a := c.in.Accounts[n]
	if !c.required(p.ChannelID, fmt.Sprintf("Choose the %s channel to post to", n.DisplayName()), path...) || a == nil {
		return
	}
	var names []string
	for _, ch := range a.Channels {
		if ch.ID == p.ChannelID {
			return
		}
		if ch.Name != nil {
			names = append(names, "#"+*ch.Name)
		}
	}
	c.add(IssueCustom, fmt.Sprintf("Channel %q is not one of the %s account's channels%s; choose one the bot can post to or refresh the channels",
		p.ChannelID, n.DisplayName(), listing("channels", names)), path...)
}

// §10 Mastodon: 500 with URLs 23 (spoiler included); ≤ 4 attachments, a video or GIF alone; images
// ≤ 16 MB, videos ≤ 99 MB.
func (c *ruleCtx) mastodon(base []any, p *MastodonPayload) {
	n := Mastodon
	used, limit := TextLength(n, p.Text, nil)
	used += runes(p.Spoiler)
	what := "text"
	if p.Spoiler != "" {
		what = "text with its content warning"
	}
	c.textMax(n, join(base, "text"), used, limit, "characters", what)
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.onlyKinds(n, m, "images, GIFs and videos", kImage, kGIF, kVideo) && c.aloneKinds(n, m, "takes one video or GIF alone, or up to 4 images", kVideo, kGIF) {
		c.count(n, m, 0, 4, "up to 4 attachments")
	}
	c.maxSize(n, m, kImage, 16*mib)
	c.maxSize(n, m, kGIF, 16*mib)
	c.maxSize(n, m, kVideo, 99*mib)
	c.needSomething(n, p.Text, m)
}

// §13 Bluesky: 300 graphemes and 3,000 bytes; up to 4 images JPEG/PNG ≤ 1,000,000 bytes, or one video
// MP4/MOV ≤ 100 MB, ≤ 3 min; one embed: media, a link card or a quote (media with a quote is allowed).
func (c *ruleCtx) bluesky(base []any, p *BlueskyPayload) {
	n := Bluesky
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	c.textMax(n, join(base, "text"), len(p.Text), blueskyBytesLimit, "bytes (accented letters take 2, emoji 4 or more)", "text")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.onlyKinds(n, m, "images and videos", kImage, kGIF, kVideo) && c.aloneKinds(n, m, "takes one video alone, or up to 4 images", kVideo) {
		c.count(n, m, 0, 4, "up to 4 images")
	}
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG)
	c.maxSize(n, m, kImage, 1000000)
	c.maxSize(n, m, kVideo, 100*mib)
	c.duration(n, m, 0, 180, "videos")
	if p.ExternalURL != "" && (m.count > 0 || p.QuoteURI != "") {
		c.add(IssueCustom, "A Bluesky post shows one embed: a link card cannot go with media or a quote", join(base, "externalUrl")...)
	}
	c.needSomething(n, p.Text, m, p.ExternalURL != "", p.QuoteURI != "")
}

// §14 Google Business: summary 1,500; at most one photo JPEG/PNG 10 KB–5 MB, ≥ 250×250, no video;
// EVENT and OFFER need a title and a start and end; a call to action needs a URL except CALL.
func (c *ruleCtx) googleBusiness(base []any, p *GoogleBusinessPayload) {
	n := GoogleBusiness
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	c.onlyKinds(n, m, "photos (videos cannot be posted through its API)", kImage, kGIF)
	c.count(n, m, 0, 1, "one photo per post")
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG)
	c.maxSize(n, m, kImage, 5*mib)
	c.minSize(n, m, kImage, 10*1024)
	c.sides(n, m, kImage, 250, 0)

	topic := p.TopicType
	if topic == "" {
		topic = "STANDARD"
	}
	if topic == "EVENT" || topic == "OFFER" {
		what := map[string]string{"EVENT": "An event", "OFFER": "An offer"}[topic]
		c.required(p.EventTitle, what+" post needs a title (eventTitle)", join(base, "eventTitle")...)
		start := c.gbDate(p.EventStartDate, what+" post needs a start date (eventStartDate)", join(base, "eventStartDate"))
		end := c.gbDate(p.EventEndDate, what+" post needs an end date (eventEndDate)", join(base, "eventEndDate"))
		switch {
		case !start.IsZero() && !end.IsZero() && !end.After(start):
			c.add(IssueCustom, "The end date must be after the start date", join(base, "eventEndDate")...)
		case c.publishing && !end.IsZero() && !c.in.PostDate.IsZero() && end.Before(c.in.PostDate):
			c.add(IssueCustom, "The end date is before the post would be published", join(base, "eventEndDate")...)
		}
	} else {
		for _, f := range []struct{ name, v string }{{"eventTitle", p.EventTitle}, {"eventStartDate", p.EventStartDate}, {"eventEndDate", p.EventEndDate}} {
			if f.v != "" {
				c.add(IssueCustom, fmt.Sprintf("%s is for EVENT and OFFER posts (this one is %s)", f.name, topic), join(base, f.name)...)
			}
		}
	}
	if topic != "OFFER" {
		for _, f := range []struct{ name, v string }{{"offerCouponCode", p.OfferCouponCode}, {"offerRedeemOnlineUrl", p.OfferRedeemOnlineURL}, {"offerTermsConditions", p.OfferTermsConditions}} {
			if f.v != "" {
				c.add(IssueCustom, fmt.Sprintf("%s is for OFFER posts (this one is %s)", f.name, topic), join(base, f.name)...)
			}
		}
	}
	c.url(p.OfferRedeemOnlineURL, "The offer's link must be a web address starting with http:// or https://", join(base, "offerRedeemOnlineUrl")...)
	ctaURL := join(base, "callToActionUrl")
	switch p.CallToActionType {
	case "":
		if p.CallToActionURL != "" {
			c.add(IssueCustom, "Choose the button (callToActionType) this URL belongs to", join(base, "callToActionType")...)
		}
	case "CALL":
		if p.CallToActionURL != "" {
			c.add(IssueCustom, "A Call button dials the business's phone number: remove the URL", ctaURL...)
		}
	default:
		if c.required(p.CallToActionURL, "The button needs a URL (callToActionUrl)", ctaURL...) {
			c.url(p.CallToActionURL, "The button's URL must be a web address starting with http:// or https://", ctaURL...)
		}
	}
	c.needSomething(n, p.Text, m, topic == "EVENT" && p.EventTitle != "", topic == "OFFER" && p.EventTitle != "")
}

func (c *ruleCtx) gbDate(v, missing string, path []any) time.Time {
	if !c.required(v, missing, path...) {
		return time.Time{}
	}
	t, ok := parseTime(v)
	if !ok {
		c.add(IssueInvalidDate, "Write the date and time like 2026-06-01T18:00:00Z", path...)
	}
	return t
}

// §15 Snapchat (U): exactly one media; image JPEG/PNG ≤ 20 MB; video MP4 ≤ 500 MB, 5–60 s, 9:16;
// Spotlight is video only, description 160; saved stories have a title of 45.
func (c *ruleCtx) snapchat(base []any, p *SnapchatPayload) {
	n := Snapchat
	used, limit := TextLength(n, p.Text, nil)
	c.textMax(n, join(base, "text"), used, limit, "characters", "text")
	c.textMax(n, join(base, "description"), runes(p.Description), snapchatDescLimit, "characters in a description", "description")
	m := c.listMedia(base, "uploadIds", p.UploadIDs)
	if c.publishing || m.count > 1 {
		c.count(n, m, 1, 1, "exactly one image or video: Snapchat posts cannot be text only")
	}
	if p.Type == "SPOTLIGHT" {
		c.onlyKinds(n, m, "a video for Spotlight", kVideo)
	} else {
		c.onlyKinds(n, m, "an image or a video", kImage, kGIF, kVideo)
	}
	c.formats(n, m, kImage, media.MIMEJPEG, media.MIMEPNG)
	c.maxSize(n, m, kImage, 20*mib)
	c.formats(n, m, kVideo, media.MIMEMP4)
	c.maxSize(n, m, kVideo, 500*mib)
	c.duration(n, m, 5, 60, "videos")
	c.aspect(n, m, kVideo, 9.0/16, 9.0/16, "9:16 (vertical)")
	if p.Type == "SAVED_STORY" {
		c.required(p.Title, "A saved story needs a title", join(base, "title")...)
	}
	c.textMax(n, join(base, "title"), runes(p.Title), snapchatTitleLimit, "characters in a saved story's title", "title")
}
