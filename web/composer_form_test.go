package web

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/bluesky"
	"github.com/crier/crier/network/facebook"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/linkedin"
	"github.com/crier/crier/network/x"
)

// sampleValue is a value of the kind a field takes, as a person would type it.
func sampleValue(f app.FormField) []string {
	switch f.Kind {
	case app.KindBool:
		return []string{"on"}
	case app.KindSelect, app.KindChecks:
		return []string{f.Options[len(f.Options)-1].Value}
	case app.KindInt:
		return []string{"7"}
	case app.KindNumber:
		return []string{"2.5"}
	case app.KindList:
		return []string{"alpha, beta"}
	case app.KindLines:
		return []string{"Yes\nNo"}
	case app.KindDateTime:
		return []string{"2026-12-01T10:30"}
	case app.KindAltTexts:
		return []string{"A cat\nA dog"}
	case app.KindTags:
		return []string{"ada, 0.25, 0.5"}
	case app.KindURL:
		return []string{"https://example.com/" + f.Key}
	}
	return []string{"value of " + f.Key}
}

// Every field of every network's payload (the spec's table) is read from the form into the typed
// payload, and a saved post's payload fills the same form again.
func TestComposerFormEveryFieldRoundTrips(t *testing.T) {
	t.Parallel()
	paris := mustZone(t, "Europe/Paris")
	for _, n := range app.Networks {
		t.Run(string(n), func(t *testing.T) {
			t.Parallel()
			fields := formFields(n)
			require.NotEmpty(t, fields)
			vals := url.Values{"networks": {string(n)}, "text": {"Shared text"}, "uploadIds": {"u1", "u2"},
				"date": {"2026-12-01"}, "time": {"09:30"}, "title": {"Launch"}}
			for _, f := range fields {
				switch f.Kind {
				case app.KindThread: // two posts, the second with its own media
					vals[fieldName(n, f.Key)] = []string{"Second post", "Third post"}
					vals[threadKeysName(n)] = []string{"0", "1"}
					vals[threadPostName(n, "1", "uploadIds")] = []string{"u3"}
				case app.KindCarousel: // the slides of the media u1, u2
					vals[slideName(n, "u1", "altText")] = []string{"First slide"}
					vals[slideName(n, "u2", "tagged")] = []string{"ada, 0.25, 0.5"}
				default:
					vals[fieldName(n, f.Key)] = sampleValue(f)
				}
			}
			in := readComposer(vals, paris)
			require.Empty(t, in.Errors)
			require.Equal(t, "2026-12-01T08:30:00Z", in.PostDate.UTC().Format(time.RFC3339))
			p := in.Data.Of(n)
			require.NotNil(t, p)
			var m map[string]any
			b, err := json.Marshal(p)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &m))
			for _, f := range fields {
				require.NotNil(t, getPath(m, f.Key), "field %s was lost on the way to the payload", f.Key)
			}
			// Back to the form: the same values.
			back := composerValues(in.Title, &in.Data, in.PostDate, paris)
			for _, f := range fields {
				name := fieldName(n, f.Key)
				want := vals[name]
				switch f.Kind {
				case app.KindThread:
					require.Equal(t, want, back[name])
					require.Equal(t, []string{"0", "1"}, back[threadKeysName(n)])
					require.Empty(t, back[threadPostName(n, "0", "uploadIds")])
					require.Equal(t, []string{"u3"}, back[threadPostName(n, "1", "uploadIds")])
					continue
				case app.KindCarousel:
					for _, k := range []string{slideName(n, "u1", "altText"), slideName(n, "u2", "tagged")} {
						require.Equal(t, vals[k], back[k], k)
					}
					continue
				}
				if f.Key == "text" { // one network: its text is the shared text
					require.Equal(t, want, back["text"])
					require.Empty(t, back[name])
					continue
				}
				require.Equal(t, want, back[name], name)
			}
			require.Equal(t, "2026-12-01", back.Get("date"))
			require.Equal(t, "09:30", back.Get("time"))
		})
	}
}

