package web

import (
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// sampleValue is a value of the kind a field takes, as a person would type it.
func sampleValue(f netField) []string {
	switch f.Kind {
	case kindBool:
		return []string{"on"}
	case kindSelect, kindChecks:
		return []string{f.Options[len(f.Options)-1]}
	case kindInt:
		return []string{"7"}
	case kindNumber:
		return []string{"2.5"}
	case kindList:
		return []string{"alpha, beta"}
	case kindLines:
		return []string{"Yes\nNo"}
	case kindDateTime:
		return []string{"2026-12-01T10:30"}
	case kindAltTexts:
		return []string{"A cat\nA dog"}
	case kindTags:
		return []string{"ada, 0.25, 0.5"}
	case kindCarousel:
		return []string{"u1, First slide\nu2"}
	case kindThread:
		return []string{"Second post\n---\nThird post"}
	case kindURL:
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
			fields := networkFields[n]
			require.NotEmpty(t, fields)
			vals := url.Values{"networks": {string(n)}, "text": {"Shared text"}, "uploadIds": {"u1", "u2"},
				"date": {"2026-12-01"}, "time": {"09:30"}, "title": {"Launch"}}
			for _, f := range fields {
				vals[fieldName(n, f.Key)] = sampleValue(f)
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
	require.Equal(t, "Hello world", in.Data.Twitter.Text)
	require.Equal(t, []string{"u1", "u2"}, in.Data.Twitter.UploadIDs)
	require.Equal(t, "Hello world", in.Data.LinkedIn.Text)
	require.Equal(t, []string{"u3"}, in.Data.LinkedIn.UploadIDs)
	require.Equal(t, "Hello sky", in.Data.Bluesky.Text)
	require.Nil(t, in.Data.Facebook)
	// Instagram's share-to-feed defaults to true: unticked, it says false.
	in = readComposer(url.Values{"networks": {"INSTAGRAM"}}, time.UTC)
	require.NotNil(t, in.Data.Instagram.ShareToFeed)
	require.False(t, *in.Data.Instagram.ShareToFeed)
	// Alt texts make media items of the media, in order.
	in = readComposer(url.Values{"networks": {"TWITTER"}, "uploadIds": {"u1", "u2"}, "TWITTER.mediaItems": {"\nA dog"}}, time.UTC)
	require.Len(t, in.Data.Twitter.MediaItems, 2)
	require.Nil(t, in.Data.Twitter.MediaItems[0].AltText)
	require.Equal(t, "A dog", *in.Data.Twitter.MediaItems[1].AltText)
	require.Empty(t, in.Data.Twitter.UploadIDs)
	require.Equal(t, []string{"u1", "u2"}, in.Data.Twitter.Uploads())
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
		"TWITTER.poll.options": {"data", "TWITTER", "poll", "options"},
		"TWITTER.thread":       {"data", "TWITTER", "thread", float64(3), "text"},
		"INSTAGRAM.tagged":     {"data", "INSTAGRAM", "tagged", 0, "x"},
		"date":                 {"postDate"},
		"networks":             {"socialAccountTypes"},
		"uploadIds":            {"data", "TIKTOK", "uploadIds"},
		"REDDIT":               {"data", "REDDIT"},
		"PINTEREST.boardName":  {"data", "PINTEREST", "boardName"},
	}
	for want, path := range cases {
		require.Equal(t, want, issueField(path), "%v", path)
	}
}
