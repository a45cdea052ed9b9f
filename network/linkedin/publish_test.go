package linkedin_test

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
	"github.com/crier/crier/network/linkedin"
	"github.com/crier/crier/network/pubutil"
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
	for _, h := range nets.Sandbox.Held(app.LinkedIn, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.LinkedIn)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func li(text string) *linkedin.Payload { return &linkedin.Payload{Text: text} }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.LinkedIn, "alice")
	a := nets.Adapters[app.LinkedIn]
	a.(*linkedin.Adapter).Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pub := a.(app.Publisher)
	prof, err := a.Profile(ctx, tok)
	require.NoError(t, err)
	person := "urn:li:person:" + prof.ExternalID
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	page := chans[0]
	request := func(key string, p *linkedin.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.LinkedIn, Payload: p, Media: m}
	}

	// Text as the member (little-text escaped), and as a Company Page with options.
	p, err := pub.Publish(ctx, tok, request("k1", li("Hello (from) Crier #launch")))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.ExternalID, "urn:li:share:"), p.ExternalID)
	require.Equal(t, "https://www.linkedin.com/feed/update/"+p.ExternalID, p.Permalink)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, `Hello \(from\) Crier \#launch`, held[0].Text)
	require.Equal(t, person, held[0].Channel)
	pr := request("k2", &linkedin.Payload{Text: "Page post", Privacy: "CONNECTIONS", HideFromFeed: true, DisableReshare: true})
	pr.Channel = &page
	_, err = pub.Publish(ctx, tok, pr)
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Equal(t, "urn:li:organization:"+page.ID, held[1].Channel)
	require.Equal(t, "CONNECTIONS", held[1].Data["visibility"])
	require.Equal(t, "NONE", held[1].Data["feed"])

	// An image, two images, a video (parts, finalize, processing polled), a document, an article.
	img := media("img1", "image", "image/png", "png", tinyPNG(t))
	img.AltText = "A red pixel"
	ip, err := pub.Publish(ctx, tok, request("k3", li("A picture"), img))
	require.NoError(t, err)
	_, err = pub.Publish(ctx, tok, request("k4", li("Two pictures"), img, media("img2", "image", "image/png", "png", tinyPNG(t))))
	require.NoError(t, err)
	vp, err := pub.Publish(ctx, tok, request("k5", &linkedin.Payload{Text: "A video", MediaTitle: "Clip"}, media("vid1", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF")
	_, err = pub.Publish(ctx, tok, request("k6", li("A document"), media("doc1", "document", "application/pdf", "pdf", pdf)))
	require.NoError(t, err)
	thumb := media("th", "image", "image/png", "png", tinyPNG(t))
	ar := request("k7", &linkedin.Payload{Text: "An article", Link: "https://crier.example/post", MediaTitle: "Crier"})
	ar.Thumbnail = &thumb
	_, err = pub.Publish(ctx, tok, ar)
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 7)
	require.Equal(t, ip.ExternalID, held[2].ID)
	require.Len(t, held[2].Media, 1)
	require.Len(t, held[3].Media, 2)
	require.Equal(t, vp.ExternalID, held[4].ID)
	require.True(t, strings.HasPrefix(held[4].Media[0], "urn:li:video:"))
	require.True(t, strings.HasPrefix(held[5].Media[0], "urn:li:document:"))
	require.Len(t, held[6].Media, 1, "the article's thumbnail")

	// Resume: the image was uploaded by an attempt that died before posting.
	r := request("k8", li("Resumed"), img)
	r.Checkpoint = func(_ context.Context, k, _ string) error {
		if k == "urn" {
			return errors.New("worker died")
		}
		return nil
	}
	_, err = pub.Publish(ctx, tok, r)
	require.Error(t, err)
	require.Len(t, posts(nets, sandbox.KindPost), 8)
	mediaBefore := len(nets.Sandbox.Held(app.LinkedIn, sandbox.KindMedia))
	// The pipeline's Find reconciles it (no post URN checkpointed: found by commentary).
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: li("Resumed"), Resume: map[string]string{"startedAt": r.Resume["startedAt"], "media.0": r.Resume["media.0"]}})
	require.NoError(t, err)
	require.NotNil(t, f)
	require.Equal(t, posts(nets, sandbox.KindPost)[7].ID, f.ExternalID)
	// A different target whose image upload was checkpointed posts with it, uploading nothing.
	r2, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k9", Payload: li("Reused upload"), Media: []app.MediaFile{img}, Resume: map[string]string{"media.0": r.Resume["media.0"]}})
	require.NoError(t, err)
	require.Len(t, nets.Sandbox.Held(app.LinkedIn, sandbox.KindMedia), mediaBefore)
	require.Len(t, posts(nets, sandbox.KindPost), 9)
	again, err := pub.Publish(ctx, tok, &app.PublishRequest{Payload: li("Reused upload"), Resume: map[string]string{"urn": r2.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, r2.ExternalID, again.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 9)

	// Find: by checkpoint, by recent posts, none.
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: li("x"), Resume: map[string]string{"urn": p.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: li("Hello (from) Crier #launch"), Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, request("k10", li("never posted")))
	require.NoError(t, err)
	require.Nil(t, f)

	// A comment.
	c, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First comment"})
	require.NoError(t, err)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 1)
	require.Equal(t, c.ExternalID, comments[0].ID)
	require.Equal(t, p.ExternalID, comments[0].Parent)
	require.Equal(t, person, comments[0].Channel)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{ExternalID: ip.ExternalID}))
	require.Len(t, posts(nets, sandbox.KindPost), 8)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: li("x"), Resume: map[string]string{"urn": ip.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 (no header: LinkedIn's daily quotas reset at midnight UTC) and 400, verbatim.
	fail(t, nets, `{"status":429,"message":"Resource level throttle limit for calls to this resource is reached.","path":"/rest/posts"}`)
	_, err = pub.Publish(ctx, tok, request("k11", li("throttled")))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, time.Now().UTC().Truncate(24*time.Hour).Add(24*time.Hour), ne.ResetAt)
	fail(t, nets, `{"status":400,"message":"Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/foo]","path":"/rest/posts"}`)
	_, err = pub.Publish(ctx, tok, request("k12", li("refused")))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/foo]", ne.Message)
	// The twin's own validation.
	_, err = pub.Publish(ctx, tok, request("k13", li(strings.Repeat("a", 3001))))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, http.StatusUnprocessableEntity, ne.Status)
	require.Len(t, posts(nets, sandbox.KindPost), 8)
}

