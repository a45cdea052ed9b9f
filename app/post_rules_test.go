package app_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	// The rules are read in the app's own terms (Twitter, PostRuleInput, IssueTooBig …).
	. "github.com/crier/crier/app"
	"github.com/crier/crier/media"
	"github.com/crier/crier/network/bluesky"
	"github.com/crier/crier/network/facebook"
	"github.com/crier/crier/network/googlebusiness"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/linkedin"
	"github.com/crier/crier/network/mastodon"
	"github.com/crier/crier/network/pinterest"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/reddit"
	"github.com/crier/crier/network/snapchat"
	"github.com/crier/crier/network/threads"
	"github.com/crier/crier/network/tiktok"
	"github.com/crier/crier/network/x"
	"github.com/crier/crier/network/youtube"
)

// Tests of CheckPostRules and TextLength: every row of the spec's payload table passes with a
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
	return dataOf(map[Network]Payload{n: p})
}

func dataOf(payloads map[Network]Payload) *PostData {
	d := &PostData{}
	for n, p := range payloads {
		d.Set(n, p)
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
			issues := CheckPostRules(tc.in)
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

// Rules across networks: targets, accounts, channels, uploads, postDate, firstComment.
func TestPostRulesTargetsAndTiming(t *testing.T) {
	t.Parallel()
	text := func(s string) *x.Payload { return &x.Payload{Text: s} }
	two := func() PostRuleInput {
		in := post(Twitter, text("hi"))
		in.Data.Set(Facebook, &facebook.Payload{Text: "hi"})
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
		{"network without data", mut(two(), func(in *PostRuleInput) { in.Data.Set(Facebook, nil) }), []wantIssue{iss(IssueCustom, "data", "FACEBOOK")}},
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
		}, post(Instagram, &instagram.Payload{UploadIDs: ids("jpg")})), nil},
		{"instagram account not selected", withAccount(Instagram, func(a *SocialAccount) { a.ProviderPageID = rptr("") }, post(Instagram, &instagram.Payload{UploadIDs: ids("jpg")})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
		{"postDate in the past", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-2 * time.Minute) }), []wantIssue{iss(IssueTooSmall, "postDate")}},
		{"postDate in the past review", withStatus("REVIEW", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-time.Hour) })), []wantIssue{iss(IssueTooSmall, "postDate")}},
		{"postDate within the grace", mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-30 * time.Second) }), nil},
		{"postDate in the past draft", draft(mut(two(), func(in *PostRuleInput) { in.PostDate = ruleNow.Add(-time.Hour) })), nil},
		{"postDate missing", mut(two(), func(in *PostRuleInput) { in.PostDate = time.Time{} }), []wantIssue{iss(IssueInvalidType, "postDate")}},
		{"first comment", mut(two(), func(in *PostRuleInput) { in.FirstComment = map[Network]string{Facebook: "More in the comments"} }), nil},
		{"first comment for another network", mut(two(), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Facebook: "ok", Instagram: "Link in bio"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "INSTAGRAM")}},
		{"first comment on a story", mut(post(Instagram, &instagram.Payload{Type: "STORY", UploadIDs: ids("jpg")}), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Instagram: "Nice"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "INSTAGRAM")}},
		{"first comment on a facebook story", mut(post(Facebook, &facebook.Payload{Type: "STORY", UploadIDs: ids("jpg")}), func(in *PostRuleInput) {
			in.FirstComment = map[Network]string{Facebook: "Nice"}
		}), []wantIssue{iss(IssueCustom, "firstComment", "FACEBOOK")}},
		{"blank first comment ignored", mut(two(), func(in *PostRuleInput) { in.FirstComment = map[Network]string{Instagram: " "} }), nil},
		{"upload not found", post(Facebook, &facebook.Payload{UploadIDs: ids("jpg", "other-org")}), []wantIssue{at(IssueCustom, Facebook, "uploadIds", 1)}},
		{"upload deleted", post(Facebook, &facebook.Payload{UploadIDs: ids("deleted")}), []wantIssue{at(IssueCustom, Facebook, "uploadIds", 0)}},
		{"nil data", PostRuleInput{SocialAccountTypes: []Network{Twitter}, Status: "DRAFT", Now: ruleNow, Accounts: ruleAccounts()}, []wantIssue{iss(IssueCustom, "data", "TWITTER")}},
		{"every network at once", func() PostRuleInput {
			in := post(Twitter, text("hi"))
			in.Data = dataOf(map[Network]Payload{
				Twitter: text("hi"), Pinterest: &pinterest.Payload{BoardName: "recipes", UploadIDs: ids("jpg")},
				Facebook: &facebook.Payload{Text: "hi"}, Instagram: &instagram.Payload{UploadIDs: ids("jpg")},
				Threads: &threads.Payload{Text: "hi"}, TikTok: &tiktok.Payload{UploadIDs: ids("mp4")},
				LinkedIn: &linkedin.Payload{Text: "hi"}, YouTube: &youtube.Payload{Text: "hi", UploadIDs: ids("mp4")},
				Reddit: &reddit.Payload{SR: "marketing", Text: "hi"}, Discord: &pubutil.ChatPayload{ChannelID: "d1", Text: "hi"},
				Slack: &pubutil.ChatPayload{ChannelID: "C1", Text: "hi"}, Mastodon: &mastodon.Payload{Text: "hi"},
				Bluesky: &bluesky.Payload{Text: "hi"}, GoogleBusiness: &googlebusiness.Payload{Text: "hi"},
				Snapchat: &snapchat.Payload{UploadIDs: ids("mp4")},
			})
			in.SocialAccountTypes = append([]Network{}, Networks...)
			return in
		}(), nil},
	})
}

func TestPostRulesUploadIDs(t *testing.T) {
	t.Parallel()
	got := RuleUploadIDs(dataOf(map[Network]Payload{
		TikTok:    &tiktok.Payload{UploadIDs: ids("v1")},
		Instagram: &instagram.Payload{CarouselItems: []instagram.CarouselItem{{UploadID: "c1"}, {UploadID: "c2"}}, UploadIDs: ids("u9")},
		Twitter:   &x.Payload{MediaItems: []MediaItem{{UploadID: "m1"}}, Thread: []x.ThreadTweet{{UploadIDs: ids("t1", "v1")}}},
		Discord:   &pubutil.ChatPayload{UploadIDs: ids("d1", "c1")},
	}))
	require.Equal(t, []string{"v1", "c1", "c2", "u9", "m1", "t1", "d1"}, got)
	require.Empty(t, RuleUploadIDs(nil))
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
