package threads_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/network/threads"
)

func tinyPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// tinyMP4 is an ISO BMFF file: an ftyp box and an empty mdat box.
func tinyMP4() []byte {
	return append([]byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isommp41"), []byte("\x00\x00\x00\x08mdat")...)
}

func media(id, typ, mime, ext string, b []byte) app.MediaFile {
	return app.MediaFile{UploadID: id, Type: typ, Mime: mime, Ext: ext, Size: int64(len(b)), Width: 2, Height: 2,
		URL:  "https://media.crier.invalid/" + id + "." + ext,
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
}

func posts(nets *sandboxtest.Networks, kind string) []sandbox.Held {
	var out []sandbox.Held
	for _, h := range nets.Sandbox.Held(app.Threads, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Threads)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func th(text string) *threads.Payload { return &threads.Payload{Text: text} }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Threads, "alice")
	a := nets.Adapters[app.Threads]
	a.(*threads.Adapter).Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pub := a.(app.Publisher)
	request := func(key string, p *threads.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Threads, Payload: p, Media: m}
	}
	containers := func() []sandbox.Held { return nets.Sandbox.Held(app.Threads, sandbox.KindMedia) }

	// Text with reply control, topic tag and a link attachment.
	p, err := pub.Publish(ctx, tok, request("k1", &threads.Payload{Text: "Hello from Crier", ReplyControl: "ACCOUNTS_YOU_FOLLOW", TopicTag: "#crier", LinkAttachment: "https://crier.example/"}))
	require.NoError(t, err)
	require.NotEmpty(t, p.ExternalID)
	require.Regexp(t, `^https://www\.threads\.com/@alice/post/[A-Z0-9]+$`, p.Permalink)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, "accounts_you_follow", held[0].Data["replyControl"])
	require.Equal(t, "crier", held[0].Data["topicTag"])

	// A poll; an image (pulled by URL, not fetched); a video (processing polled); a carousel.
	_, err = pub.Publish(ctx, tok, request("k2", &threads.Payload{Text: "Tabs?", Poll: &threads.Poll{OptionA: "Tabs", OptionB: "Spaces"}}))
	require.NoError(t, err)
	img := media("img1", "image", "image/png", "png", tinyPNG(t))
	img.AltText = "A red pixel"
	ip, err := pub.Publish(ctx, tok, request("k3", th("A picture"), img))
	require.NoError(t, err)
	vp, err := pub.Publish(ctx, tok, request("k4", th("A video"), media("vid1", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	cp, err := pub.Publish(ctx, tok, request("k5", th("A carousel"), img, media("vid2", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 5)
	require.NotEmpty(t, held[1].Data["poll"])
	require.Equal(t, ip.ExternalID, held[2].ID)
	require.Equal(t, []string{img.URL}, held[2].Media)
	require.Equal(t, vp.ExternalID, held[3].ID)
	require.Equal(t, "VIDEO", held[3].Data["mediaType"])
	require.Equal(t, cp.ExternalID, held[4].ID)
	require.Len(t, held[4].Media, 2)
	require.Equal(t, "CAROUSEL", held[4].Data["mediaType"])

	// Resume: the carousel items are checkpointed, so only the carousel container is created.
	r := request("k6", th("Resumed carousel"), img, img)
	r.Checkpoint = func(_ context.Context, k, _ string) error {
		if k == "container" {
			return errors.New("worker died")
		}
		return nil
	}
	_, err = pub.Publish(ctx, tok, r)
	require.Error(t, err)
	n := len(containers())
	rp, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k6", Payload: r.Payload, Media: r.Media, Resume: map[string]string{"child.0": r.Resume["child.0"], "child.1": r.Resume["child.1"]}})
	require.NoError(t, err)
	require.Len(t, containers(), n+1)
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	// Resume after the publish whose answer was lost: the container is PUBLISHED, the post is looked up.
	r = request("k7", th("Lost answer"))
	r.Checkpoint = func(_ context.Context, k, _ string) error {
		if k == "post" {
			return errors.New("worker died")
		}
		return nil
	}
	_, err = pub.Publish(ctx, tok, r)
	require.Error(t, err)
	again, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k7", Payload: r.Payload, Resume: map[string]string{"container": r.Resume["container"], "startedAt": r.Resume["startedAt"]}})
	require.NoError(t, err)
	require.Equal(t, r.Resume["post"], again.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 7)
	require.NotEqual(t, rp.ExternalID, again.ExternalID)

	// Find: by checkpoint, by recent threads, none.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: th("x"), Resume: map[string]string{"post": p.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	require.Equal(t, p.Permalink, f.Permalink)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: th("A picture"), Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, ip.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, request("k9", th("never posted")))
	require.NoError(t, err)
	require.Nil(t, f)

	// A reply.
	c, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, Text: "First comment"})
	require.NoError(t, err)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 1)
	require.Equal(t, c.ExternalID, comments[0].ID)
	require.Equal(t, p.ExternalID, comments[0].Parent)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{ExternalID: ip.ExternalID}))
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: th("A picture"), Resume: map[string]string{"post": ip.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 (Graph code 32 with the usage header's regain time) and 400, verbatim.
	fail(t, nets, `{"status":429,"resetInSeconds":120,"path":"/threads"}`)
	_, err = pub.Publish(ctx, tok, request("k10", th("throttled")))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(2*time.Minute), ne.ResetAt, 5*time.Second)
	fail(t, nets, `{"status":400,"code":"100","message":"Invalid parameter","path":"/threads"}`)
	_, err = pub.Publish(ctx, tok, request("k11", th("refused")))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Invalid parameter", ne.Message)
	// The twin's own validation.
	_, err = pub.Publish(ctx, tok, request("k12", th(strings.Repeat("a", 501))))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "The text is too long. The maximum length is 500 characters.", ne.Message)
	require.Len(t, posts(nets, sandbox.KindPost), 6)
}