// A video still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing (no
// worker waits); the next attempt, resumed from the checkpoints, polls the same video and creates
// the post once.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.LinkedIn, "alice")
	a := nets.Adapters[app.LinkedIn].(*linkedin.Adapter)
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.LinkedIn, Payload: li("A slow video"),
		Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())}}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.True(t, strings.HasPrefix(saved["media.0"], "urn:li:video:"))
	require.Empty(t, posts(nets, sandbox.KindPost))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.LinkedIn, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, p.ExternalID, held[0].ID)
	require.Equal(t, []string{saved["media.0"]}, held[0].Media)
	require.Len(t, nets.Sandbox.Held(app.LinkedIn, sandbox.KindMedia), 1, "the video is uploaded once")
}

// Documented shapes (learn.microsoft.com/linkedin): images initializeUpload, the 201 of POST
// /rest/posts with x-restli-id, and the error body.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var post map[string]any
	var put []byte
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/rest/images" && r.URL.Query().Get("action") == "initializeUpload":
			require.Equal(t, linkedin.Version, r.Header.Get("LinkedIn-Version"))
			_, _ = w.Write([]byte(`{"value":{"uploadUrlExpiresAt":1650567510704,"uploadUrl":"` + srvURL + `/dms-uploads/C4E10AQFoyyAjHPMQuQ/uploaded-image/0?ca=vector_ads&cn=uploads&m=AQJbrN86Zm265gAAAYBAr8","image":"urn:li:image:C4E10AQFoyyAjHPMQuQ"}}`))
		case strings.HasPrefix(r.URL.Path, "/dms-uploads/"):
			require.Equal(t, "Bearer t", r.Header.Get("Authorization"))
			put, _ = io.ReadAll(r.Body)
			w.WriteHeader(http.StatusCreated)
		case r.URL.Path == "/rest/posts" && r.Method == http.MethodPost:
			require.Equal(t, "2.0.0", r.Header.Get("X-Restli-Protocol-Version"))
			require.NoError(t, json.NewDecoder(r.Body).Decode(&post))
			w.Header().Set("x-restli-id", "urn:li:share:6844785523593134080")
			w.WriteHeader(http.StatusCreated)
		case r.URL.EscapedPath() == "/rest/posts/urn%3Ali%3Ashare%3A1":
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":404,"code":"NOT_FOUND","message":"Not Found"}`))
		}
	}))
	defer srv.Close()
	srvURL = srv.URL
	a := linkedin.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok := &app.Token{AccessToken: "t"}
	id := "5"
	img := tinyPNG(t)
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Account: &app.SocialAccount{ExternalID: &id}, Payload: li("Hello"),
		Media: []app.MediaFile{media("i", "image", "image/png", "png", img)}})
	require.NoError(t, err)
	require.Equal(t, "urn:li:share:6844785523593134080", p.ExternalID)
	require.Equal(t, "https://www.linkedin.com/feed/update/urn:li:share:6844785523593134080", p.Permalink)
	require.Equal(t, img, put)
	require.Equal(t, "urn:li:person:5", post["author"])
	require.Equal(t, "PUBLISHED", post["lifecycleState"])
	require.Equal(t, map[string]any{"media": map[string]any{"id": "urn:li:image:C4E10AQFoyyAjHPMQuQ", "altText": ""}}, post["content"])
	f, err := a.Find(context.Background(), tok, &app.PublishRequest{Account: &app.SocialAccount{ExternalID: &id}, Payload: li("x"), Resume: map[string]string{"urn": "urn:li:share:1"}})
	require.NoError(t, err)
	require.Nil(t, f)
	require.Equal(t, `a\_b \@c \(d\)`, linkedin.Escape("a_b @c (d)"))
}
