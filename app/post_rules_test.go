package app

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media"
)

// Tests of checkPostRules and TextLength: every row of the spec's payload table passes with a
// sensible payload and fails on each rule, with the exact path and code.

var ruleNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func rptr[T any](v T) *T { return &v }

// ruleUploads is the organization's media library of the tests.
var ruleUploads = func() map[string]*Upload {
	img := func(mime string, w, h int, size int64) *Upload {
		return &Upload{Type: media.KindImage, Mime: mime, Width: rptr(w), Height: rptr(h), FileSize: size}
	}
	vid := func(mime string, w, h int, size int64, sec float64) *Upload {
		return &Upload{Type: media.KindVideo, Mime: mime, Width: rptr(w), Height: rptr(h), FileSize: size, VideoLength: rptr(sec)}
	}
	m := map[string]*Upload{
		"jpg":      img(media.MIMEJPEG, 1080, 1080, 500<<10),
		"jpg2":     img(media.MIMEJPG, 1080, 1080, 400<<10),
		"jpg45":    img(media.MIMEJPEG, 1080, 1350, 600<<10),
		"jpgOther": img(media.MIMEJPEG, 800, 600, 300<<10),
		"jpgWide":  img(media.MIMEJPEG, 2000, 1000, 700<<10),
		"jpgBig":   img(media.MIMEJPEG, 4000, 3000, 25<<20),
		"jpg1_5":   img(media.MIMEJPEG, 1500, 1500, 1500000),
		"jpg6":     img(media.MIMEJPEG, 1500, 1500, 6<<20),
		"jpgTiny":  img(media.MIMEJPEG, 200, 200, 5<<10),
		"jpgHuge":  img(media.MIMEJPEG, 8000, 6000, 9<<20),
		"png":      img(media.MIMEPNG, 1000, 1000, 300<<10),
		"gif":      img(media.MIMEGIF, 480, 480, 2<<20),
		"mp4":      vid(media.MIMEMP4, 1080, 1920, 20<<20, 30),
		"mp4Wide":  vid(media.MIMEMP4, 1920, 1080, 50<<20, 60),
		"mp4_100s": vid(media.MIMEMP4, 1080, 1920, 50<<20, 100),
		"mp4Long":  vid(media.MIMEMP4, 1080, 1920, 200<<20, 20*60),
		"mp4_4min": vid(media.MIMEMP4, 1080, 1920, 30<<20, 240),
		"mp4Short": vid(media.MIMEMP4, 1080, 1920, 1<<20, 2),
		"mp4Small": vid(media.MIMEMP4, 320, 240, 1<<20, 10),
		"mp4Big":   vid(media.MIMEMP4, 1080, 1920, 600<<20, 30),
		"mp4Wide4": vid(media.MIMEMP4, 3000, 1000, 30<<20, 30),
		"mov":      vid(media.MIMEQuickTime, 1080, 1920, 10<<20, 20),
		"pdf":      {Type: media.KindDocument, Mime: media.MIMEPDF, FileSize: 1 << 20},
		"deleted":  {Type: media.KindImage, Mime: media.MIMEJPEG, FileSize: 1000, DeletedAt: rptr(ruleNow)},
	}
	for id, u := range m {
		u.ID = id
	}
	return m
}()

// ruleAccounts are the team's accounts, each with what its network needs.
func ruleAccounts() map[Network]*SocialAccount {
	ch := func(id, name string) Channel { return Channel{ID: id, Name: rptr(name)} }
	out := map[Network]*SocialAccount{}
	for _, n := range Networks {
		out[n] = &SocialAccount{ID: "acct-" + string(n), Type: n}
	}
	out[Twitter].TwitterSubType = rptr("none")
	out[Facebook].ProviderPageID = rptr("page1")
	out[Instagram].ProviderPageID = rptr("ig1")
	out[YouTube].ProviderPageID = rptr("yt1")
	out[GoogleBusiness].ProviderPageID = rptr("accounts/1/locations/2")
	out[Pinterest].Channels = []Channel{ch("b1", "Recipes"), ch("b2", "Travel Ideas")}
	out[Discord].Channels = []Channel{ch("d1", "general"), ch("d2", "news")}
	out[Slack].Channels = []Channel{ch("C1", "marketing")}
	out[Reddit].Channels = []Channel{
		{ID: "marketing", Metadata: &ChannelMetadata{AllowImages: rptr(true), AllowVideos: rptr(true), AllowGalleries: rptr(true)}},
		{ID: "textonly", Metadata: &ChannelMetadata{AllowImages: rptr(false), AllowVideos: rptr(false), AllowGalleries: rptr(false)}},
	}
	return out
}

func dataFor(n Network, p Payload) *PostData {
	d := &PostData{}
	switch n {
	case Twitter:
		d.Twitter = p.(*TwitterPayload)
	case Pinterest:
		d.Pinterest = p.(*PinterestPayload)
	case Facebook:
		d.Facebook = p.(*FacebookPayload)
	case Instagram:
		d.Instagram = p.(*InstagramPayload)
	case Threads:
		d.Threads = p.(*ThreadsPayload)
	case TikTok:
		d.TikTok = p.(*TikTokPayload)
	case LinkedIn:
		d.LinkedIn = p.(*LinkedInPayload)
	case YouTube:
		d.YouTube = p.(*YouTubePayload)
	case Reddit:
		d.Reddit = p.(*RedditPayload)
	case Discord:
		d.Discord = p.(*ChatPayload)
	case Slack:
		d.Slack = p.(*ChatPayload)
	case Mastodon:
		d.Mastodon = p.(*MastodonPayload)
	case Bluesky:
		d.Bluesky = p.(*BlueskyPayload)
	case GoogleBusiness:
		d.GoogleBusiness = p.(*GoogleBusinessPayload)
	case Snapchat:
		d.Snapchat = p.(*SnapchatPayload)
	}
	return d
}

// post is a SCHEDULED post for one network, an hour ahead.
func post(n Network, p Payload) PostRuleInput {
	return PostRuleInput{
		Data: dataFor(n, p), SocialAccountTypes: []Network{n}, Status: "SCHEDULED",
		PostDate: ruleNow.Add(time.Hour), Now: ruleNow, Accounts: ruleAccounts(), Uploads: ruleUploads,
	}
}

func draft(in PostRuleInput) PostRuleInput { in.Status = "DRAFT"; return in }

func withStatus(s string, in PostRuleInput) PostRuleInput { in.Status = s; return in }

func withAccount(n Network, f func(a *SocialAccount), in PostRuleInput) PostRuleInput {
	f(in.Accounts[n])
	return in
}

type wantIssue struct {
	Code string
	Path []any
}

func (w wantIssue) String() string { return fmt.Sprintf("%s %v", w.Code, w.Path) }

func iss(code string, path ...any) wantIssue { return wantIssue{code, path} }

