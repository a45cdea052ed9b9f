package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	// The rules are read in the app's own terms (Twitter, PostRuleInput, IssueTooBig …).
	. "github.com/crier/crier/app"
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

// Each network's rules (its spec's Check), row by row of the spec's payload table.

func TestPostRulesTwitter(t *testing.T) {
	t.Parallel()
	n := Twitter
	tw := func(p x.Payload) PostRuleInput { return post(n, &p) }
	premium := func(in PostRuleInput) PostRuleInput {
		return withAccount(n, func(a *SocialAccount) { a.TwitterSubType = rptr("premium") }, in)
	}
	runRuleCases(t, []ruleCase{
		{"text and two images", tw(x.Payload{Text: "Hello", UploadIDs: ids("jpg", "png")}), nil},
		{"four images", tw(x.Payload{UploadIDs: ids("jpg", "png", "jpg2", "jpg45")}), nil},
		{"one video", tw(x.Payload{Text: "Watch", UploadIDs: ids("mp4")}), nil},
		{"one gif", tw(x.Payload{UploadIDs: ids("gif")}), nil},
		{"media items", tw(x.Payload{Text: "Hi", MediaItems: []MediaItem{{UploadID: "jpg", AltText: rptr("a cat")}}}), nil},
		{"poll without media", tw(x.Payload{Text: "Which?", Poll: &x.Poll{Options: []string{"a", "b"}, DurationMinutes: 60}}), nil},
		{"280 characters", tw(x.Payload{Text: strings.Repeat("a", 280)}), nil},
		{"281 characters", tw(x.Payload{Text: a281}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"URL counts 23", tw(x.Payload{Text: strings.Repeat("a", 257) + " https://example.com/" + strings.Repeat("p", 100)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"URL shortened fits", tw(x.Payload{Text: strings.Repeat("a", 256) + " https://example.com/" + strings.Repeat("p", 100)}), nil},
		{"CJK counts 2", tw(x.Payload{Text: strings.Repeat("日", 141)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"premium writes long posts", premium(tw(x.Payload{Text: strings.Repeat("a", 5000)})), nil},
		{"premium 25,000", premium(tw(x.Payload{Text: strings.Repeat("a", 25001)})), []wantIssue{at(IssueTooBig, n, "text")}},
		{"tweet storm splits long text", tw(x.Payload{Text: strings.Repeat("word ", 300), TweetStorm: true}), nil},
		{"five images", tw(x.Payload{UploadIDs: ids("jpg", "png", "jpg2", "jpg45", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", tw(x.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"gif with an image", tw(x.Payload{UploadIDs: ids("gif", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"document", tw(x.Payload{Text: "x", UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 5 MB", tw(x.Payload{UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 140 s", tw(x.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"premium video over 140 s", premium(tw(x.Payload{UploadIDs: ids("mp4Long")})), nil},
		{"video over 512 MB", tw(x.Payload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"poll with media", tw(x.Payload{Text: "Q", UploadIDs: ids("jpg"), Poll: &x.Poll{Options: []string{"a", "b"}, DurationMinutes: 60}}), []wantIssue{at(IssueCustom, n, "poll")}},
		{"poll without question", tw(x.Payload{Poll: &x.Poll{Options: []string{"a", "b"}, DurationMinutes: 60}}), []wantIssue{at(IssueInvalidType, n, "text")}},
		{"empty", tw(x.Payload{}), []wantIssue{at(IssueCustom, n)}},
		{"empty draft", draft(tw(x.Payload{})), nil},
		{"quote without text", tw(x.Payload{QuoteTweetID: "123"}), nil},
		{"media item not found", tw(x.Payload{MediaItems: []MediaItem{{UploadID: "nope"}}}), []wantIssue{at(IssueCustom, n, "mediaItems", 0, "uploadId")}},
		{"mediaItems and other uploadIds", tw(x.Payload{UploadIDs: ids("png"), MediaItems: []MediaItem{{UploadID: "jpg"}}}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"thread", tw(x.Payload{Text: "1/", Thread: []x.ThreadTweet{{Text: "2/"}, {UploadIDs: ids("jpg")}}}), nil},
		{"thread post too long", tw(x.Payload{Text: "1/", Thread: []x.ThreadTweet{{Text: a281}}}), []wantIssue{at(IssueTooBig, n, "thread", 0, "text")}},
		{"thread post empty", tw(x.Payload{Text: "1/", Thread: []x.ThreadTweet{{Text: "2/"}, {}}}), []wantIssue{at(IssueCustom, n, "thread", 1)}},
		{"thread post media mixed", tw(x.Payload{Text: "1/", Thread: []x.ThreadTweet{{UploadIDs: ids("mp4", "jpg")}}}), []wantIssue{at(IssueTooBig, n, "thread", 0, "uploadIds")}},
		{"thread upload not found", tw(x.Payload{Text: "1/", Thread: []x.ThreadTweet{{UploadIDs: ids("nope")}}}), []wantIssue{at(IssueCustom, n, "thread", 0, "uploadIds", 0)}},
	})
}

func TestPostRulesTwitterMessage(t *testing.T) {
	t.Parallel()
	issues := CheckPostRules(post(Twitter, &x.Payload{Text: strings.Repeat("a", 291)}))
	require.Equal(t, []Issue{{Code: IssueTooBig, Message: "X allows 280 characters (this text counts 291)", Path: []any{"data", "TWITTER", "text"}}}, issues)
}

func TestPostRulesPinterest(t *testing.T) {
	t.Parallel()
	n := Pinterest
	pin := func(p pinterest.Payload) PostRuleInput {
		if p.BoardName == "" {
			p.BoardName = "Recipes"
		}
		return post(n, &p)
	}
	runRuleCases(t, []ruleCase{
		{"image on a board", pin(pinterest.Payload{Text: "Pasta", Description: "Quick dinner", UploadIDs: ids("jpg"), Link: "https://example.com/pasta"}), nil},
		{"board name any case", pin(pinterest.Payload{BoardName: "  travel ideas ", UploadIDs: ids("png")}), nil},
		{"carousel of five", pin(pinterest.Payload{UploadIDs: ids("jpg", "jpg2", "jpg", "jpg2", "jpg")}), nil},
		{"video", pin(pinterest.Payload{UploadIDs: ids("mp4")}), nil},
		{"unknown board", pin(pinterest.Payload{BoardName: "Cars", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "boardName")}},
		{"account without boards", withAccount(n, func(a *SocialAccount) { a.Channels = nil }, pin(pinterest.Payload{UploadIDs: ids("jpg")})), []wantIssue{at(IssueCustom, n, "boardName")}},
		{"blank board", pin(pinterest.Payload{BoardName: " ", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidType, n, "boardName")}},
		{"no media", pin(pinterest.Payload{Text: "Pasta"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no media draft", draft(pin(pinterest.Payload{Text: "Pasta"})), nil},
		{"gif", pin(pinterest.Payload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image of 20 MB or more", pin(pinterest.Payload{UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"carousel dimensions differ", pin(pinterest.Payload{UploadIDs: ids("jpg", "jpgOther")}), []wantIssue{at(IssueCustom, n, "uploadIds", 1)}},
		{"video with an image", pin(pinterest.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"video under 4 s", pin(pinterest.Payload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 15 min", pin(pinterest.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", pin(pinterest.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"title 101", pin(pinterest.Payload{Text: strings.Repeat("t", 101), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"six images", pin(pinterest.Payload{UploadIDs: repeat("jpg", 6)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"description 801", pin(pinterest.Payload{Description: strings.Repeat("d", 801), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"alt text 501", pin(pinterest.Payload{AltText: strings.Repeat("d", 501), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "altText")}},
		{"link not a URL", pin(pinterest.Payload{Link: "example", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidString, n, "link")}},
	})
}

func TestPostRulesFacebook(t *testing.T) {
	t.Parallel()
	n := Facebook
	fb := func(p facebook.Payload) PostRuleInput { return post(n, &p) }
	inHours := func(h float64) string {
		return ruleNow.Add(time.Hour + time.Duration(h*float64(time.Hour))).Format(time.RFC3339)
	}
	runRuleCases(t, []ruleCase{
		{"text", fb(facebook.Payload{Text: "Hello"}), nil},
		{"link", fb(facebook.Payload{Link: "https://example.com"}), nil},
		{"photos", fb(facebook.Payload{Text: "Album", UploadIDs: ids("jpg", "png", "gif")}), nil},
		{"video", fb(facebook.Payload{UploadIDs: ids("mp4Wide"), MediaTitle: "Launch"}), nil},
		{"reel", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("mp4")}), nil},
		{"story", fb(facebook.Payload{Type: "STORY", UploadIDs: ids("jpg")}), nil},
		{"native schedule", fb(facebook.Payload{Text: "x", NativeScheduleTime: inHours(2)}), nil},
		{"empty", fb(facebook.Payload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 63,207", fb(facebook.Payload{Text: strings.Repeat("a", 63207)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"eleven photos", fb(facebook.Payload{UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with a photo", fb(facebook.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"photo over 4 MB", fb(facebook.Payload{UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", fb(facebook.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel without video", fb(facebook.Payload{Type: "REEL", Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"reel with a photo", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel of two videos", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"reel over 90 s", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"reel landscape", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel with a link", fb(facebook.Payload{Type: "REEL", UploadIDs: ids("mp4"), Link: "https://example.com"}), []wantIssue{at(IssueCustom, n, "link")}},
		{"story of two", fb(facebook.Payload{Type: "STORY", UploadIDs: ids("jpg", "png")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"story media title", fb(facebook.Payload{Type: "STORY", UploadIDs: ids("mp4"), MediaTitle: "x"}), []wantIssue{at(IssueCustom, n, "mediaTitle")}},
		{"native schedule not a date", fb(facebook.Payload{Text: "x", NativeScheduleTime: "tomorrow"}), []wantIssue{at(IssueInvalidDate, n, "nativeScheduleTime")}},
		{"native schedule before postDate", fb(facebook.Payload{Text: "x", NativeScheduleTime: inHours(-0.5)}), []wantIssue{at(IssueTooSmall, n, "nativeScheduleTime")}},
		{"native schedule 40 days ahead", fb(facebook.Payload{Text: "x", NativeScheduleTime: inHours(40 * 24)}), []wantIssue{at(IssueTooBig, n, "nativeScheduleTime")}},
		{"native schedule in a draft", draft(fb(facebook.Payload{Text: "x", NativeScheduleTime: inHours(-5)})), nil},
	})
}

func TestPostRulesInstagram(t *testing.T) {
	t.Parallel()
	n := Instagram
	ig := func(p instagram.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"square image", ig(instagram.Payload{Text: "Hi #crier", UploadIDs: ids("jpg")}), nil},
		{"portrait image", ig(instagram.Payload{UploadIDs: ids("jpg45")}), nil},
		{"carousel items", ig(instagram.Payload{CarouselItems: []instagram.CarouselItem{{UploadID: "jpg"}, {UploadID: "mp4"}}}), nil},
		{"carousel of ten uploads", ig(instagram.Payload{UploadIDs: repeat("jpg", 10)}), nil},
		{"video post", ig(instagram.Payload{UploadIDs: ids("mp4")}), nil},
		{"reel", ig(instagram.Payload{Type: "REEL", UploadIDs: ids("mov"), TrialParams: &instagram.TrialParams{GraduationStrategy: "MANUAL"}}), nil},
		{"story", ig(instagram.Payload{Type: "STORY", UploadIDs: ids("mp4")}), nil},
		{"wide image auto-fit", ig(instagram.Payload{UploadIDs: ids("jpgWide"), AutoFitImage: true}), nil},
		{"text only", ig(instagram.Payload{Text: "Hi"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"text only draft", draft(ig(instagram.Payload{Text: "Hi"})), nil},
		{"png", ig(instagram.Payload{UploadIDs: ids("png")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", ig(instagram.Payload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", ig(instagram.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 8 MB", ig(instagram.Payload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"wide image", ig(instagram.Payload{UploadIDs: ids("jpgWide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"carousel of one item", ig(instagram.Payload{CarouselItems: []instagram.CarouselItem{{UploadID: "jpg"}}}), []wantIssue{at(IssueTooSmall, n, "carouselItems")}},
		{"carousel of eleven", ig(instagram.Payload{UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"carousel item not found", ig(instagram.Payload{CarouselItems: []instagram.CarouselItem{{UploadID: "jpg"}, {UploadID: "nope"}}}), []wantIssue{at(IssueCustom, n, "carouselItems", 1, "uploadId")}},
		{"carousel items and uploadIds", ig(instagram.Payload{UploadIDs: ids("jpg"), CarouselItems: []instagram.CarouselItem{{UploadID: "jpg"}, {UploadID: "jpg2"}}}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"reel with an image", ig(instagram.Payload{Type: "REEL", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"reel of two", ig(instagram.Payload{Type: "REEL", UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"reel under 3 s", ig(instagram.Payload{Type: "REEL", UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"reel over 300 MB", ig(instagram.Payload{Type: "REEL", UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"story video over 60 s", ig(instagram.Payload{Type: "STORY", UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"story of two", ig(instagram.Payload{Type: "STORY", UploadIDs: ids("jpg", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"caption 2,201", ig(instagram.Payload{Text: strings.Repeat("a", 2201), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"31 hashtags", ig(instagram.Payload{Text: strings.Repeat("#tag ", 31), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"30 hashtags", ig(instagram.Payload{Text: strings.Repeat("#tag ", 30), UploadIDs: ids("jpg")}), nil},
		{"21 mentions", ig(instagram.Payload{Text: strings.Repeat("@someone ", 21), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"trial params on a post", ig(instagram.Payload{UploadIDs: ids("mp4"), TrialParams: &instagram.TrialParams{GraduationStrategy: "MANUAL"}}), []wantIssue{at(IssueCustom, n, "trialParams")}},
	})
}

func TestPostRulesThreads(t *testing.T) {
	t.Parallel()
	n := Threads
	th := func(p threads.Payload) PostRuleInput { return post(n, &p) }
	poll := func(a, b, c, dd string) *threads.Poll {
		return &threads.Poll{OptionA: a, OptionB: b, OptionC: c, OptionD: dd}
	}
	runRuleCases(t, []ruleCase{
		{"text", th(threads.Payload{Text: "Hello"}), nil},
		{"image", th(threads.Payload{UploadIDs: ids("png")}), nil},
		{"carousel", th(threads.Payload{MediaItems: []MediaItem{{UploadID: "jpg"}, {UploadID: "mp4"}}}), nil},
		{"poll", th(threads.Payload{Text: "Which?", Poll: poll("a", "b", "c", "")}), nil},
		{"gif attachment", th(threads.Payload{GIF: &threads.GIF{GIFID: "g1"}}), nil},
		{"link attachment", th(threads.Payload{Text: "Read", LinkAttachment: "https://example.com"}), nil},
		{"500 emoji bytes", th(threads.Payload{Text: strings.Repeat("😀", 125)}), nil},
		{"emoji count their bytes", th(threads.Payload{Text: strings.Repeat("😀", 126)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"501 characters", th(threads.Payload{Text: strings.Repeat("a", 501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"empty", th(threads.Payload{}), []wantIssue{at(IssueCustom, n)}},
		{"21 items", th(threads.Payload{UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"gif upload", th(threads.Payload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", th(threads.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 8 MB", th(threads.Payload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 5 min", th(threads.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video wider than 1920", th(threads.Payload{UploadIDs: ids("mp4Wide4")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"poll with media", th(threads.Payload{Text: "Q", UploadIDs: ids("jpg"), Poll: poll("a", "b", "", "")}), []wantIssue{at(IssueCustom, n, "poll")}},
		{"poll without option A", th(threads.Payload{Text: "Q", Poll: poll(" ", "b", "", "")}), []wantIssue{at(IssueTooSmall, n, "poll", "optionA")}},
		{"poll without option B", th(threads.Payload{Text: "Q", Poll: poll("a", "", "", "")}), []wantIssue{at(IssueTooSmall, n, "poll", "optionB")}},
		{"poll option D without C", th(threads.Payload{Text: "Q", Poll: poll("a", "b", "", "d")}), []wantIssue{at(IssueCustom, n, "poll", "optionD")}},
		{"link attachment with media", th(threads.Payload{UploadIDs: ids("jpg"), LinkAttachment: "https://example.com"}), []wantIssue{at(IssueCustom, n, "linkAttachment")}},
		{"link attachment not a URL", th(threads.Payload{Text: "x", LinkAttachment: "example"}), []wantIssue{at(IssueInvalidString, n, "linkAttachment")}},
		{"five links", th(threads.Payload{Text: "a.com b.com https://c.com/x d.io", LinkAttachment: "https://e.com"}), nil},
		{"six links", th(threads.Payload{Text: "a.com b.com https://c.com/x d.io www.f.org", LinkAttachment: "https://e.com"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"gif with media", th(threads.Payload{UploadIDs: ids("jpg"), GIF: &threads.GIF{GIFID: "g"}}), []wantIssue{at(IssueCustom, n, "gif")}},
	})
}

func TestPostRulesTikTok(t *testing.T) {
	t.Parallel()
	n := TikTok
	tt := func(p tiktok.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"video", tt(tiktok.Payload{Text: "Dance", UploadIDs: ids("mp4"), Privacy: "PUBLIC_TO_EVERYONE"}), nil},
		{"mov video", tt(tiktok.Payload{UploadIDs: ids("mov")}), nil},
		{"photos", tt(tiktok.Payload{Type: "IMAGE", Text: "Trip", UploadIDs: ids("jpg", "jpg45"), PhotoCoverIndex: 1}), nil},
		{"35 photos", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: repeat("jpg", 35)}), nil},
		{"no video", tt(tiktok.Payload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no video draft", draft(tt(tiktok.Payload{Text: "x"})), nil},
		{"photo as video", tt(tiktok.Payload{UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"two videos", tt(tiktok.Payload{UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video under 3 s", tt(tiktok.Payload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 10 min", tt(tiktok.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video under 360 px", tt(tiktok.Payload{UploadIDs: ids("mp4Small")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"title 2,201", tt(tiktok.Payload{Text: strings.Repeat("a", 2201), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"no photos", tt(tiktok.Payload{Type: "IMAGE", Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"36 photos", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: repeat("jpg", 36)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"png photo", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: ids("png")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video in a photo post", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: ids("jpg", "mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 1)}},
		{"photo over 20 MB", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"photo title 91", tt(tiktok.Payload{Type: "IMAGE", Text: strings.Repeat("a", 91), UploadIDs: ids("jpg")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"cover index past the photos", tt(tiktok.Payload{Type: "IMAGE", UploadIDs: ids("jpg", "jpg"), PhotoCoverIndex: 2}), []wantIssue{at(IssueTooBig, n, "photoCoverIndex")}},
		{"private branded content", tt(tiktok.Payload{UploadIDs: ids("mp4"), IsBrandContent: true, Privacy: "SELF_ONLY"}), []wantIssue{at(IssueCustom, n, "privacy")}},
	})
}

func TestPostRulesLinkedIn(t *testing.T) {
	t.Parallel()
	n := LinkedIn
	li := func(p linkedin.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"text", li(linkedin.Payload{Text: "Hello"}), nil},
		{"images", li(linkedin.Payload{Text: "Team", UploadIDs: ids("jpg", "png", "gif")}), nil},
		{"video", li(linkedin.Payload{Text: "Launch", UploadIDs: ids("mp4Wide"), MediaTitle: "Launch"}), nil},
		{"document", li(linkedin.Payload{Text: "Report", UploadIDs: ids("pdf")}), nil},
		{"link", li(linkedin.Payload{Text: "Read", Link: "https://example.com"}), nil},
		{"posts as the member without a page", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, li(linkedin.Payload{Text: "Hi"})), nil},
		{"empty", li(linkedin.Payload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 3,001", li(linkedin.Payload{Text: strings.Repeat("a", 3001)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"video with an image", li(linkedin.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"document with an image", li(linkedin.Payload{UploadIDs: ids("jpg", "pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"21 images", li(linkedin.Payload{UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"mov video", li(linkedin.Payload{UploadIDs: ids("mov")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video under 3 s", li(linkedin.Payload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 500 MB", li(linkedin.Payload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video 3:1", li(linkedin.Payload{UploadIDs: ids("mp4Wide4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image of 48 megapixels", li(linkedin.Payload{UploadIDs: ids("jpgHuge")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"link with media", li(linkedin.Payload{Text: "x", UploadIDs: ids("jpg"), Link: "https://example.com"}), []wantIssue{at(IssueCustom, n, "link")}},
	})
}

func TestPostRulesYouTube(t *testing.T) {
	t.Parallel()
	n := YouTube
	yt := func(p youtube.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"short", yt(youtube.Payload{Text: "My short", UploadIDs: ids("mp4")}), nil},
		{"landscape video", yt(youtube.Payload{Type: "VIDEO", Text: "Talk", Description: "Slides inside", UploadIDs: ids("mp4Long")}), nil},
		{"no video", yt(youtube.Payload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no video draft", draft(yt(youtube.Payload{Text: "x"})), nil},
		{"two videos", yt(youtube.Payload{UploadIDs: ids("mp4", "mp4")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"image", yt(youtube.Payload{UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"landscape short", yt(youtube.Payload{UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"short over 3 min", yt(youtube.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"title 101", yt(youtube.Payload{Text: strings.Repeat("t", 101), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"title with angle brackets", yt(youtube.Payload{Text: "<b>Hi</b>", UploadIDs: ids("mp4")}), []wantIssue{at(IssueInvalidString, n, "text")}},
		{"description over 5,000 bytes", yt(youtube.Payload{Description: strings.Repeat("é", 2501), UploadIDs: ids("mp4")}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"channel not selected", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, yt(youtube.Payload{UploadIDs: ids("mp4")})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
	})
}

func TestPostRulesReddit(t *testing.T) {
	t.Parallel()
	n := Reddit
	rd := func(p reddit.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"self post", rd(reddit.Payload{SR: "r/marketing", Text: "Title", Description: "Body"}), nil},
		{"bare subreddit name", rd(reddit.Payload{SR: "startups", Text: "Title"}), nil},
		{"user profile", rd(reddit.Payload{SR: "u/someone", Text: "Title"}), nil},
		{"link post", rd(reddit.Payload{SR: "marketing", Text: "Title", Link: "https://example.com"}), nil},
		{"gallery", rd(reddit.Payload{SR: "marketing", Text: "Title", UploadIDs: ids("jpg", "png")}), nil},
		{"video", rd(reddit.Payload{SR: "marketing", Text: "Title", UploadIDs: ids("mp4")}), nil},
		{"no subreddit", rd(reddit.Payload{Text: "Title"}), []wantIssue{at(IssueInvalidType, n, "sr")}},
		{"no subreddit draft", draft(rd(reddit.Payload{Text: "Title"})), nil},
		{"subreddit not a name", rd(reddit.Payload{SR: "my sub!", Text: "Title"}), []wantIssue{at(IssueInvalidString, n, "sr")}},
		{"no title", rd(reddit.Payload{SR: "marketing"}), []wantIssue{at(IssueInvalidType, n, "text")}},
		{"title 301", rd(reddit.Payload{SR: "marketing", Text: strings.Repeat("t", 301)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"body 40,001", rd(reddit.Payload{SR: "marketing", Text: "T", Description: strings.Repeat("b", 40001)}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"link with media", rd(reddit.Payload{SR: "marketing", Text: "T", Link: "https://example.com", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "link")}},
		{"video with an image", rd(reddit.Payload{SR: "marketing", Text: "T", UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"21 images", rd(reddit.Payload{SR: "marketing", Text: "T", UploadIDs: repeat("jpg", 21)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"document", rd(reddit.Payload{SR: "marketing", Text: "T", UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"image over 20 MB", rd(reddit.Payload{SR: "marketing", Text: "T", UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 15 min", rd(reddit.Payload{SR: "marketing", Text: "T", UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"subreddit without images", rd(reddit.Payload{SR: "r/TextOnly", Text: "T", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"subreddit without videos", rd(reddit.Payload{SR: "textonly", Text: "T", UploadIDs: ids("mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
	})
}

func TestPostRulesDiscordSlack(t *testing.T) {
	t.Parallel()
	chat := func(n Network, p pubutil.ChatPayload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"discord message", chat(Discord, pubutil.ChatPayload{ChannelID: "d1", Text: "Hello", Username: "Crier"}), nil},
		{"discord files", chat(Discord, pubutil.ChatPayload{ChannelID: "d2", UploadIDs: ids("pdf", "jpg", "mp4")}), nil},
		{"discord unknown channel", chat(Discord, pubutil.ChatPayload{ChannelID: "zzz", Text: "x"}), []wantIssue{at(IssueCustom, Discord, "channelId")}},
		{"discord no channel", chat(Discord, pubutil.ChatPayload{Text: "x"}), []wantIssue{at(IssueInvalidType, Discord, "channelId")}},
		{"discord 2,001", chat(Discord, pubutil.ChatPayload{ChannelID: "d1", Text: strings.Repeat("a", 2001)}), []wantIssue{at(IssueTooBig, Discord, "text")}},
		{"discord 11 files", chat(Discord, pubutil.ChatPayload{ChannelID: "d1", UploadIDs: repeat("jpg", 11)}), []wantIssue{at(IssueTooBig, Discord, "uploadIds")}},
		{"discord empty", chat(Discord, pubutil.ChatPayload{ChannelID: "d1"}), []wantIssue{at(IssueCustom, Discord)}},
		{"discord upload not found", chat(Discord, pubutil.ChatPayload{ChannelID: "d1", UploadIDs: ids("nope")}), []wantIssue{at(IssueCustom, Discord, "uploadIds", 0)}},
		{"slack message", chat(Slack, pubutil.ChatPayload{ChannelID: "C1", Text: strings.Repeat("a", 40000)}), nil},
		{"slack file", chat(Slack, pubutil.ChatPayload{ChannelID: "C1", UploadIDs: ids("pdf")}), nil},
		{"slack unknown channel", chat(Slack, pubutil.ChatPayload{ChannelID: "C9", Text: "x"}), []wantIssue{at(IssueCustom, Slack, "channelId")}},
		{"slack 40,001", chat(Slack, pubutil.ChatPayload{ChannelID: "C1", Text: strings.Repeat("a", 40001)}), []wantIssue{at(IssueTooBig, Slack, "text")}},
		{"slack empty", chat(Slack, pubutil.ChatPayload{ChannelID: "C1", Text: "  "}), []wantIssue{at(IssueCustom, Slack)}},
	})
}

func TestPostRulesMastodon(t *testing.T) {
	t.Parallel()
	n := Mastodon
	md := func(p mastodon.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"text", md(mastodon.Payload{Text: "Hello fediverse", Privacy: "PUBLIC"}), nil},
		{"four images", md(mastodon.Payload{UploadIDs: ids("jpg", "png", "jpg", "png")}), nil},
		{"video", md(mastodon.Payload{Text: "x", UploadIDs: ids("mp4")}), nil},
		{"URL counts 23", md(mastodon.Payload{Text: strings.Repeat("a", 470) + " https://example.com/" + strings.Repeat("p", 80)}), nil},
		{"501 characters", md(mastodon.Payload{Text: strings.Repeat("a", 501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"spoiler counts", md(mastodon.Payload{Text: strings.Repeat("a", 490), Spoiler: "content warning!"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"five images", md(mastodon.Payload{UploadIDs: repeat("jpg", 5)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", md(mastodon.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"gif with an image", md(mastodon.Payload{UploadIDs: ids("gif", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"image over 16 MB", md(mastodon.Payload{UploadIDs: ids("jpgBig")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 99 MB", md(mastodon.Payload{UploadIDs: ids("mp4Long")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"document", md(mastodon.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"empty", md(mastodon.Payload{}), []wantIssue{at(IssueCustom, n)}},
	})
}

func TestPostRulesBluesky(t *testing.T) {
	t.Parallel()
	n := Bluesky
	bs := func(p bluesky.Payload) PostRuleInput { return post(n, &p) }
	family := "👨\u200d👩\u200d👧"
	runRuleCases(t, []ruleCase{
		{"text", bs(bluesky.Payload{Text: "Hello", Tags: []string{"crier"}}), nil},
		{"300 graphemes", bs(bluesky.Payload{Text: strings.Repeat("é", 300)}), nil},
		{"four images", bs(bluesky.Payload{UploadIDs: ids("jpg", "png", "jpg", "png")}), nil},
		{"video", bs(bluesky.Payload{UploadIDs: ids("mp4"), VideoAlt: "a dance"}), nil},
		{"link card", bs(bluesky.Payload{ExternalURL: "https://example.com", ExternalTitle: "Example"}), nil},
		{"quote with media", bs(bluesky.Payload{QuoteURI: "at://did:plc:x/app.bsky.feed.post/1", UploadIDs: ids("jpg")}), nil},
		{"301 graphemes", bs(bluesky.Payload{Text: a300 + "b"}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"over 3,000 bytes", bs(bluesky.Payload{Text: strings.Repeat(family, 200)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"five images", bs(bluesky.Payload{UploadIDs: repeat("jpg", 5)}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video with an image", bs(bluesky.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds")}},
		{"image over 1,000,000 bytes", bs(bluesky.Payload{UploadIDs: ids("jpg1_5")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"gif", bs(bluesky.Payload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video over 3 min", bs(bluesky.Payload{UploadIDs: ids("mp4_4min")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 100 MB", bs(bluesky.Payload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"link card with media", bs(bluesky.Payload{ExternalURL: "https://example.com", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "externalUrl")}},
		{"empty", bs(bluesky.Payload{}), []wantIssue{at(IssueCustom, n)}},
	})
}

func TestPostRulesGoogleBusiness(t *testing.T) {
	t.Parallel()
	n := GoogleBusiness
	gb := func(p googlebusiness.Payload) PostRuleInput { return post(n, &p) }
	start, end := "2026-06-10T18:00:00Z", "2026-06-10T22:00:00Z"
	runRuleCases(t, []ruleCase{
		{"update with a photo", gb(googlebusiness.Payload{Text: "Open late today", UploadIDs: ids("jpg")}), nil},
		{"event", gb(googlebusiness.Payload{TopicType: "EVENT", EventTitle: "Tasting", EventStartDate: start, EventEndDate: end, CallToActionType: "BOOK", CallToActionURL: "https://example.com/book"}), nil},
		{"offer", gb(googlebusiness.Payload{TopicType: "OFFER", Text: "20% off", EventTitle: "Summer sale", EventStartDate: start, EventEndDate: end, OfferCouponCode: "SUMMER", OfferRedeemOnlineURL: "https://example.com/shop"}), nil},
		{"alert", gb(googlebusiness.Payload{TopicType: "ALERT", Text: "Closed Monday", AlertType: "COVID_19"}), nil},
		{"call button", gb(googlebusiness.Payload{Text: "Call us", CallToActionType: "CALL"}), nil},
		{"empty", gb(googlebusiness.Payload{}), []wantIssue{at(IssueCustom, n)}},
		{"text 1,501", gb(googlebusiness.Payload{Text: strings.Repeat("a", 1501)}), []wantIssue{at(IssueTooBig, n, "text")}},
		{"two photos", gb(googlebusiness.Payload{Text: "x", UploadIDs: ids("jpg", "png")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"video", gb(googlebusiness.Payload{Text: "x", UploadIDs: ids("mp4")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", gb(googlebusiness.Payload{Text: "x", UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"photo over 5 MB", gb(googlebusiness.Payload{Text: "x", UploadIDs: ids("jpg6")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"tiny photo", gb(googlebusiness.Payload{Text: "x", UploadIDs: ids("jpgTiny")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0), at(IssueTooSmall, n, "uploadIds", 0)}},
		{"event without details", gb(googlebusiness.Payload{TopicType: "EVENT", Text: "x"}), []wantIssue{at(IssueInvalidType, n, "eventTitle"), at(IssueInvalidType, n, "eventStartDate"), at(IssueInvalidType, n, "eventEndDate")}},
		{"event without details draft", draft(gb(googlebusiness.Payload{TopicType: "EVENT", Text: "x"})), nil},
		{"offer without details", gb(googlebusiness.Payload{TopicType: "OFFER", Text: "x"}), []wantIssue{at(IssueInvalidType, n, "eventTitle"), at(IssueInvalidType, n, "eventStartDate"), at(IssueInvalidType, n, "eventEndDate")}},
		{"event ends before it starts", gb(googlebusiness.Payload{TopicType: "EVENT", EventTitle: "T", EventStartDate: end, EventEndDate: start}), []wantIssue{at(IssueCustom, n, "eventEndDate")}},
		{"event already over", gb(googlebusiness.Payload{TopicType: "EVENT", EventTitle: "T", EventStartDate: "2026-05-01T10:00:00Z", EventEndDate: "2026-05-02T10:00:00Z"}), []wantIssue{at(IssueCustom, n, "eventEndDate")}},
		{"event date not a date", gb(googlebusiness.Payload{TopicType: "EVENT", EventTitle: "T", EventStartDate: "soon", EventEndDate: end}), []wantIssue{at(IssueInvalidDate, n, "eventStartDate")}},
		{"event fields on an update", gb(googlebusiness.Payload{Text: "x", EventTitle: "T"}), []wantIssue{at(IssueCustom, n, "eventTitle")}},
		{"offer fields on an event", gb(googlebusiness.Payload{TopicType: "EVENT", EventTitle: "T", EventStartDate: start, EventEndDate: end, OfferCouponCode: "X"}), []wantIssue{at(IssueCustom, n, "offerCouponCode")}},
		{"button without URL", gb(googlebusiness.Payload{Text: "x", CallToActionType: "LEARN_MORE"}), []wantIssue{at(IssueInvalidType, n, "callToActionUrl")}},
		{"button URL not a URL", gb(googlebusiness.Payload{Text: "x", CallToActionType: "SHOP", CallToActionURL: "shop"}), []wantIssue{at(IssueInvalidString, n, "callToActionUrl")}},
		{"call button with URL", gb(googlebusiness.Payload{Text: "x", CallToActionType: "CALL", CallToActionURL: "https://example.com"}), []wantIssue{at(IssueCustom, n, "callToActionUrl")}},
		{"URL without button", gb(googlebusiness.Payload{Text: "x", CallToActionURL: "https://example.com"}), []wantIssue{at(IssueCustom, n, "callToActionType")}},
		{"location not selected", withAccount(n, func(a *SocialAccount) { a.ProviderPageID = nil }, gb(googlebusiness.Payload{Text: "x"})), []wantIssue{iss(IssueCustom, "socialAccountTypes", 0)}},
	})
}

func TestPostRulesSnapchat(t *testing.T) {
	t.Parallel()
	n := Snapchat
	sc := func(p snapchat.Payload) PostRuleInput { return post(n, &p) }
	runRuleCases(t, []ruleCase{
		{"story video", sc(snapchat.Payload{UploadIDs: ids("mp4")}), nil},
		{"story image", sc(snapchat.Payload{UploadIDs: ids("png")}), nil},
		{"spotlight", sc(snapchat.Payload{Type: "SPOTLIGHT", UploadIDs: ids("mp4"), Description: "#fun"}), nil},
		{"saved story", sc(snapchat.Payload{Type: "SAVED_STORY", UploadIDs: ids("jpg"), Title: "Our week"}), nil},
		{"no media", sc(snapchat.Payload{Text: "x"}), []wantIssue{at(IssueTooSmall, n, "uploadIds")}},
		{"no media draft", draft(sc(snapchat.Payload{Text: "x"})), nil},
		{"two media", sc(snapchat.Payload{UploadIDs: ids("mp4", "jpg")}), []wantIssue{at(IssueTooBig, n, "uploadIds")}},
		{"spotlight image", sc(snapchat.Payload{Type: "SPOTLIGHT", UploadIDs: ids("jpg")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"video under 5 s", sc(snapchat.Payload{UploadIDs: ids("mp4Short")}), []wantIssue{at(IssueTooSmall, n, "uploadIds", 0)}},
		{"video over 60 s", sc(snapchat.Payload{UploadIDs: ids("mp4_100s")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"video over 500 MB", sc(snapchat.Payload{UploadIDs: ids("mp4Big")}), []wantIssue{at(IssueTooBig, n, "uploadIds", 0)}},
		{"landscape video", sc(snapchat.Payload{UploadIDs: ids("mp4Wide")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"mov video", sc(snapchat.Payload{UploadIDs: ids("mov")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"gif", sc(snapchat.Payload{UploadIDs: ids("gif")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"document", sc(snapchat.Payload{UploadIDs: ids("pdf")}), []wantIssue{at(IssueCustom, n, "uploadIds", 0)}},
		{"saved story without title", sc(snapchat.Payload{Type: "SAVED_STORY", UploadIDs: ids("jpg")}), []wantIssue{at(IssueInvalidType, n, "title")}},
		{"title 46", sc(snapchat.Payload{Type: "SAVED_STORY", UploadIDs: ids("jpg"), Title: strings.Repeat("t", 46)}), []wantIssue{at(IssueTooBig, n, "title")}},
		{"description 161", sc(snapchat.Payload{Type: "SPOTLIGHT", UploadIDs: ids("mp4"), Description: strings.Repeat("d", 161)}), []wantIssue{at(IssueTooBig, n, "description")}},
		{"text 161", sc(snapchat.Payload{UploadIDs: ids("mp4"), Text: strings.Repeat("d", 161)}), []wantIssue{at(IssueTooBig, n, "text")}},
	})
}
