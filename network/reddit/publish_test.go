package reddit_test

import (
	"bytes"
	"context"
	"fmt"
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
	"github.com/crier/crier/network/reddit"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
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
	for _, h := range nets.Sandbox.Held(app.Reddit, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Reddit)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Reddit, "alice")
	a := nets.Adapters[app.Reddit]
	a.(*reddit.Adapter).Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pub := a.(app.Publisher)
	login := "alice"
	account := &app.SocialAccount{Username: &login}
	request := func(key, title string, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Reddit, Account: account, Payload: &reddit.Payload{SR: "sandboxtest", Text: title, Description: "Body"}, Media: m}
	}
	mediaCount := func() int { return len(nets.Sandbox.Held(app.Reddit, sandbox.KindMedia)) }

	// A self post.
	p, err := pub.Publish(ctx, tok, request("k1", "Hello from Crier"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.ExternalID, "t3_"), p.ExternalID)
	require.Equal(t, "https://www.reddit.com/r/sandboxtest/comments/"+strings.TrimPrefix(p.ExternalID, "t3_")+"/hello_from_crier/", p.Permalink)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, "Body", held[0].Data["selftext"])

	// A link post with flair and nsfw.
	lp, err := pub.Publish(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "selfhosted", Text: "A link", Link: "https://crier.example/", FlairID: "f1", NSFW: true}})
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 2)
	require.Equal(t, lp.ExternalID, held[1].ID)
	require.Equal(t, "link", held[1].Data["kind"])
	require.Equal(t, true, held[1].Data["nsfw"])

	// An image post: uploaded through the asset lease, its id read back from the user's posts.
	ip, err := pub.Publish(ctx, tok, request("k2", "A picture", media("img1", "image", "image/png", "png", tinyPNG(t))))
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 3)
	require.Equal(t, ip.ExternalID, held[2].ID)
	require.Equal(t, "image", held[2].Data["kind"])
	require.Equal(t, held[2].URL, ip.Permalink)

	// A video post needs a poster.
	vr := request("k3", "A video", media("vid1", "video", "video/mp4", "mp4", tinyMP4()))
	_, err = pub.Publish(ctx, tok, vr)
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	thumb := media("th1", "image", "image/png", "png", tinyPNG(t))
	vr = request("k3", "A video", media("vid1", "video", "video/mp4", "mp4", tinyMP4()))
	vr.Thumbnail = &thumb
	vp, err := pub.Publish(ctx, tok, vr)
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 4)
	require.Equal(t, vp.ExternalID, held[3].ID)
	require.Equal(t, "video", held[3].Data["kind"])
	require.NotEmpty(t, held[3].Data["poster"])

	// Several images make a gallery.
	gp, err := pub.Publish(ctx, tok, request("k4", "A gallery", media("g1", "image", "image/png", "png", tinyPNG(t)), media("g2", "image", "image/png", "png", tinyPNG(t))))
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 5)
	require.Equal(t, gp.ExternalID, held[4].ID)
	require.Len(t, held[4].Media, 2)

	// Resume: an attempt uploaded the image and died; the retry submits with that upload.
	before := mediaCount()
	rr := request("k5", "Resumed picture", media("img2", "image", "image/png", "png", tinyPNG(t)))
	fail(t, nets, `{"status":503,"path":"/api/submit"}`)
	_, err = pub.Publish(ctx, tok, rr)
	require.Equal(t, app.ErrTransient, app.ClassOf(err))
	require.NotEmpty(t, rr.Resume["media.0"])
	rp, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k5", Account: account, Payload: rr.Payload, Media: rr.Media, Resume: rr.Resume})
	require.NoError(t, err)
	require.Equal(t, before+1, mediaCount(), "the image is uploaded once")
	require.Len(t, posts(nets, sandbox.KindPost), 6)

	// Resume after the submit: the post is read back, not submitted again.
	again, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k5", Account: account, Payload: rr.Payload, Media: rr.Media,
		Resume: map[string]string{"startedAt": rr.Resume["startedAt"], "submitted": "1", "media.0": rr.Resume["media.0"]}})
	require.NoError(t, err)
	require.Equal(t, rp.ExternalID, again.ExternalID)
	again, err = pub.Publish(ctx, tok, &app.PublishRequest{Payload: rr.Payload, Resume: map[string]string{"name": rp.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, rp.ExternalID, again.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 6)

	// Find: by checkpoint, by the user's recent posts, none.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "sandboxtest", Text: "Hello from Crier"}, Resume: map[string]string{"name": p.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "sandboxtest", Text: "Hello from Crier"},
		Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	require.Equal(t, p.Permalink, f.Permalink)
	f, err = pub.Find(ctx, tok, request("k9", "never posted"))
	require.NoError(t, err)
	require.Nil(t, f)

	// A comment, and a reply to it.
	c1, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First comment"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(c1.ExternalID, "t1_"))
	require.True(t, strings.HasPrefix(c1.Permalink, p.Permalink), c1.Permalink)
	_, err = a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: c1.ExternalID, Text: "Nested"})
	require.NoError(t, err)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 2)
	require.Equal(t, p.ExternalID, comments[0].Parent)
	require.Equal(t, c1.ExternalID, comments[1].Parent)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{Network: app.Reddit, ExternalID: p.ExternalID}))
	require.Len(t, posts(nets, sandbox.KindPost), 5)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "sandboxtest"}, Resume: map[string]string{"name": p.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 (X-Ratelimit-Reset) and 400.
	fail(t, nets, `{"status":429,"resetInSeconds":30,"path":"/api/submit"}`)
	_, err = pub.Publish(ctx, tok, request("k6", "throttled"))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	fail(t, nets, `{"status":400,"message":"Bad Request","path":"/api/submit"}`)
	_, err = pub.Publish(ctx, tok, request("k7", "refused"))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Bad Request", ne.Message)

	// The twin's own validation, answered in json.errors.
	_, err = pub.Publish(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "nope", Text: "x"}})
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "SUBREDDIT_NOEXIST", ne.Code)
	require.Equal(t, "that subreddit doesn't exist", ne.Message)
	_, err = pub.Publish(ctx, tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "selfhosted", Text: "no flair"}})
	require.ErrorAs(t, err, &ne)
	require.Equal(t, "SUBMIT_VALIDATION_FLAIR_REQUIRED", ne.Code)
	require.Len(t, posts(nets, sandbox.KindPost), 5)
}