func TestComposerFormSharedTextAndMedia(t *testing.T) {
	t.Parallel()
	vals := url.Values{
		"networks": {"TWITTER", "LINKEDIN", "BLUESKY", "NOT_A_NETWORK"}, "text": {"Hello world  \n"}, "uploadIds": {"u1", "", "u2"},
		"BLUESKY.text": {"Hello sky"}, "LINKEDIN.uploadIds": {"u3"},
	}
	in := readComposer(vals, time.UTC)
	require.Empty(t, in.Errors)
	require.Nil(t, in.PostDate)
	require.Equal(t, []app.Network{app.Twitter, app.LinkedIn, app.Bluesky}, in.Networks)
	require.Equal(t, "Hello world", in.Title)
	require.Equal(t, "Hello world", x.Of(&in.Data).Text)
	require.Equal(t, []string{"u1", "u2"}, x.Of(&in.Data).UploadIDs)
	require.Equal(t, "Hello world", linkedin.Of(&in.Data).Text)
	require.Equal(t, []string{"u3"}, linkedin.Of(&in.Data).UploadIDs)
	require.Equal(t, "Hello sky", bluesky.Of(&in.Data).Text)
	require.Nil(t, facebook.Of(&in.Data))
	// Instagram's share-to-feed defaults to true: unticked, it says false.
	in = readComposer(url.Values{"networks": {"INSTAGRAM"}}, time.UTC)
	require.NotNil(t, instagram.Of(&in.Data).ShareToFeed)
	require.False(t, *instagram.Of(&in.Data).ShareToFeed)
	// Alt texts make media items of the media, in order.
	in = readComposer(url.Values{"networks": {"TWITTER"}, "uploadIds": {"u1", "u2"}, "TWITTER.mediaItems": {"\nA dog"}}, time.UTC)
	require.Len(t, x.Of(&in.Data).MediaItems, 2)
	require.Nil(t, x.Of(&in.Data).MediaItems[0].AltText)
	require.Equal(t, "A dog", *x.Of(&in.Data).MediaItems[1].AltText)
	require.Empty(t, x.Of(&in.Data).UploadIDs)
	require.Equal(t, []string{"u1", "u2"}, x.Of(&in.Data).Uploads())
}

func TestComposerFormErrorsInPlace(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	in := readComposer(url.Values{"networks": {"TWITTER", "GOOGLE_BUSINESS"}, "date": {"2026-03-08"}, "time": {"02:15"},
		"TWITTER.poll.durationMinutes": {"ten"}, "GOOGLE_BUSINESS.eventStartDate": {"2026-03-08T02:30"}}, ny)
	require.Nil(t, in.PostDate)
	require.Contains(t, in.Errors["time"], "does not exist on that day in America/New_York")
	require.Equal(t, "Enter a whole number", in.Errors["TWITTER.poll.durationMinutes"])
	require.Contains(t, in.Errors["GOOGLE_BUSINESS.eventStartDate"], "America/New_York")
	in = readComposer(url.Values{"date": {"soon"}}, ny)
	require.Contains(t, in.Errors["date"], "Enter a date")
}

func TestComposerIssueFields(t *testing.T) {
	t.Parallel()
	cases := map[string][]any{
		"TWITTER.poll.options":       {"data", "TWITTER", "poll", "options"},
		"TWITTER.thread.3.text":      {"data", "TWITTER", "thread", float64(3), "text"},
		"TWITTER.thread.1.uploadIds": {"data", "TWITTER", "thread", 1, "uploadIds"},
		"TWITTER.thread.0.uploadIds": {"data", "TWITTER", "thread", float64(0), "uploadIds", float64(2)},
		"TWITTER.thread.2":           {"data", "TWITTER", "thread", float64(2)},
		"INSTAGRAM.carouselItems":    {"data", "INSTAGRAM", "carouselItems"},
		"INSTAGRAM.tagged":           {"data", "INSTAGRAM", "tagged", 0, "x"},
		"date":                       {"postDate"},
		"networks":                   {"socialAccountTypes"},
		"uploadIds":                  {"data", "TIKTOK", "uploadIds"},
		"REDDIT":                     {"data", "REDDIT"},
		"PINTEREST.boardName":        {"data", "PINTEREST", "boardName"},
	}
	for want, path := range cases {
		require.Equal(t, want, issueField(path), "%v", path)
	}
}