// A video container still processing past pubutil.InlineWait ends the attempt with
// app.ErrProcessing (no worker waits); the next attempt, resumed from the checkpoints, polls the
// same container and publishes it once.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Threads, "alice")
	a := nets.Adapters[app.Threads].(*threads.Adapter)
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.Threads, Payload: th("A slow video"),
		Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())}}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.NotEmpty(t, saved["container"])
	require.Empty(t, posts(nets, sandbox.KindPost))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.Threads, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, p.ExternalID, held[0].ID)
	require.Len(t, nets.Sandbox.Held(app.Threads, sandbox.KindMedia), 1, "one container, made once")
	require.Equal(t, p.ExternalID, saved["post"])
}

// Documented shapes (developers.facebook.com/docs/threads): the container and publish answers
// {id}, the container status, the permalink field, and a Graph error.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var form url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/v1.0/1234/threads" && r.Method == http.MethodPost:
			require.NoError(t, r.ParseForm())
			form = r.PostForm
			_, _ = w.Write([]byte(`{"id":"1234567"}`))
		case r.URL.Path == "/v1.0/1234567":
			_, _ = w.Write([]byte(`{"status":"FINISHED","id":"1234567"}`))
		case r.URL.Path == "/v1.0/1234/threads_publish":
			require.NoError(t, r.ParseForm())
			require.Equal(t, "1234567", r.PostForm.Get("creation_id"))
			_, _ = w.Write([]byte(`{"id":"1234567890"}`))
		case r.URL.Path == "/v1.0/1234567890":
			_, _ = w.Write([]byte(`{"id":"1234567890","permalink":"https://www.threads.net/@threadsapitestuser/post/abcdefg","text":"Hello","timestamp":"2023-10-17T05:42:03+0000"}`))
		case r.URL.Path == "/v1.0/404":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"Unsupported get request. Object with ID '404' does not exist, cannot be loaded due to missing permissions, or does not support this operation","type":"GraphMethodException","code":100,"error_subcode":33,"fbtrace_id":"AbCdEf"}}`))
		}
	}))
	defer srv.Close()
	a := threads.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	uid := "1234"
	tok := &app.Token{AccessToken: "t"}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Account: &app.SocialAccount{ExternalID: &uid}, Payload: th("Hello"),
		Media: []app.MediaFile{{UploadID: "i", Type: "image", Mime: "image/jpeg", URL: "https://media.crier.example/i.jpg"}}})
	require.NoError(t, err)
	require.Equal(t, "1234567890", p.ExternalID)
	require.Equal(t, "https://www.threads.net/@threadsapitestuser/post/abcdefg", p.Permalink)
	require.Equal(t, "IMAGE", form.Get("media_type"))
	require.Equal(t, "https://media.crier.example/i.jpg", form.Get("image_url"))
	f, err := a.Find(context.Background(), tok, &app.PublishRequest{Payload: th("x"), Resume: map[string]string{"post": "404"}})
	require.NoError(t, err)
	require.Nil(t, f)
}
