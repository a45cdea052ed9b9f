package youtube_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/network/youtube"
)

// failingVideo is an upload whose reader breaks after n bytes (a worker dying mid-upload).
func failingVideo(b []byte, n int) app.MediaFile {
	m := sandboxtest.File("big", "video", "video/mp4", "mp4", b)
	m.Open = func(context.Context) (io.ReadCloser, error) {
		return io.NopCloser(io.MultiReader(bytes.NewReader(b[:n]), errReader{})), nil
	}
	return m
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("worker died") }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.YouTube, "alice")
	a := nets.Adapters[app.YouTube].(*youtube.Adapter)
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	ch := &chans[0]
	request := func(pl *youtube.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.YouTube, Channel: ch, Payload: pl, Media: m}
	}
	count := func() int { return len(nets.Posts(app.YouTube, "alice")) }

	cp := sandboxtest.Checkpoints{}
	pl := &youtube.Payload{Type: "VIDEO", Text: "How we knead", Description: "Step by step", Privacy: "UNLISTED", MadeForKids: false}
	found, err := a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Nil(t, found)

	thumb := sandboxtest.Image("th")
	req := cp.Wire(request(pl, sandboxtest.Video("v1")))
	req.Thumbnail = &thumb
	p, err := a.Publish(ctx, tok, req)
	require.NoError(t, err)
	require.Len(t, p.ExternalID, 11)
	require.Equal(t, "https://www.youtube.com/watch?v="+p.ExternalID, p.Permalink)
	require.Equal(t, 1, count())
	h := nets.Posts(app.YouTube, "alice")[0]
	require.Equal(t, "How we knead", h.Text)
	require.Equal(t, "unlisted", h.Data["status"].(map[string]any)["privacyStatus"])
	require.NotEmpty(t, h.Data["thumbnail"])
	require.Empty(t, p.Extra["thumbnailError"])

	// Resume and Find: the same video.
	again, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	found, err = a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	// Only the session is known (the final answer was lost): the session answers the video.
	lost := sandboxtest.Checkpoints{"youtube.session": cp["youtube.session"]}
	found, err = a.Find(ctx, tok, lost.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	again, err = a.Publish(ctx, tok, lost.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Equal(t, 1, count())

	// A worker dying mid-upload: the retry resumes the session from the byte YouTube has.
	a.ChunkSize = 256 * 1024
	big := bytes.Repeat([]byte("0123456789abcdef"), 40*1024) // 640 KiB: three chunks
	rcp := sandboxtest.Checkpoints{}
	short := &youtube.Payload{Text: "Short one"}
	_, err = a.Publish(ctx, tok, rcp.Wire(request(short, failingVideo(big, 300*1024))))
	require.Error(t, err)
	require.NotEmpty(t, rcp["youtube.session"])
	found, err = a.Find(ctx, tok, rcp.Wire(request(short, sandboxtest.File("big", "video", "video/mp4", "mp4", big))))
	require.NoError(t, err)
	require.Nil(t, found, "an incomplete upload is no video")
	s, err := a.Publish(ctx, tok, rcp.Wire(request(short, sandboxtest.File("big", "video", "video/mp4", "mp4", big))))
	require.NoError(t, err)
	require.Equal(t, "https://www.youtube.com/shorts/"+s.ExternalID, s.Permalink)
	require.Equal(t, 2, count())
	sessions := 0
	for _, m := range nets.Sandbox.Held(app.YouTube, sandbox.KindMedia) {
		if m.Data["received"] == int64(len(big)) {
			sessions++
		}
	}
	require.Equal(t, 1, sessions, "one session carried every byte once")
	require.Contains(t, nets.Posts(app.YouTube, "alice")[1].Data["snippet"].(map[string]any)["description"], "#Shorts")

	// Comments: a thread on the video, a reply to it.
	c, err := a.Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "Recipe in the description"})
	require.NoError(t, err)
	require.Equal(t, "https://www.youtube.com/watch?v="+p.ExternalID+"&lc="+c.ExternalID, c.Permalink)
	r, err := a.Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: c.ExternalID, ParentExtra: c.Extra, Text: "Thanks"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(r.ExternalID, c.ExternalID+"."))
	require.Len(t, nets.Sandbox.Held(app.YouTube, sandbox.KindComment), 2)

	// Delete.
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{ExternalID: s.ExternalID}))
	require.Equal(t, 1, count())

	// Permanent: Google's message verbatim. Not a video: refused.
	_, err = a.Publish(ctx, tok, request(&youtube.Payload{Text: "a <b> title"}, sandboxtest.Video("x")))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "invalidTitle", ne.Code)
	require.Equal(t, "The request metadata specifies an invalid video title.", ne.Message)
	_, err = a.Publish(ctx, tok, request(&youtube.Payload{Text: "img"}, sandboxtest.Image("x")))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	other := request(&youtube.Payload{Text: "elsewhere"}, sandboxtest.Video("x"))
	other.Channel = &app.Channel{ID: "UCsomeoneelse"}
	_, err = a.Publish(ctx, tok, other)
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))

	// 429 with Retry-After; quotaExceeded until Pacific midnight.
	nets.Fail(t, app.YouTube, `{"status":429,"message":"Too many requests","resetInSeconds":20,"path":"/upload/youtube/v3/videos"}`)
	_, err = a.Publish(ctx, tok, request(&youtube.Payload{Text: "later"}, sandboxtest.Video("l")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(20*time.Second), ne.ResetAt, 3*time.Second)
	nets.Fail(t, app.YouTube, `{"status":403,"code":"quotaExceeded","message":"The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.","path":"/upload/youtube/v3/videos"}`)
	_, err = a.Publish(ctx, tok, request(&youtube.Payload{Text: "later"}, sandboxtest.Video("l")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.True(t, ne.ResetAt.After(time.Now()))
	require.Equal(t, 1, count())
}

// Documented shapes of the resumable upload: Location on the initiation, 308 with Range, the
// Video on the final chunk; thumbnails.set.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	var got []byte
	var meta string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "Bearer ya29.x", r.Header.Get("Authorization"))
		b, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/upload/youtube/v3/videos":
			require.Equal(t, "resumable", r.URL.Query().Get("uploadType"))
			require.Equal(t, "524288", r.Header.Get("X-Upload-Content-Length"))
			meta = string(b)
			w.Header().Set("Location", srv.URL+"/upload/youtube/v3/videos?uploadType=resumable&upload_id=xa298sd_f&part=snippet,status")
			w.WriteHeader(200)
		case r.Method == http.MethodPut && r.URL.Query().Get("upload_id") == "xa298sd_f":
			got = append(got, b...)
			if len(got) < 524288 {
				require.Equal(t, "bytes 0-262143/524288", r.Header.Get("Content-Range"))
				w.Header().Set("Range", "bytes=0-262143")
				w.WriteHeader(308)
				return
			}
			require.Equal(t, "bytes 262144-524287/524288", r.Header.Get("Content-Range"))
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"kind":"youtube#video","etag":"x","id":"dQw4w9WgXcQ","snippet":{"title":"T","channelId":"UC1"},"status":{"uploadStatus":"uploaded","privacyStatus":"private"}}`))
		case r.URL.Path == "/upload/youtube/v3/thumbnails/set":
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":{"code":403,"message":"The authenticated user doesnt have permissions to upload and set custom video thumbnails.","errors":[{"message":"The authenticated user doesnt have permissions to upload and set custom video thumbnails.","domain":"youtube.thumbnail","reason":"forbidden"}]}}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL)
		}
	}))
	defer srv.Close()
	a := youtube.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	a.ChunkSize = 256 * 1024
	thumb := sandboxtest.Image("t")
	p, err := a.Publish(context.Background(), &app.Token{AccessToken: "ya29.x"}, &app.PublishRequest{
		Payload: &youtube.Payload{Type: "VIDEO", Text: "T", Privacy: "PRIVATE", MadeForKids: true, DefaultLanguage: "en"},
		Media:   []app.MediaFile{sandboxtest.File("v", "video", "video/mp4", "mp4", make([]byte, 524288))}, Thumbnail: &thumb})
	require.NoError(t, err)
	require.Equal(t, "dQw4w9WgXcQ", p.ExternalID)
	require.Equal(t, "https://www.youtube.com/watch?v=dQw4w9WgXcQ", p.Permalink)
	require.Len(t, got, 524288)
	require.Contains(t, meta, `"privacyStatus":"private"`)
	require.Contains(t, meta, `"selfDeclaredMadeForKids":true`)
	require.Contains(t, meta, `"defaultLanguage":"en"`)
	require.Contains(t, p.Extra["thumbnailError"], "permissions to upload and set custom video thumbnails")
}