// A thread's posts carry their own media: the text boxes and keys pair up in order, a post with
// neither text nor media is dropped, and --- inside a post still splits it (its media stay with
// the first part).
func TestComposerThreadPostsWithMedia(t *testing.T) {
	t.Parallel()
	vals := url.Values{"networks": {"TWITTER"}, "text": {"1/"},
		"TWITTER.thread":             {"2/", "", "3/\n---\n4/", "", "  "},
		"TWITTER.thread.key":         {"0", "7", "3", "12", "bad key"},
		"TWITTER.thread.0.uploadIds": {"a", "b"}, "TWITTER.thread.3.uploadIds": {"v"},
		"TWITTER.thread.12.uploadIds": {"c"}, "TWITTER.thread.bad key.uploadIds": {"x"}}
	in := readComposer(vals, time.UTC)
	require.Empty(t, in.Errors)
	require.Equal(t, []x.ThreadTweet{
		{Text: "2/", UploadIDs: []string{"a", "b"}},
		{Text: "3/", UploadIDs: []string{"v"}},
		{Text: "4/"},
		{UploadIDs: []string{"c"}},
	}, x.Of(&in.Data).Thread)

	// The form again: posts keyed 0… in payload order (so issue paths name them), one empty post
	// after them, and the issue at thread[3].uploadIds beside the fourth post's media.
	in.Errors[issueField([]any{"data", "TWITTER", "thread", float64(3), "uploadIds"})] = "X takes up to 4 images"
	posts := threadPosts(app.Twitter, in)
	require.Len(t, posts, 5)
	for i, p := range posts {
		require.Equal(t, strconv.Itoa(i), p.Key)
		require.Equal(t, i+2, p.Number)
		require.Equal(t, "TWITTER.thread."+p.Key+".uploadIds", p.MediaName)
	}
	require.Equal(t, []string{"a", "b"}, posts[0].Media)
	require.Equal(t, "/composer/media?name=TWITTER.thread.0.uploadIds&TWITTER.thread.0.uploadIds=a&TWITTER.thread.0.uploadIds=b", posts[0].MediaURL)
	require.Equal(t, "X takes up to 4 images", posts[3].MediaError)
	require.Empty(t, posts[4].Text)

	// A saved thread fills the same form.
	back := composerValues("T", &in.Data, nil, time.UTC)
	require.Equal(t, []string{"2/", "3/", "4/", ""}, back["TWITTER.thread"])
	require.Equal(t, []string{"0", "1", "2", "3"}, back["TWITTER.thread.key"])
	require.Equal(t, []string{"v"}, back["TWITTER.thread.1.uploadIds"])
	require.Equal(t, []string{"c"}, back["TWITTER.thread.3.uploadIds"])
	again := readComposer(back, time.UTC)
	require.Equal(t, x.Of(&in.Data).Thread, x.Of(&again.Data).Thread)

	require.True(t, pickerName("TWITTER.thread.12.uploadIds"))
	require.True(t, pickerName("LINKEDIN.uploadIds"))
	for _, bad := range []string{"TWITTER.thread.x.uploadIds", "LINKEDIN.thread.1.uploadIds", "TWITTER.thread.1", "uploadIds", "NOPE.uploadIds"} {
		require.False(t, pickerName(bad), bad)
	}
}

