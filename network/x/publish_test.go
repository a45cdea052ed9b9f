package x_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/network/x"
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
	for _, h := range nets.Sandbox.Held(app.Twitter, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Twitter)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func twt(text string) *x.Payload { return &x.Payload{Text: text} }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Twitter, "alice")
	a := nets.Adapters[app.Twitter]
	a.(*x.Adapter).ChunkSize = 16 // several append segments even for tiny files
	pub := a.(app.Publisher)
	request := func(key string, p *x.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Twitter, Payload: p, Media: m}
	}

	// Text.
	p, err := pub.Publish(ctx, tok, request("k1", twt("Hello from Crier")))
	require.NoError(t, err)
	require.Equal(t, "https://x.com/alice/status/"+p.ExternalID, p.Permalink)
	require.Len(t, posts(nets, sandbox.KindPost), 1)

	// An image (with alt text), a video (processed, polled), a poll with reply settings.
	img := media("img1", "image", "image/png", "png", tinyPNG(t))
	img.AltText = "A red pixel"
	ip, err := pub.Publish(ctx, tok, request("k2", twt("A picture"), img))
	require.NoError(t, err)
	vp, err := pub.Publish(ctx, tok, request("k3", twt("A video"), media("vid1", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	pp, err := pub.Publish(ctx, tok, request("k4", &x.Payload{Text: "Tabs or spaces?", ReplySettings: "FOLLOWING",
		Poll: &x.Poll{Options: []string{"Tabs", "Spaces"}, DurationMinutes: 60}}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 4)
	require.Equal(t, ip.ExternalID, held[1].ID)
	require.Len(t, held[1].Media, 1)
	require.Equal(t, vp.ExternalID, held[2].ID)
	require.Len(t, held[2].Media, 1)
	require.Equal(t, pp.ExternalID, held[3].ID)
	require.Equal(t, "following", held[3].Data["replySettings"])
	uploads := nets.Sandbox.Held(app.Twitter, sandbox.KindMedia)
	require.Len(t, uploads, 2)
	require.Equal(t, "A red pixel", uploads[0].Data["altText"])
	require.Equal(t, "mp4", uploads[1].Data["sniffed"])

	// A thread: one post, the rest replies under it.
	thread := &x.Payload{Text: "Thread 1", Thread: []x.ThreadTweet{{Text: "Thread 2"}, {Text: "Thread 3", UploadIDs: []string{"img1"}}}}
	tp, err := pub.Publish(ctx, tok, request("k5", thread, img))
	require.NoError(t, err)
	require.Len(t, posts(nets, sandbox.KindPost), 5)
	ids := strings.Split(tp.Extra["thread"], ",")
	require.Len(t, ids, 3)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 2)
	require.Equal(t, ids[0], comments[0].Parent)
	require.Equal(t, ids[1], comments[1].Parent)
	require.Len(t, comments[1].Media, 1)

	// A tweet storm: a long text cut into numbered tweets.
	long := strings.Repeat("word ", 120)
	sp, err := pub.Publish(ctx, tok, request("k6", &x.Payload{Text: long, TweetStorm: true, TweetStormNumbering: true}))
	require.NoError(t, err)
	parts := strings.Split(sp.Extra["thread"], ",")
	require.Len(t, parts, 3)
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	require.True(t, strings.HasSuffix(posts(nets, sandbox.KindPost)[5].Text, " 1/3"))

	// Resume: the media and the first tweet of a thread are checkpointed; a crash lost the answer
	// of the second tweet. The retry posts neither again and finishes the thread.
	r := request("k7", &x.Payload{Text: "Resume 1", Thread: []x.ThreadTweet{{Text: "Resume 2"}, {Text: "Resume 3"}}}, img)
	r.Checkpoint = func(_ context.Context, k, _ string) error {
		if k == "tweet.1" {
			return errors.New("worker died")
		}
		return nil
	}
	_, err = pub.Publish(ctx, tok, r)
	require.Error(t, err)
	require.NotEmpty(t, r.Resume["tweet.0"])
	require.NotEmpty(t, r.Resume["media.0.0"])
	delete(r.Resume, "tweet.1") // the checkpoint never made it
	mediaBefore := len(nets.Sandbox.Held(app.Twitter, sandbox.KindMedia))
	commentsBefore := len(posts(nets, sandbox.KindComment))
	r2 := request("k7", r.Payload.(*x.Payload), img)
	r2.Resume = r.Resume
	rp, err := pub.Publish(ctx, tok, r2)
	require.NoError(t, err)
	require.Equal(t, r.Resume["tweet.0"], rp.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 7)
	require.Len(t, posts(nets, sandbox.KindComment), commentsBefore+1, "Resume 2 found on the timeline, only Resume 3 posted")
	require.Len(t, nets.Sandbox.Held(app.Twitter, sandbox.KindMedia), mediaBefore, "the checkpointed media is reused")

	// Find: by checkpoint, by recent tweets, none; a half-done thread is left to Publish.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: twt("Hello from Crier"), Resume: map[string]string{"tweet.0": p.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: twt("Hello from Crier"), Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	require.Equal(t, p.Permalink, f.Permalink)
	f, err = pub.Find(ctx, tok, request("k9", twt("never posted")))
	require.NoError(t, err)
	require.Nil(t, f)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: thread, Media: []app.MediaFile{img}, Resume: map[string]string{"tweet.0": ids[0]}})
	require.NoError(t, err)
	require.Nil(t, f)

	// A reply.
	before := len(posts(nets, sandbox.KindComment))
	rep, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, Text: "First comment"})
	require.NoError(t, err)
	comments = posts(nets, sandbox.KindComment)
	require.Len(t, comments, before+1)
	require.Equal(t, rep.ExternalID, comments[before].ID)
	require.Equal(t, p.ExternalID, comments[before].Parent)

	// Delete: a thread goes with all its tweets.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{ExternalID: tp.ExternalID, Extra: tp.Extra}))
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	require.Len(t, posts(nets, sandbox.KindComment), before-1)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: twt("Thread 1"), Resume: map[string]string{"tweet.0": tp.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 (x-rate-limit-reset) and X's refusals, verbatim.
	fail(t, nets, `{"status":429,"resetInSeconds":30,"path":"/2/tweets"}`)
	_, err = pub.Publish(ctx, tok, request("k10", twt("throttled")))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	fail(t, nets, `{"status":400,"code":"Invalid Request","message":"One or more parameters to your request was invalid.","path":"/2/tweets"}`)
	_, err = pub.Publish(ctx, tok, request("k11", twt("refused")))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "One or more parameters to your request was invalid.", ne.Message)
	_, err = pub.Publish(ctx, tok, request("k12", twt("Hello from Crier")))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "You are not allowed to create a Tweet with duplicate content.", ne.Message)
	_, err = pub.Publish(ctx, tok, request("k13", twt(strings.Repeat("x", 281))))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, "You are not permitted to perform this action.", ne.Message)
	require.Len(t, posts(nets, sandbox.KindPost), 6)
}