// d is a path under data.NETWORK.
func d(n Network, rest ...any) []any { return append([]any{"data", string(n)}, rest...) }

func at(code string, n Network, rest ...any) wantIssue { return iss(code, d(n, rest...)...) }

type ruleCase struct {
	name string
	in   PostRuleInput
	want []wantIssue
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, tc := range cases {
		require.False(t, seen[tc.name], "duplicate case name %q", tc.name)
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			issues := checkPostRules(tc.in)
			got := make([]string, 0, len(issues))
			for _, i := range issues {
				require.NotEmpty(t, i.Message, "issue %v has no message", i.Path)
				require.NotContains(t, i.Message, "%!", "badly formatted message: %s", i.Message)
				got = append(got, wantIssue{i.Code, i.Path}.String())
			}
			want := make([]string, 0, len(tc.want))
			for _, w := range tc.want {
				want = append(want, w.String())
			}
			sort.Strings(got)
			sort.Strings(want)
			require.Equal(t, want, got, "issues: %+v", issues)
		})
	}
}

var (
	a281   = strings.Repeat("a", 281)
	a300   = strings.Repeat("a", 300)
	ids    = func(v ...string) []string { return v }
	repeat = func(id string, k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = id
		}
		return out
	}
)

func TestPostRulesTwitter(t *testing.T) {
	t.Parallel()
	n := Twitter
	tw := func(p TwitterPayload) PostRuleInput { return post(n, &p) }
	premium := func(in PostRuleInput) PostRuleInput {
		return withAccount(n, func(a *SocialAccount) { a.TwitterSubType = rptr("premium") }, in)
	}
	runRuleCases(t, []ruleCase{
		{"text and two images", tw(TwitterPayload{Text: "Hello", UploadIDs: ids("jpg", "png")}), nil},
		{"four images", tw(TwitterPayload{UploadIDs: ids("jpg", "png", "jpg2", "jpg45")}), nil},
		{"one video", tw(TwitterPayload{Text: "Watch", UploadIDs: ids("mp4")}), nil},
		{"one gif", tw(TwitterPayload{UploadIDs: ids("gif")}), nil},
		{"media items", tw(TwitterPayload{Text: "Hi", MediaItems: []MediaItem{{UploadID: "jpg", AltText: rptr("a cat")}}}), nil},
		{"poll without media", tw(TwitterPayload{Text: "Which?", Poll: &TwitterPoll{Options: []string{"a", "b"}, DurationMinutes: 60}}), nil},
		{"280 characters", tw(TwitterPayload{Text: strings.Repeat("a", 280)}), nil},
		{"281 characters", tw(TwitterPayload{Text: a281}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"URL counts 23", tw(TwitterPayload{Text: strings.Repeat("a", 257) + " https://example.com/" + strings.Repeat("p", 100)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"URL shortened fits", tw(TwitterPayload{Text: strings.Repeat("a", 256) + " https://example.com/" + strings.Repeat("p", 100)}), nil},
		{"CJK counts 2", tw(TwitterPayload{Text: strings.Repeat("日", 141)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"premium writes long posts", premium(tw(TwitterPayload{Text: strings.Repeat("a", 5000)})), nil},
		{"premium 25,000", premium(tw(TwitterPayload{Text: strings.Repeat("a", 25001)})), []wantIssue{at(IssueTooBig, n, "text")}},
		{"tweet storm splits long text", tw(TwitterPayload{Text: strings.Repeat("word ", 300), TweetStorm: true}), nil},
		{"five images", tw(TwitterPayload{UploadIDs: ids("jpg", "png", "jpg2", "jpg45", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", tw(TwitterPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"gif with an image", tw(TwitterPayload{UploadIDs: ids("gif", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"document", tw(TwitterPayload{Text: "x", UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 5 MB", tw(TwitterPayload{UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 140 s", tw(TwitterPayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"premium video over 140 s", premium(tw(TwitterPayload{UploadIDs: ids("mp4Long")})), nil},
		{"video over 512 MB", tw(TwitterPayload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"poll with media", tw(TwitterPayload{Text: "Q", UploadIDs: ids("jpg"), Poll: &TwitterPoll{Options: []string{"a", "b"}, DurationMinutes: 60}}), []wantIssue{at(IssueCustom, n, "poll")}},
		{"poll without question", tw(TwitterPayload{Poll: &TwitterPoll{Options: []string{"a", "b"}, DurationMinutes: 60}}), []wantIssue{at(IssueInvalidType, n, "text")}},
		{"empty", tw(TwitterPayload{}), []wantIssue{at(IssueCustom, n)}},
		{"empty draft", draft(tw(TwitterPayload{})), nil},
		{"quote without text", tw(TwitterPayload{QuoteTweetID: "123"}), nil},
		{"media item not found", tw(TwitterPayload{MediaItems: []MediaItem{{UploadID: "nope"}}}), []wantIssue{at(IssueCustom, n, "mediaItems", 0, "uploadId")}},
		{"mediaItems and other uploadIds", tw(TwitterPayload{UploadIDs: ids("png"), MediaItems: []MediaItem{{UploadID: "jpg"}}}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"thread", tw(TwitterPayload{Text: "1/", Thread: []TwitterTweet{{Text: "2/"}, {UploadIDs: ids("jpg")}}}), nil},
		{"thread post too long", tw(TwitterPayload{Text: "1/", Thread: []TwitterTweet{{Text: a281}}}), []wantIssue{at(IssueTooBig, n, "thread", 0, "text")}},
		{"thread post empty", tw(TwitterPayload{Text: "1/", Thread: []TwitterTweet{{Text: "2/"}, {}}}), []wantIssue{at(IssueCustom, n, "thread", 1)}},
		{"thread post media mixed", tw(TwitterPayload{Text: "1/", Thread: []TwitterTweet{{UploadIDs: ids("mp4", "jpg")}}}), []wantIssue{at(IssueTooBig, n, "thread", 0, "uploadIds")}},
		{"thread upload not found", tw(TwitterPayload{Text: "1/", Thread: []TwitterTweet{{UploadIDs: ids("nope")}}}), []wantIssue{at(IssueCustom, n, "thread", 0, "uploadIds", 0)}},
	})
}

func TestPostRulesTwitterMessage(t *testing.T) {
	t.Parallel()
	issues := checkPostRules(post(Twitter, &TwitterPayload{Text: strings.Repeat("a", 291)}))
	require.Equal(t, []Issue{{Code: IssueTooBig, Message: "X allows 280 characters (this text counts 291)", Path: []any{"data", "TWITTER", "text"}}}, issues)
}

func TestPostRulesPinterest(t *testing.T) {
	t.Parallel()
	n := Pinterest
	pin := func(p PinterestPayload) PostRuleInput {
		if p.BoardName == "" {
			p.BoardName = "Recipes"
		}
		return post(n, &p)
	}
	runRuleCases(t, []ruleCase{
		{"image on a board", pin(PinterestPayload{Text: "Pasta", Description: "Quick dinner", UploadIDs: ids("jpg"), Link: "https://example.com/pasta"}), nil},
		{"board name any case", pin(PinterestPayload{BoardName: "  travel ideas ", UploadIDs: ids("png")}), nil},
		{"carousel of five", pin(PinterestPayload{UploadIDs: ids("jpg", "jpg2", "jpg", "jpg2", "jpg")}), nil},
		{"video", pin(PinterestPayload{UploadIDs: ids("mp4")}), nil},
		{"unknown board", pin(PinterestPayload{BoardName: "Cars", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "boardName")}},
		{"account without boards", withAccount(n, func(a *SocialAccount) { a.Channels = nil }, pin(PinterestPayload{UploadIDs: ids("jpg")})), []wantIssue{at(IssueCustom, n, "boardName")}},
		{"blank board", pin(PinterestPayload{BoardName: " ", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidType, n, "boardName")}},
		{"no media", pin(PinterestPayload{Text: "Pasta"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no media draft", draft(pin(PinterestPayload{Text: "Pasta"})), nil},
		{"gif", pin(PinterestPayload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image of 20 MB or more", pin(PinterestPayload{UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"carousel dimensions differ", pin(PinterestPayload{UploadIDs: ids("jpg", "jpgOther")}), []wantIssue{at(IssueCustom, n, "uploadIds", 1)}},
		{"video with an image", pin(PinterestPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"video under 4 s", pin(PinterestPayload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 15 min", pin(PinterestPayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", pin(PinterestPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"title 101", pin(PinterestPayload{Text: strings.Repeat("t", 101), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"six images", pin(PinterestPayload{UploadIDs: repeat("jpg", 6)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"description 801", pin(PinterestPayload{Description: strings.Repeat("d", 801), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"alt text 501", pin(PinterestPayload{AltText: strings.Repeat("d", 501), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "altText")}},
		{"link not a URL", pin(PinterestPayload{Link: "example", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidString, n, "link")}},
	})
}

func TestPostRulesFacebook(t *testing.T) {
	t.Parallel()
	n := Facebook
	fb := func(p FacebookPayload) PostRuleInput { return post(n, &p) }
	inHours := func(h float64) string {
		return ruleNow.Add(time.Hour + time.Duration(h*float64(time.Hour))).Format(time.RFC3339)
	}
	runRuleCases(t, []ruleCase{
		{"text", fb(FacebookPayload{Text: "Hello"}), nil},
		{"link", fb(FacebookPayload{Link: "https://example.com"}), nil},
		{"photos", fb(FacebookPayload{Text: "Album", UploadIDs: ids("jpg", "png", "gif")}), nil},
		{"video", fb(FacebookPayload{UploadIDs: ids("mp4Wide"), MediaTitle: "Launch"}), nil},
		{"reel", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("mp4")}), nil},
		{"story", fb(FacebookPayload{Type: "STORY", UploadIDs: ids("jpg")}), nil},
		{"native schedule", fb(FacebookPayload{Text: "x", NativeScheduleTime: inHours(2)}), nil},
		{"empty", fb(FacebookPayload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 63,207", fb(FacebookPayload{Text: strings.Repeat("a", 63207)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"eleven photos", fb(FacebookPayload{UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with a photo", fb(FacebookPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"photo over 4 MB", fb(FacebookPayload{UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", fb(FacebookPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel without video", fb(FacebookPayload{Type: "REEL", Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"reel with a photo", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel of two videos", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"reel over 90 s", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"reel landscape", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel with a link", fb(FacebookPayload{Type: "REEL", UploadIDs: ids("mp4"), Link: "https://example.com"}), []wantIssue{at(IssueCustom, n, "link")}},
		{"story of two", fb(FacebookPayload{Type: "STORY", UploadIDs: ids("jpg", "png")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"story media title", fb(FacebookPayload{Type: "STORY", UploadIDs: ids("mp4"), MediaTitle: "x"}), []wantIssue{at(IssueCustom, n, "mediaTitle")}},
		{"native schedule not a date", fb(FacebookPayload{Text: "x", NativeScheduleTime: "tomorrow"}), []wantIssue{at(IssueInvalidDate, n, "nativeScheduleTime")}},
		{"native schedule before postDate", fb(FacebookPayload{Text: "x", NativeScheduleTime: inHours(-0.5)}), []wantIssue{at(IssueTooSmall, n, "nativeScheduleTime")}},
		{"native schedule 40 days ahead", fb(FacebookPayload{Text: "x", NativeScheduleTime: inHours(40 * 24)}), []wantIssue{at(IssueTooBig, n, "nativeScheduleTime")}},
		{"native schedule in a draft", draft(fb(FacebookPayload{Text: "x", NativeScheduleTime: inHours(-5)})), nil},
	})
}

func TestPostRulesInstagram(t *testing.T) {
	t.Parallel()
	n := Instagram
	ig := func(p InstagramPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"square image", ig(InstagramPayload{Text: "Hi #crier", UploadIDs: ids("jpg")}), nil},
		{"portrait image", ig(InstagramPayload{UploadIDs: ids("jpg45")}), nil},
		{"carousel items", ig(InstagramPayload{CarouselItems: []InstagramCarouselItem{{UploadID: "jpg"}, {UploadID: "mp4"}}}), nil},
		{"carousel of ten uploads", ig(InstagramPayload{UploadIDs: repeat("jpg", 10)}), nil},
		{"video post", ig(InstagramPayload{UploadIDs: ids("mp4")}), nil},
		{"reel", ig(InstagramPayload{Type: "REEL", UploadIDs: ids("mov"), TrialParams: &InstagramTrialParams{GraduationStrategy: "MANUAL"}}), nil},
		{"story", ig(InstagramPayload{Type: "STORY", UploadIDs: ids("mp4")}), nil},
		{"wide image auto-fit", ig(InstagramPayload{UploadIDs: ids("jpgWide"), AutoFitImage: true}), nil},
		{"text only", ig(InstagramPayload{Text: "Hi"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"text only draft", draft(ig(InstagramPayload{Text: "Hi"})), nil},
		{"png", ig(InstagramPayload{UploadIDs: ids("png")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", ig(InstagramPayload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", ig(InstagramPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 8 MB", ig(InstagramPayload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"wide image", ig(InstagramPayload{UploadIDs: ids("jpgWide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"carousel of one item", ig(InstagramPayload{CarouselItems: []InstagramCarouselItem{{UploadID: "jpg"}}}), []wantIssue{at(IssueTooSmall, n, "carouselItems")}},
		{"carousel of eleven", ig(InstagramPayload{UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"carousel item not found", ig(InstagramPayload{CarouselItems: []InstagramCarouselItem{{UploadID: "jpg"}, {UploadID: "nope"}}}), []wantIssue{at(IssueCustom, n, "carouselItems", 1, "uploadId")}},
		{"carousel items and uploadIds", ig(InstagramPayload{UploadIDs: ids("jpg"), CarouselItems: []InstagramCarouselItem{{UploadID: "jpg"}, {UploadID: "jpg2"}}}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"reel with an image", ig(InstagramPayload{Type: "REEL", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel of two", ig(InstagramPayload{Type: "REEL", UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"reel under 3 s", ig(InstagramPayload{Type: "REEL", UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"reel over 300 MB", ig(InstagramPayload{Type: "REEL", UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"story video over 60 s", ig(InstagramPayload{Type: "STORY", UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"story of two", ig(InstagramPayload{Type: "STORY", UploadIDs: ids("jpg", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"caption 2,201", ig(InstagramPayload{Text: strings.Repeat("a", 2201), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"31 hashtags", ig(InstagramPayload{Text: strings.Repeat("#tag ", 31), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"30 hashtags", ig(InstagramPayload{Text: strings.Repeat("#tag ", 30), UploadIDs: ids("jpg")}), nil},
		{"21 mentions", ig(InstagramPayload{Text: strings.Repeat("@someone ", 21), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"trial params on a post", ig(InstagramPayload{UploadIDs: ids("mp4"), TrialParams: &InstagramTrialParams{GraduationStrategy: "MANUAL"}}), []wantIssue{at(IssueCustom, n, "trialParams")}},
	})
}

func TestPostRulesThreads(t *testing.T) {
	t.Parallel()
	n := Threads
	th := func(p ThreadsPayload) PostRuleInput { return post(n, &p) }
	poll := func(a, b, c, dd string) *ThreadsPoll {
		return &ThreadsPoll{OptionA: a, OptionB: b, OptionC: c, OptionD: dd}
	}
	runRuleCases(t, []ruleCase{
		{"text", th(ThreadsPayload{Text: "Hello"}), nil},
		{"image", th(ThreadsPayload{UploadIDs: ids("png")}), nil},
		{"carousel", th(ThreadsPayload{MediaItems: []MediaItem{{UploadID: "jpg"}, {UploadID: "mp4"}}}), nil},
		{"poll", th(ThreadsPayload{Text: "Which?", Poll: poll("a", "b", "c", "")}), nil},
		{"gif attachment", th(ThreadsPayload{GIF: &ThreadsGIF{GIFID: "g1"}}), nil},
		{"link attachment", th(ThreadsPayload{Text: "Read", LinkAttachment: "https://example.com"}), nil},
		{"500 emoji bytes", th(ThreadsPayload{Text: strings.Repeat("😀", 125)}), nil},
		{"emoji count their bytes", th(ThreadsPayload{Text: strings.Repeat("😀", 126)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"501 characters", th(ThreadsPayload{Text: strings.Repeat("a", 501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"empty", th(ThreadsPayload{}), []wantIssue{at(IssueCustom, n)}},
		{"21 items", th(ThreadsPayload{UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"gif upload", th(ThreadsPayload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", th(ThreadsPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 8 MB", th(ThreadsPayload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 5 min", th(ThreadsPayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video wider than 1920", th(ThreadsPayload{UploadIDs: ids("mp4Wide4")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"poll with media", th(ThreadsPayload{Text: "Q", UploadIDs: ids("jpg"), Poll: poll("a", "b", "", "")}), []wantIssue{at(IssueCustom, n, "poll")}},
		{"poll without option A", th(ThreadsPayload{Text: "Q", Poll: poll(" ", "b", "", "")}), []wantIssue{at(IssueTooSmall, n, "poll", "optionA")}},
		{"poll without option B", th(ThreadsPayload{Text: "Q", Poll: poll("a", "", "", "")}), []wantIssue{at(IssueTooSmall, n, "poll", "optionB")}},
		{"poll option D without C", th(ThreadsPayload{Text: "Q", Poll: poll("a", "b", "", "d")}), []wantIssue{at(IssueCustom, n, "poll", "optionD")}},
		{"link attachment with media", th(ThreadsPayload{UploadIDs: ids("jpg"), LinkAttachment: "https://example.com"}), []wantIssue{at(IssueCustom, n, "linkAttachment")}},
		{"link attachment not a URL", th(ThreadsPayload{Text: "x", LinkAttachment: "example"}), []wantIssue{at(IssueInvalidString, n, "linkAttachment")}},
		{"five links", th(ThreadsPayload{Text: "a.com b.com https://c.com/x d.io", LinkAttachment: "https://e.com"}), nil},
		{"six links", th(ThreadsPayload{Text: "a.com b.com https://c.com/x d.io www.f.org", LinkAttachment: "https://e.com"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"gif with media", th(ThreadsPayload{UploadIDs: ids("jpg"), GIF: &ThreadsGIF{GIFID: "g"}}), []wantIssue{at(IssueCustom, n, "gif")}},
	})
}

func TestPostRulesTikTok(t *testing.T) {
	t.Parallel()
	n := TikTok
	tt := func(p TikTokPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"video", tt(TikTokPayload{Text: "Dance", UploadIDs: ids("mp4"), Privacy: "PUBLIC_TO_EVERYONE"}), nil},
		{"mov video", tt(TikTokPayload{UploadIDs: ids("mov")}), nil},
		{"photos", tt(TikTokPayload{Type: "IMAGE", Text: "Trip", UploadIDs: ids("jpg", "jpg45"), PhotoCoverIndex: 1}), nil},
		{"35 photos", tt(TikTokPayload{Type: "IMAGE", UploadIDs: repeat("jpg", 35)}), nil},
		{"no video", tt(TikTokPayload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no video draft", draft(tt(TikTokPayload{Text: "x"})), nil},
		{"photo as video", tt(TikTokPayload{UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"two videos", tt(TikTokPayload{UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video under 3 s", tt(TikTokPayload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 10 min", tt(TikTokPayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video under 360 px", tt(TikTokPayload{UploadIDs: ids("mp4Small")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"title 2,201", tt(TikTokPayload{Text: strings.Repeat("a", 2201), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"no photos", tt(TikTokPayload{Type: "IMAGE", Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"36 photos", tt(TikTokPayload{Type: "IMAGE", UploadIDs: repeat("jpg", 36)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"png photo", tt(TikTokPayload{Type: "IMAGE", UploadIDs: ids("png")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video in a photo post", tt(TikTokPayload{Type: "IMAGE", UploadIDs: ids("jpg", "mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 1)}},
		{"photo over 20 MB", tt(TikTokPayload{Type: "IMAGE", UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"photo title 91", tt(TikTokPayload{Type: "IMAGE", Text: strings.Repeat("a", 91), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"cover index past the photos", tt(TikTokPayload{Type: "IMAGE", UploadIDs: ids("jpg", "jpg"), PhotoCoverIndex: 2}), []wantIssue{at(IssueTooBig, n, "photoCoverIndex")}},
		{"private branded content", tt(TikTokPayload{UploadIDs: ids("mp4"), IsBrandContent: true, Privacy: "SELF_ONLY"}), []wantIssue{at(IssueCustom, n, "privacy")}},
	})
}

func TestPostRulesLinkedIn(t *testing.T) {
	t.Parallel()
	n := LinkedIn
	li := func(p LinkedInPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"text", li(LinkedInPayload{Text: "Hello"}), nil},
		{"images", li(LinkedInPayload{Text: "Team", UploadIDs: ids("jpg", "png", "gif")}), nil},
		{"video", li(LinkedInPayload{Text: "Launch", UploadIDs: ids("mp4Wide"), MediaTitle: "Launch"}), nil},
		{"document", li(LinkedInPayload{Text: "Report", UploadIDs: ids("pdf")}), nil},
		{"link", li(LinkedInPayload{Text: "Read", Link: "https://example.com"}), nil},
		{"posts as the member without a page", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, li(LinkedInPayload{Text: "Hi"})), nil},
		{"empty", li(LinkedInPayload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 3,001", li(LinkedInPayload{Text: strings.Repeat("a", 3001)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"video with an image", li(LinkedInPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"document with an image", li(LinkedInPayload{UploadIDs: ids("jpg", "pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"21 images", li(LinkedInPayload{UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"mov video", li(LinkedInPayload{UploadIDs: ids("mov")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video under 3 s", li(LinkedInPayload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 500 MB", li(LinkedInPayload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video 3:1", li(LinkedInPayload{UploadIDs: ids("mp4Wide4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image of 48 megapixels", li(LinkedInPayload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"link with media", li(LinkedInPayload{Text: "x", UploadIDs: ids("jpg"), Link: "https://example.com"}), []wantIssue{at(IssueCustom, n, "link")}},
	})
}

func TestPostRulesYouTube(t *testing.T) {
	t.Parallel()
	n := YouTube
	yt := func(p YouTubePayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"short", yt(YouTubePayload{Text: "My short", UploadIDs: ids("mp4")}), nil},
		{"landscape video", yt(YouTubePayload{Type: "VIDEO", Text: "Talk", Description: "Slides inside", UploadIDs: ids("mp4Long")}), nil},
		{"no video", yt(YouTubePayload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no video draft", draft(yt(YouTubePayload{Text: "x"})), nil},
		{"two videos", yt(YouTubePayload{UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"image", yt(YouTubePayload{UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"landscape short", yt(YouTubePayload{UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"short over 3 min", yt(YouTubePayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"title 101", yt(YouTubePayload{Text: strings.Repeat("t", 101), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"title with angle brackets", yt(YouTubePayload{Text: "<b>Hi</b>", UploadIDs: ids("mp4")}), []wantIssue{at(IssueInvalidString, n, "text")}},
		{"description over 5,000 bytes", yt(YouTubePayload{Description: strings.Repeat("é", 2501), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"channel not selected", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, yt(YouTubePayload{UploadIDs: ids("mp4")})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
	})
}

func TestPostRulesReddit(t *testing.T) {
	t.Parallel()
	n := Reddit
	rd := func(p RedditPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"self post", rd(RedditPayload{SR: "r/marketing", Text: "Title", Description: "Body"}), nil},
		{"bare subreddit name", rd(RedditPayload{SR: "startups", Text: "Title"}), nil},
		{"user profile", rd(RedditPayload{SR: "u/someone", Text: "Title"}), nil},
		{"link post", rd(RedditPayload{SR: "marketing", Text: "Title", Link: "https://example.com"}), nil},
		{"gallery", rd(RedditPayload{SR: "marketing", Text: "Title", UploadIDs: ids("jpg", "png")}), nil},
		{"video", rd(RedditPayload{SR: "marketing", Text: "Title", UploadIDs: ids("mp4")}), nil},
		{"no subreddit", rd(RedditPayload{Text: "Title"}), []wantIssue{at(IssueInvalidType, n, "sr")}},
		{"no subreddit draft", draft(rd(RedditPayload{Text: "Title"})), nil},
		{"subreddit not a name", rd(RedditPayload{SR: "my sub!", Text: "Title"}), []wantIssue{at(IssueInvalidString, n, "sr")}},
		{"no title", rd(RedditPayload{SR: "marketing"}), []wantIssue{at(IssueInvalidType, n, "text")}},
		{"title 301", rd(RedditPayload{SR: "marketing", Text: strings.Repeat("t", 301)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"body 40,001", rd(RedditPayload{SR: "marketing", Text: "T", Description: strings.Repeat("b", 40001)}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"link with media", rd(RedditPayload{SR: "marketing", Text: "T", Link: "https://example.com", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "link")}},
		{"video with an image", rd(RedditPayload{SR: "marketing", Text: "T", UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"21 images", rd(RedditPayload{SR: "marketing", Text: "T", UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"document", rd(RedditPayload{SR: "marketing", Text: "T", UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 20 MB", rd(RedditPayload{SR: "marketing", Text: "T", UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 15 min", rd(RedditPayload{SR: "marketing", Text: "T", UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"subreddit without images", rd(RedditPayload{SR: "r/TextOnly", Text: "T", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"subreddit without videos", rd(RedditPayload{SR: "textonly", Text: "T", UploadIDs: ids("mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
	})
}

func TestPostRulesDiscordSlack(t *testing.T) {
	t.Parallel()
	chat := func(n Network, p ChatPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"discord message", chat(Discord, ChatPayload{ChannelID: "d1", Text: "Hello", Username: "Crier"}), nil},
		{"discord files", chat(Discord, ChatPayload{ChannelID: "d2", UploadIDs: ids("pdf", "jpg", "mp4")}), nil},
		{"discord unknown channel", chat(Discord, ChatPayload{ChannelID: "zzz", Text: "x"}), []wantIssue{at(IssueCustom, Discord, "channelId")}},
		{"discord no channel", chat(Discord, ChatPayload{Text: "x"}), []wantIssue{at(IssueInvalidType, Discord, "channelId")}},
		{"discord 2,001", chat(Discord, ChatPayload{ChannelID: "d1", Text: strings.Repeat("a", 2001)}), []wantIssue{at(IssueTooBig, Discord, "text")}},
		{"discord 11 files", chat(Discord, ChatPayload{ChannelID: "d1", UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, Discord, "uploadIds")}},
		{"discord empty", chat(Discord, ChatPayload{ChannelID: "d1"}), []wantIssue{at(IssueCustom, Discord)}},
		{"discord upload not found", chat(Discord, ChatPayload{ChannelID: "d1", UploadIDs: ids("nope")}), []wantIssue{at(IssueCustom, Discord, "uploadIds", 0)}},
		{"slack message", chat(Slack, ChatPayload{ChannelID: "C1", Text: strings.Repeat("a", 40000)}), nil},
		{"slack file", chat(Slack, ChatPayload{ChannelID: "C1", UploadIDs: ids("pdf")}), nil},
		{"slack unknown channel", chat(Slack, ChatPayload{ChannelID: "C9", Text: "x"}), []wantIssue{at(IssueCustom, Slack, "channelId")}},
		{"slack 40,001", chat(Slack, ChatPayload{ChannelID: "C1", Text: strings.Repeat("a", 40001)}), []wantIssue{at(IssueTooBig, Slack, "text")}},
		{"slack empty", chat(Slack, ChatPayload{ChannelID: "C1", Text: "  "}), []wantIssue{at(IssueCustom, Slack)}},
	})
}

func TestPostRulesMastodon(t *testing.T) {
	t.Parallel()
	n := Mastodon
	md := func(p MastodonPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"text", md(MastodonPayload{Text: "Hello fediverse", Privacy: "PUBLIC"}), nil},
		{"four images", md(MastodonPayload{UploadIDs: ids("jpg", "png", "jpg", "png")}), nil},
		{"video", md(MastodonPayload{Text: "x", UploadIDs: ids("mp4")}), nil},
		{"URL counts 23", md(MastodonPayload{Text: strings.Repeat("a", 470) + " https://example.com/" + strings.Repeat("p", 80)}), nil},
		{"501 characters", md(MastodonPayload{Text: strings.Repeat("a", 501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"spoiler counts", md(MastodonPayload{Text: strings.Repeat("a", 490), Spoiler: "content warning!"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"five images", md(MastodonPayload{UploadIDs: repeat("jpg", 5)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", md(MastodonPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"gif with an image", md(MastodonPayload{UploadIDs: ids("gif", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"image over 16 MB", md(MastodonPayload{UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 99 MB", md(MastodonPayload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", md(MastodonPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"empty", md(MastodonPayload{}), []wantIssue{at(IssueCustom, n)}},
	})
}

func TestPostRulesBluesky(t *testing.T) {
	t.Parallel()
	n := Bluesky
	bs := func(p BlueskyPayload) PostRuleInput { return post(n, &p) }
	family := "👨\u200d👩\u200d👧"
	runRuleCases(t, []ruleCase{
		{"text", bs(BlueskyPayload{Text: "Hello", Tags: []string{"crier"}}), nil},
		{"300 graphemes", bs(BlueskyPayload{Text: strings.Repeat("é", 300)}), nil},
		{"four images", bs(BlueskyPayload{UploadIDs: ids("jpg", "png", "jpg", "png")}), nil},
		{"video", bs(BlueskyPayload{UploadIDs: ids("mp4"), VideoAlt: "a dance"}), nil},
		{"link card", bs(BlueskyPayload{ExternalURL: "https://example.com", ExternalTitle: "Example"}), nil},
		{"quote with media", bs(BlueskyPayload{QuoteURI: "at://did:plc:x/app.bsky.feed.post/1", UploadIDs: ids("jpg")}), nil},
		{"301 graphemes", bs(BlueskyPayload{Text: a300 + "b"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"over 3,000 bytes", bs(BlueskyPayload{Text: strings.Repeat(family, 200)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"five images", bs(BlueskyPayload{UploadIDs: repeat("jpg", 5)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", bs(BlueskyPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"image over 1,000,000 bytes", bs(BlueskyPayload{UploadIDs: ids("jpg1_5")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"gif", bs(BlueskyPayload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video over 3 min", bs(BlueskyPayload{UploadIDs: ids("mp4_4min")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 100 MB", bs(BlueskyPayload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"link card with media", bs(BlueskyPayload{ExternalURL: "https://example.com", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "externalUrl")}},
		{"empty", bs(BlueskyPayload{}), []wantIssue{at(IssueCustom, n)}},
	})
}

func TestPostRulesGoogleBusiness(t *testing.T) {
	t.Parallel()
	n := GoogleBusiness
	gb := func(p GoogleBusinessPayload) PostRuleInput { return post(n, &p) }
	start, end := "2026-06-10T18:00:00Z", "2026-06-10T22:00:00Z"
	runRuleCases(t, []ruleCase{
		{"update with a photo", gb(GoogleBusinessPayload{Text: "Open late today", UploadIDs: ids("jpg")}), nil},
		{"event", gb(GoogleBusinessPayload{TopicType: "EVENT", EventTitle: "Tasting", EventStartDate: start, EventEndDate: end, CallToActionType: "BOOK", CallToActionURL: "https://example.com/book"}), nil},
		{"offer", gb(GoogleBusinessPayload{TopicType: "OFFER", Text: "20% off", EventTitle: "Summer sale", EventStartDate: start, EventEndDate: end, OfferCouponCode: "SUMMER", OfferRedeemOnlineURL: "https://example.com/shop"}), nil},
		{"alert", gb(GoogleBusinessPayload{TopicType: "ALERT", Text: "Closed Monday", AlertType: "COVID_19"}), nil},
		{"call button", gb(GoogleBusinessPayload{Text: "Call us", CallToActionType: "CALL"}), nil},
		{"empty", gb(GoogleBusinessPayload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 1,501", gb(GoogleBusinessPayload{Text: strings.Repeat("a", 1501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"two photos", gb(GoogleBusinessPayload{Text: "x", UploadIDs: ids("jpg", "png")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video", gb(GoogleBusinessPayload{Text: "x", UploadIDs: ids("mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", gb(GoogleBusinessPayload{Text: "x", UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"photo over 5 MB", gb(GoogleBusinessPayload{Text: "x", UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"tiny photo", gb(GoogleBusinessPayload{Text: "x", UploadIDs: ids("jpgTiny")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0), at(IssueTooSmall, n, "uploadIds", 0)}},
		{"event without details", gb(GoogleBusinessPayload{TopicType: "EVENT", Text: "x"}), []wantIssue{at(IssueInvalidType, n, "eventTitle"), at(IssueInvalidType, n, "eventStartDate"), at(IssueInvalidType, n, "eventEndDate")}},
		{"event without details draft", draft(gb(GoogleBusinessPayload{TopicType: "EVENT", Text: "x"})), nil},
		{"offer without details", gb(GoogleBusinessPayload{TopicType: "OFFER", Text: "x"}), []wantIssue{at(IssueInvalidType, n, "eventTitle"), at(IssueInvalidType, n, "eventStartDate"), at(IssueInvalidType, n, "eventEndDate")}},
		{"event ends before it starts", gb(GoogleBusinessPayload{TopicType: "EVENT", EventTitle: "T", EventStartDate: end, EventEndDate: start}), []wantIssue{at(IssueCustom, n, "eventEndDate")}},
		{"event already over", gb(GoogleBusinessPayload{TopicType: "EVENT", EventTitle: "T", EventStartDate: "2026-05-01T10:00:00Z", EventEndDate: "2026-05-02T10:00:00Z"}), []wantIssue{at(IssueCustom, n, "eventEndDate")}},
		{"event date not a date", gb(GoogleBusinessPayload{TopicType: "EVENT", EventTitle: "T", EventStartDate: "soon", EventEndDate: end}), []wantIssue{at(IssueInvalidDate, n, "eventStartDate")}},
		{"event fields on an update", gb(GoogleBusinessPayload{Text: "x", EventTitle: "T"}), []wantIssue{at(IssueCustom, n, "eventTitle")}},
		{"offer fields on an event", gb(GoogleBusinessPayload{TopicType: "EVENT", EventTitle: "T", EventStartDate: start, EventEndDate: end, OfferCouponCode: "X"}), []wantIssue{at(IssueCustom, n, "offerCouponCode")}},
		{"button without URL", gb(GoogleBusinessPayload{Text: "x", CallToActionType: "LEARN_MORE"}), []wantIssue{at(IssueInvalidType, n, "callToActionUrl")}},
		{"button URL not a URL", gb(GoogleBusinessPayload{Text: "x", CallToActionType: "SHOP", CallToActionURL: "shop"}), []wantIssue{at(IssueInvalidString, n, "callToActionUrl")}},
		{"call button with URL", gb(GoogleBusinessPayload{Text: "x", CallToActionType: "CALL", CallToActionURL: "https://example.com"}), []wantIssue{at(IssueCustom, n, "callToActionUrl")}},
		{"URL without button", gb(GoogleBusinessPayload{Text: "x", CallToActionURL: "https://example.com"}), []wantIssue{at(IssueCustom, n, "callToActionType")}},
		{"location not selected", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, gb(GoogleBusinessPayload{Text: "x"})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
	})
}

func TestPostRulesSnapchat(t *testing.T) {
	t.Parallel()
	n := Snapchat
	sc := func(p SnapchatPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"story video", sc(SnapchatPayload{UploadIDs: ids("mp4")}), nil},
		{"story image", sc(SnapchatPayload{UploadIDs: ids("png")}), nil},
		{"spotlight", sc(SnapchatPayload{Type: "SPOTLIGHT", UploadIDs: ids("mp4"), Description: "#fun"}), nil},
		{"saved story", sc(SnapchatPayload{Type: "SAVED_STORY", UploadIDs: ids("jpg"), Title: "Our week"}), nil},
		{"no media", sc(SnapchatPayload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no media draft", draft(sc(SnapchatPayload{Text: "x"})), nil},
		{"two media", sc(SnapchatPayload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"spotlight image", sc(SnapchatPayload{Type: "SPOTLIGHT", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video under 5 s", sc(SnapchatPayload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 60 s", sc(SnapchatPayload{UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 500 MB", sc(SnapchatPayload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"landscape video", sc(SnapchatPayload{UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"mov video", sc(SnapchatPayload{UploadIDs: ids("mov")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", sc(SnapchatPayload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", sc(SnapchatPayload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"saved story without title", sc(SnapchatPayload{Type: "SAVED_STORY", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidType, n, "title")}},
		{"title 46", sc(SnapchatPayload{Type: "SAVED_STORY", UploadIDs: ids("jpg"), Title: strings.Repeat("t", 46)}), []wantIssue{at(IssueTooBig, n, "title")}},
		{"description 161", sc(SnapchatPayload{Type: "SPOTLIGHT", UploadIDs: ids("mp4"), Description: strings.Repeat("d", 161)}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"text 161", sc(SnapchatPayload{UploadIDs: ids("mp4"), Text: strings.Repeat("d", 161)}), []wantIssue{at(IssueTooBig, n, "text")}},
	})
}

// Rules across networks: targets, accounts, channels, uploads, postDate, firstComment.
func TestPostRulesTargetsAndTiming(t *testing.T) {
	t.Parallel()
	text := func(s string) *TwitterPayload { return &TwitterPayload{Text: s} }
	two := func() PostRuleInput {
		in := post(Twitter, text("hi"))
		in.Data.Facebook = &FacebookPayload{Text: "hi"}
		in.SocialAccountTypes = []Network{Twitter, Facebook}
		return in
	}
	mut := func(in PostRuleInput, f func(*PostRuleInput)) PostRuleInput { f(&in); return in }
	noAccount := func(n Network) func(*PostRuleInput) {
		return func(in *PostRuleInput) { delete(in.Accounts, n) }
	}
	reconnect := func(in *PostRuleInput) { in.Accounts[Twitter].ReconnectRequiredAt = rptr(ruleNow) }
	noPage := func(in *PostRuleInput) { in.Accounts[Facebook].ProviderPageID = nil }
	runRuleCases(t, []ruleCase{
		{"two networks", two(), nil},
		{"network without data", mut(two(), func(in *PostRuleInput) { in.Data.Facebook = nil }), []wantIssue{iss(IssueCustom, "data", "FACEBOOK")}},
		{"data without network", mut(two(), func(in *PostRuleInput) { in.SocialAccountTypes = []Network{Twitter} }), []wantIssue{iss(IssueCustom, "data", "FACEBOOK")}},
		{"network listed twice", mut(two(), func(in *PostRuleInput) { in.SocialAccountTypes = []Network{Twitter, Twitter, Facebook} }), []wantIssue{iss(IssueCustom, "socialAccountTypes", 1)}},
		{"not connected", mut(two(), noAccount(Facebook)), []wantIssue{iss(IssueCustom, "socialAccountTypes", 1)}},
		{"not connected draft", draft(mut(two(), noAccount(Facebook))), []wantIssue{iss(IssueCustom, "socialAccountTypes", 1)}},
		{"needs reconnection", mut(two(), reconnect), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
		{"needs reconnection review", withStatus("REVIEW", mut(two(), reconnect)), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
		{"needs reconnection draft", draft(mut(two(), reconnect)), nil},
		{"page not selected", mut(two(), noPage), []wantIssue{iss(IssueCustom, "socialAccountTypes", 1)}},
		{"page not selected draft", draft(mut(two(), noPage)), nil},
		{"instagram login needs no channel", withAccount(Instagram, func(a *SocialAccount) {
			a.ProviderPageID, a.InstagramConnectionMethod = nil, rptr("INSTAGRAM")
		}, post(Instagram, &InstagramPayload{UploadIDs: ids("jpg")})), nil},
		{"instagram account not selected", withAccount(Instagram, func(a *SocialAccount) { a.ProviderPageID = rptr("") }, post(Instagram, &InstagramPayload{UploadIDs: ids("jpg")})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
		{"postDate in the past", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-2 * time.Minute) }), []wantIssue{iss(IssueTooSmall, "postDate")}},
		{"postDate in the past review", withStatus("REVIEW", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-time.Hour) })), []wantIssue{iss(IssueTooSmall, "postDate")}},
		{"postDate within the grace", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-30 * time.Second) }), nil},
		{"postDate in the past draft", draft(mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-time.Hour) })), nil},
		{"postDate missing", mut(two(), func(in *PostRuleInput) { in.PostDate = time.Time{} }), []wantIssue{iss(IssueInvalidType, "postDate")}},
		{"first comment", mut(two(), func(in *PostRuleInput) { in.FirstComment = map[Network]string{Facebook: "More in the comments"} }), nil},
		{"first comment for another network", mut(two(), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Facebook: "ok", Instagram: "Link in bio"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "INSTAGRAM")}},
		{"first comment on a story", mut(post(Instagram, &InstagramPayload{Type: "STORY", UploadIDs: ids("jpg")}), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Instagram: "Nice"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "INSTAGRAM")}},
		{"first comment on a facebook story", mut(post(Facebook, &FacebookPayload{Type: "STORY", UploadIDs: ids("jpg")}), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Facebook: "Nice"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "FACEBOOK")}},
		{"blank first comment ignored", mut(two(), func(in *PostRuleInput) { in.FirstComment = map[Network]string{Instagram: " "} }), nil},
		{"upload not found", post(Facebook, &FacebookPayload{UploadIDs: ids("jpg", "other-org")}), []wantIssue{at(IssueCustom, Facebook, "uploadIds", 1)}},
		{"upload deleted", post(Facebook, &FacebookPayload{UploadIDs: ids("deleted")}), []wantIssue{at(IssueCustom, Facebook, "uploadIds", 0)}},
		{"nil data", PostRuleInput{SocialAccountTypes: []Network{Twitter}, Status: "DRAFT", Now: ruleNow, Accounts: ruleAccounts()}, []wantIssue{iss(IssueCustom, "data", "TWITTER")}},
		{"every network at once", func() PostRuleInput {
			in := post(Twitter, text("hi"))
			in.Data = &PostData{
				Twitter: text("hi"), Pinterest: &PinterestPayload{BoardName: "recipes", UploadIDs: ids("jpg")},
				Facebook: &FacebookPayload{Text: "hi"}, Instagram: &InstagramPayload{UploadIDs: ids("jpg")},
				Threads: &ThreadsPayload{Text: "hi"}, TikTok: &TikTokPayload{UploadIDs: ids("mp4")},
				LinkedIn: &LinkedInPayload{Text: "hi"}, YouTube: &YouTubePayload{Text: "hi", UploadIDs: ids("mp4")},
				Reddit: &RedditPayload{SR: "marketing", Text: "hi"}, Discord: &ChatPayload{ChannelID: "d1", Text: "hi"},
				Slack: &ChatPayload{ChannelID: "C1", Text: "hi"}, Mastodon: &MastodonPayload{Text: "hi"},
				Bluesky: &BlueskyPayload{Text: "hi"}, GoogleBusiness: &GoogleBusinessPayload{Text: "hi"},
				Snapchat: &SnapchatPayload{UploadIDs: ids("mp4")},
			}
			in.SocialAccountTypes = append([]Network{}, Networks...)
			return in
		}(), nil},
	})
}

func TestPostRulesUploadIDs(t *testing.T) {
	t.Parallel()
	got := ruleUploadIDs(&PostData{
		TikTok:    &TikTokPayload{UploadIDs: ids("v1")},
		Instagram: &InstagramPayload{CarouselItems: []InstagramCarouselItem{{UploadID: "c1"}, {UploadID: "c2"}}, UploadIDs: ids("u9")},
		Twitter:   &TwitterPayload{MediaItems: []MediaItem{{UploadID: "m1"}}, Thread: []TwitterTweet{{UploadIDs: ids("t1", "v1")}}},
		Discord:   &ChatPayload{UploadIDs: ids("d1", "c1")},
	})
	require.Equal(t, []string{"v1", "c1", "c2", "u9", "m1", "t1", "d1"}, got)
	require.Empty(t, ruleUploadIDs(nil))
}

func TestTextLength(t *testing.T) {
	t.Parallel()
	premium := &SocialAccount{TwitterSubType: rptr("premium")}
	basic := &SocialAccount{TwitterSubType: rptr("basic")}
	for _, tc := range []struct {
		name        string
		n           Network
		text        string
		a           *SocialAccount
		used, limit int
	}{
		{"x latin", Twitter, "Hello", nil, 5, 280},
		{"x basic", Twitter, "Hello", basic, 5, 280},
		{"x premium", Twitter, "Hello", premium, 5, 25000},
		{"x premium plus", Twitter, "", &SocialAccount{TwitterSubType: rptr("premium_plus")}, 0, 25000},
		{"x blank is empty", Twitter, "  \n ", nil, 0, 280},
		{"x CJK weighs 2", Twitter, "日本語", nil, 6, 280},
		{"x emoji weighs 2", Twitter, "👍", nil, 2, 280},
		{"x skin tone emoji weighs 2", Twitter, "👍🏽", nil, 2, 280},
		{"x ZWJ family weighs 2", Twitter, "👨\u200d👩\u200d👧", nil, 2, 280},
		{"x flag weighs 2", Twitter, "🇫🇷", nil, 2, 280},
		{"x keycap weighs 2", Twitter, "1\ufe0f\u20e3", nil, 2, 280},
		{"x URL counts 23", Twitter, "see https://example.com/a/very/long/path?with=query", nil, 4 + 23, 280},
		{"x short URL counts 23", Twitter, "https://t.co", nil, 23, 280},
		{"x bare domain counts 23", Twitter, "visit example.com.", nil, 6 + 23 + 1, 280},
		{"x email is not a URL", Twitter, "a@example.org", nil, 13, 280},
		{"x decomposed accent is one", Twitter, "e\u0301", nil, 1, 280},
		{"x punctuation range weighs 1", Twitter, "“quoted” — ok", nil, 13, 280},
		{"bluesky graphemes", Bluesky, "👨\u200d👩\u200d👧é", nil, 2, 300},
		{"threads emoji bytes", Threads, "hi 😀", nil, 3 + 4, 500},
		{"mastodon URL", Mastodon, "read https://example.com/" + strings.Repeat("x", 50), nil, 5 + 23, 500},
		{"mastodon bare domain is text", Mastodon, "example.com", nil, 11, 500},
		{"instagram", Instagram, "ça va", nil, 5, 2200},
		{"facebook", Facebook, "", nil, 0, 63206},
		{"tiktok", TikTok, "x", nil, 1, 2200},
		{"youtube title", YouTube, "x", nil, 1, 100},
		{"linkedin", LinkedIn, "x", nil, 1, 3000},
		{"pinterest title", Pinterest, "x", nil, 1, 100},
		{"reddit title", Reddit, "x", nil, 1, 300},
		{"discord", Discord, "x", nil, 1, 2000},
		{"slack", Slack, "x", nil, 1, 40000},
		{"google business", GoogleBusiness, "x", nil, 1, 1500},
		{"snapchat", Snapchat, "x", nil, 1, 160},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			used, limit := TextLength(tc.n, tc.text, tc.a)
			require.Equal(t, tc.used, used, "used")
			require.Equal(t, tc.limit, limit, "limit")
		})
	}
}