// Instagram's slides follow the chosen media: per-slide alt text and tags make carouselItems (two
// or more media), keyed by upload so they survive a reorder; a slide's issue lands on its slide.
func TestComposerInstagramSlides(t *testing.T) {
	t.Parallel()
	vals := url.Values{"networks": {"INSTAGRAM"}, "text": {"Hi"}, "uploadIds": {"u2", "u1", "u3"},
		"INSTAGRAM.slide.u1.altText": {" First "}, "INSTAGRAM.slide.u1.tagged": {"@ada, 0.5, 0.25\nbob, 0, 1"},
		"INSTAGRAM.slide.u9.altText": {"not chosen"}}
	in := readComposer(vals, time.UTC)
	require.Empty(t, in.Errors)
	ig := instagram.Of(&in.Data)
	require.Empty(t, ig.UploadIDs)
	require.Equal(t, []instagram.CarouselItem{
		{UploadID: "u2"},
		{UploadID: "u1", AltText: "First", Tagged: []instagram.Tag{{Username: "ada", X: 0.5, Y: 0.25}, {Username: "bob", X: 0, Y: 1}}},
		{UploadID: "u3"},
	}, ig.CarouselItems)
	require.Equal(t, "INSTAGRAM.slide.u1", in.issueName([]any{"data", "INSTAGRAM", "carouselItems", float64(1), "uploadId"}))
	require.Equal(t, "INSTAGRAM.carouselItems", in.issueName([]any{"data", "INSTAGRAM", "carouselItems"}))

	// No slide values: plain uploadIds. One medium: no carousel (the post-wide fields apply).
	in = readComposer(url.Values{"networks": {"INSTAGRAM"}, "uploadIds": {"u1", "u2"}}, time.UTC)
	require.Nil(t, instagram.Of(&in.Data).CarouselItems)
	require.Equal(t, []string{"u1", "u2"}, instagram.Of(&in.Data).UploadIDs)
	in = readComposer(url.Values{"networks": {"INSTAGRAM"}, "uploadIds": {"u1"}, "INSTAGRAM.slide.u1.altText": {"x"}}, time.UTC)
	require.Nil(t, instagram.Of(&in.Data).CarouselItems)
	// The network's own media make the slides.
	in = readComposer(url.Values{"networks": {"INSTAGRAM"}, "uploadIds": {"u1"}, "INSTAGRAM.uploadIds": {"o1", "o2"},
		"INSTAGRAM.slide.o2.altText": {"Own"}}, time.UTC)
	require.Equal(t, "o2", instagram.Of(&in.Data).CarouselItems[1].UploadID)
	require.Equal(t, "Own", instagram.Of(&in.Data).CarouselItems[1].AltText)

	// A tag that cannot be read is an error beside its slide's tags.
	for _, bad := range []string{"ada", "ada, left, top", "ada, 1.5, 0"} {
		in = readComposer(url.Values{"networks": {"INSTAGRAM"}, "uploadIds": {"u1", "u2"}, "INSTAGRAM.slide.u2.tagged": {bad}}, time.UTC)
		require.NotEmpty(t, in.Errors["INSTAGRAM.slide.u2.tagged"], bad)
	}
}

// A channel field lists the account's destinations as its network's spec says: chat channels by id
// with one leading #, boards and subreddits by name, each name as the network gave it.
func TestComposerChannelOptions(t *testing.T) {
	t.Parallel()
	name := func(s string) *string { return &s }
	channelField := func(n app.Network) app.FormField {
		for _, f := range formFields(n) {
			if f.Kind == app.KindChannel {
				return f
			}
		}
		t.Fatalf("%s has no channel field", n)
		return app.FormField{}
	}
	options := func(n app.Network, chans ...app.Channel) []string {
		var out []string
		for _, o := range channelOptions(channelField(n), &app.SocialAccount{Type: n, Channels: chans}, "")[1:] {
			out = append(out, o.Value+" "+o.Label)
		}
		return out
	}
	require.Equal(t, []string{"C1 #general", "C2 #random"},
		options(app.Slack, app.Channel{ID: "C1", Name: name("#general")}, app.Channel{ID: "C2", Name: name("random")}))
	require.Equal(t, []string{"golang r/golang"}, options(app.Reddit, app.Channel{ID: "t5_1", Name: name("golang")}))
	require.Equal(t, []string{"#goals #goals"}, options(app.Pinterest, app.Channel{ID: "b1", Name: name("#goals")}))
	require.Nil(t, channelOptions(channelField(app.Discord), &app.SocialAccount{Type: app.Discord}, ""), "no channels: the field is typed")
}