// A video still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing (no
// worker waits); the next attempt, resumed from the checkpoints, polls the same media and posts
// the tweet once.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Twitter, "alice")
	a := nets.Adapters[app.Twitter].(*x.Adapter)
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.Twitter, Payload: twt("A slow video"),
		Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())}}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.NotEmpty(t, saved["processing.media.0.0"])
	require.Empty(t, posts(nets, sandbox.KindPost))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.Twitter, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, p.ExternalID, held[0].ID)
	require.Equal(t, []string{saved["processing.media.0.0"]}, held[0].Media)
	require.Len(t, nets.Sandbox.Held(app.Twitter, sandbox.KindMedia), 1, "the video is uploaded once")
}

// X's check_after_secs sets the pause when it is longer than the Poller's: the attempt yields until then.
func TestCheckAfterSecsHonoured(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/initialize"):
			_, _ = w.Write([]byte(`{"data":{"id":"77","media_key":"7_77"}}`))
		case strings.HasSuffix(r.URL.Path, "/append"):
			w.WriteHeader(http.StatusNoContent)
		case strings.HasSuffix(r.URL.Path, "/finalize"):
			_, _ = w.Write([]byte(`{"data":{"id":"77","media_key":"7_77","processing_info":{"state":"pending","check_after_secs":30}}}`))
		case r.URL.Path == "/2/users/me":
			_, _ = w.Write([]byte(`{"data":{"id":"1","username":"alice","name":"Alice"}}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	defer srv.Close()
	a := x.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	r := &app.PublishRequest{Payload: twt("Video"), Media: []app.MediaFile{media("v", "video", "video/mp4", "mp4", tinyMP4())}}
	_, err := a.Publish(context.Background(), &app.Token{AccessToken: "U"}, r)
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrProcessing, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 2*time.Second)
	require.Equal(t, "77", r.Resume["processing.media.0.0"])
}

// Processing that fails is permanent and forgets the media: a retry uploads the file again.
func TestFailedProcessingForgetsTheMedia(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/initialize"):
			_, _ = w.Write([]byte(`{"data":{"id":"77","media_key":"7_77"}}`))
		case strings.HasSuffix(r.URL.Path, "/append"):
			w.WriteHeader(http.StatusNoContent)
		case strings.HasSuffix(r.URL.Path, "/finalize"):
			_, _ = w.Write([]byte(`{"data":{"id":"77","media_key":"7_77","processing_info":{"state":"pending","check_after_secs":0}}}`))
		case r.URL.Path == "/2/media/upload":
			_, _ = w.Write([]byte(`{"data":{"id":"77","processing_info":{"state":"failed","error":{"code":1,"name":"InvalidMedia","message":"Invalid or Unsupported media"}}}}`))
		case r.URL.Path == "/2/users/me":
			_, _ = w.Write([]byte(`{"data":{"id":"1","username":"alice","name":"Alice"}}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	defer srv.Close()
	a := x.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	r := &app.PublishRequest{Payload: twt("Video"), Media: []app.MediaFile{media("v", "video", "video/mp4", "mp4", tinyMP4())}}
	_, err := a.Publish(context.Background(), &app.Token{AccessToken: "U"}, r)
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Invalid or Unsupported media", ne.Message)
	require.Empty(t, r.Resume["processing.media.0.0"])
}

func TestWeightedLengthAndStorm(t *testing.T) {
	t.Parallel()
	require.Equal(t, 5, x.WeightedLength("hello"))
	require.Equal(t, 23+1, x.WeightedLength("https://example.com/a/very/long/path?q=1 "))
	require.Equal(t, 4, x.WeightedLength("日本"))
	parts := x.SplitStorm(strings.Repeat("abc ", 200), 280, true)
	for _, p := range parts {
		require.LessOrEqual(t, x.WeightedLength(p), 280)
	}
	require.True(t, strings.HasSuffix(parts[0], " 1/3"), parts[0])
}

// Documented shapes (docs.x.com): the v2 media upload initialize/append/finalize/STATUS answers,
// POST /2/tweets' 201 answer, GET /2/tweets/:id's Not Found error, DELETE's {deleted:true}.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var tweetBody map[string]any
	var appended []byte
	statusCalls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/2/users/me":
			_, _ = w.Write([]byte(`{"data":{"id":"2244994945","name":"X Dev","username":"XDevelopers"}}`))
		case r.URL.Path == "/2/media/upload/initialize":
			var in map[string]any
			require.NoError(t, json.NewDecoder(r.Body).Decode(&in))
			require.Equal(t, "tweet_video", in["media_category"])
			_, _ = w.Write([]byte(`{"data":{"id":"1880028106020515840","media_key":"13_1880028106020515840","expires_after_secs":1295999}}`))
		case r.URL.Path == "/2/media/upload/1880028106020515840/append":
			require.NoError(t, r.ParseMultipartForm(1<<20))
			f, _, err := r.FormFile("media")
			require.NoError(t, err)
			b, _ := io.ReadAll(f)
			appended = append(appended, b...)
			_, _ = w.Write([]byte(`{"data":{"expires_at":1735689600}}`))
		case r.URL.Path == "/2/media/upload/1880028106020515840/finalize":
			_, _ = w.Write([]byte(`{"data":{"id":"1880028106020515840","media_key":"13_1880028106020515840","size":1024,"expires_after_secs":86400,"processing_info":{"state":"pending","check_after_secs":1}}}`))
		case r.URL.Path == "/2/media/upload" && r.URL.Query().Get("command") == "STATUS":
			statusCalls++
			_, _ = w.Write([]byte(`{"data":{"id":"1880028106020515840","media_key":"13_1880028106020515840","processing_info":{"state":"succeeded","progress_percent":100}}}`))
		case r.URL.Path == "/2/tweets" && r.Method == http.MethodPost:
			require.NoError(t, json.NewDecoder(r.Body).Decode(&tweetBody))
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"data":{"id":"1445880548472328192","text":"Hello world!","edit_history_tweet_ids":["1445880548472328192"]}}`))
		case r.URL.Path == "/2/tweets/1" && r.Method == http.MethodGet:
			_, _ = w.Write([]byte(`{"errors":[{"value":"1","detail":"Could not find tweet with id: [1].","title":"Not Found Error","resource_type":"tweet","parameter":"id","resource_id":"1","type":"https://api.twitter.com/2/problems/resource-not-found"}]}`))
		case strings.HasPrefix(r.URL.Path, "/2/tweets/") && r.Method == http.MethodDelete:
			_, _ = w.Write([]byte(`{"data":{"deleted":true}}`))
		}
	}))
	defer srv.Close()
	a := x.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok := &app.Token{AccessToken: "t"}
	vid := tinyMP4()
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Payload: &x.Payload{Text: "Hello world!", QuoteTweetID: "20"},
		Media: []app.MediaFile{media("v", "video", "video/mp4", "mp4", vid)}})
	require.NoError(t, err)
	require.Equal(t, "1445880548472328192", p.ExternalID)
	require.Equal(t, "https://x.com/XDevelopers/status/1445880548472328192", p.Permalink)
	require.Equal(t, vid, appended)
	require.Equal(t, 1, statusCalls)
	require.Equal(t, map[string]any{"media_ids": []any{"1880028106020515840"}}, tweetBody["media"])
	require.Equal(t, "20", tweetBody["quote_tweet_id"])
	f, err := a.Find(context.Background(), tok, &app.PublishRequest{Payload: &x.Payload{Text: "x"}, Resume: map[string]string{"tweet.0": "1"}})
	require.NoError(t, err)
	require.Nil(t, f)
	require.NoError(t, a.Delete(context.Background(), tok, &app.DeleteRequest{ExternalID: "1445880548472328192"}))
}