// A video post Reddit is still processing (not listed yet) past pubutil.InlineWait ends the
// attempt with app.ErrProcessing (no worker waits); the next attempt, resumed from the
// checkpoints, reads the post back instead of uploading or submitting again.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Reddit, "alice")
	a := nets.Adapters[app.Reddit].(*reddit.Adapter)
	login := "alice"
	thumb := media("th1", "image", "image/png", "png", tinyPNG(t))
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.Reddit, Account: &app.SocialAccount{Username: &login},
		Payload: &reddit.Payload{SR: "sandboxtest", Text: "A slow video"}, Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())},
		Thumbnail: &thumb}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.Equal(t, "1", saved["submitted"])
	uploads := len(nets.Sandbox.Held(app.Reddit, sandbox.KindMedia))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.Reddit, Account: r.Account, Payload: r.Payload, Media: r.Media,
		Thumbnail: r.Thumbnail}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1, "submitted once")
	require.Equal(t, p.ExternalID, held[0].ID)
	require.Equal(t, "video", held[0].Data["kind"])
	require.Equal(t, p.ExternalID, saved["name"])
	require.Len(t, nets.Sandbox.Held(app.Reddit, sandbox.KindMedia), uploads, "the video and poster are uploaded once")
}

// Documented shapes: /api/submit's json answer, /api/media/asset.json's lease, the S3 XML answer,
// /api/info listings, and a RATELIMIT error in json.errors.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var submitted, s3 url.Values
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/submit":
			require.NoError(t, r.ParseForm())
			submitted = r.PostForm
			if r.PostForm.Get("title") == "again" {
				_, _ = w.Write([]byte(`{"json": {"errors": [["RATELIMIT", "Looks like you've been doing that a lot. Take a break for 5 minutes before trying again.", "ratelimit"]]}}`))
				return
			}
			if r.PostForm.Get("kind") == "image" {
				_, _ = w.Write([]byte(`{"json": {"errors": [], "data": {"user_submitted_page": "https://www.reddit.com/user/crier/submitted/", "websocket_url": "wss://ws-078adc7cb2099a9df.wss.redditmedia.com/rte_images/abc123?m=AQAA"}}}`))
				return
			}
			_, _ = w.Write([]byte(`{"json": {"errors": [], "data": {"url": "https://www.reddit.com/r/test/comments/1abcde/hello/", "drafts_count": 0, "id": "1abcde", "name": "t3_1abcde"}}}`))
		case "/api/info":
			if r.URL.Query().Get("id") != "t3_1abcde" {
				_, _ = w.Write([]byte(`{"kind": "Listing", "data": {"after": null, "dist": 0, "children": [], "before": null}}`))
				return
			}
			_, _ = w.Write([]byte(`{"kind": "Listing", "data": {"after": null, "dist": 1, "modhash": null, "geo_filter": "", "children": [{"kind": "t3", "data": {"subreddit": "test", "selftext": "Body", "title": "hello", "name": "t3_1abcde", "id": "1abcde", "author": "crier", "permalink": "/r/test/comments/1abcde/hello/", "url": "https://www.reddit.com/r/test/comments/1abcde/hello/", "created_utc": 1700000000.0}}], "before": null}}`))
		case "/api/media/asset.json":
			_, _ = w.Write([]byte(`{"args": {"action": "` + strings.TrimPrefix(srvURL, "http:") + `/s3", "fields": [{"name": "acl", "value": "private"}, {"name": "key", "value": "rte_images/abc123/img1.png"}, {"name": "x-amz-algorithm", "value": "AWS4-HMAC-SHA256"}, {"name": "policy", "value": "eyJ..."}]}, "asset": {"asset_id": "abc123", "processing_state": "incomplete", "payload": {"filepath": "img1.png"}, "websocket_url": "wss://ws-0a1b.wss.redditmedia.com/rte_images/abc123?m=AQAA"}}`))
		case "/s3":
			require.NoError(t, r.ParseMultipartForm(1<<20))
			s3 = r.MultipartForm.Value
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>https://reddit-uploaded-media.s3-accelerate.amazonaws.com/rte_images%2Fabc123%2Fimg1.png</Location><Bucket>reddit-uploaded-media</Bucket><Key>rte_images/abc123/img1.png</Key><ETag>"d41d8cd98f00b204e9800998ecf8427e"</ETag></PostResponse>`))
		case "/user/crier/submitted":
			_, _ = w.Write([]byte(`{"kind": "Listing", "data": {"children": [{"kind": "t3", "data": {"subreddit": "test", "title": "pic", "name": "t3_2xyz", "id": "2xyz", "author": "crier", "permalink": "/r/test/comments/2xyz/pic/", "created_utc": ` + fmt.Sprint(time.Now().Unix()) + `}}]}}`))
		}
	}))
	defer srv.Close()
	srvURL = srv.URL
	a := reddit.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok := &app.Token{AccessToken: "t"}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "r/test", Text: "hello", Description: "Body"}})
	require.NoError(t, err)
	require.Equal(t, "t3_1abcde", p.ExternalID)
	require.Equal(t, "https://www.reddit.com/r/test/comments/1abcde/hello/", p.Permalink)
	require.Equal(t, "self", submitted.Get("kind"))
	require.Equal(t, "test", submitted.Get("sr"))
	require.Equal(t, "json", submitted.Get("api_type"))

	login := "crier"
	p, err = a.Publish(context.Background(), tok, &app.PublishRequest{Account: &app.SocialAccount{Username: &login}, Payload: &reddit.Payload{SR: "test", Text: "pic"},
		Media: []app.MediaFile{media("img1", "image", "image/png", "png", tinyPNG(t))}})
	require.NoError(t, err)
	require.Equal(t, "t3_2xyz", p.ExternalID)
	require.Equal(t, "rte_images/abc123/img1.png", s3.Get("key"))
	require.Equal(t, "image", submitted.Get("kind"))
	require.Equal(t, "https://reddit-uploaded-media.s3-accelerate.amazonaws.com/rte_images/abc123/img1.png", submitted.Get("url"))

	_, err = a.Publish(context.Background(), tok, &app.PublishRequest{Payload: &reddit.Payload{SR: "test", Text: "again"}})
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "RATELIMIT", ne.Code)
	require.WithinDuration(t, time.Now().Add(5*time.Minute), ne.ResetAt, 5*time.Second)
}
