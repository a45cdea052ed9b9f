package bluesky_test

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
	"github.com/crier/crier/network/bluesky"
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
	for _, h := range nets.Sandbox.Held(app.Bluesky, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Bluesky)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func bsky(text string) *bluesky.Payload { return &bluesky.Payload{Text: text} }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Bluesky, "alice")
	nets.Connect(t, app.Bluesky, "bob")
	a := nets.Adapters[app.Bluesky]
	a.(*bluesky.Adapter).Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pub := a.(app.Publisher)
	request := func(key string, p *bluesky.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Bluesky, Payload: p, Media: m}
	}
	did := tok.Secrets["did"]

	// Text with a link, a mention and a hashtag: facets with UTF-8 byte ranges; tags and labels.
	text := "Héllo @bob.sandbox.bsky see https://crier.example/x #crier"
	p, err := pub.Publish(ctx, tok, request("k1", &bluesky.Payload{Text: text, Tags: []string{"#launch"}, Labels: []string{"graphic-media"}}))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.ExternalID, "at://"+did+"/app.bsky.feed.post/"), p.ExternalID)
	require.Equal(t, "https://bsky.app/profile/alice.sandbox.bsky/post/"+p.Extra["rkey"], p.Permalink)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	var rec struct {
		Facets []struct {
			Index    struct{ ByteStart, ByteEnd int }
			Features []map[string]any
		}
		Tags   []string
		Labels map[string]any
	}
	raw, _ := json.Marshal(held[0].Data["record"])
	require.NoError(t, json.Unmarshal(raw, &rec))
	require.Len(t, rec.Facets, 3)
	require.Equal(t, "https://crier.example/x", text[rec.Facets[0].Index.ByteStart:rec.Facets[0].Index.ByteEnd])
	require.Equal(t, "@bob.sandbox.bsky", text[rec.Facets[1].Index.ByteStart:rec.Facets[1].Index.ByteEnd])
	require.Equal(t, "#crier", text[rec.Facets[2].Index.ByteStart:rec.Facets[2].Index.ByteEnd])
	require.Equal(t, []string{"launch"}, rec.Tags)
	require.NotNil(t, rec.Labels)

	// Images (alt text), a video (service auth, upload, job polled), an external card, a quote.
	img := media("img1", "image", "image/png", "png", tinyPNG(t))
	img.AltText = "A red pixel"
	ip, err := pub.Publish(ctx, tok, request("k2", bsky("Pictures"), img, media("img2", "image", "image/png", "png", tinyPNG(t))))
	require.NoError(t, err)
	vp, err := pub.Publish(ctx, tok, request("k3", &bluesky.Payload{Text: "A video", VideoAlt: "Nothing moves"}, media("vid1", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	thumb := media("th", "image", "image/png", "png", tinyPNG(t))
	er := request("k4", &bluesky.Payload{Text: "A card", ExternalURL: "https://crier.example/", ExternalTitle: "Crier", ExternalDescription: "Publishing"})
	er.Thumbnail = &thumb
	_, err = pub.Publish(ctx, tok, er)
	require.NoError(t, err)
	qp, err := pub.Publish(ctx, tok, request("k5", &bluesky.Payload{Text: "Quoting", QuoteURI: p.Permalink}, img))
	require.NoError(t, err)
	held = posts(nets, sandbox.KindPost)
	require.Len(t, held, 5)
	require.Equal(t, ip.Extra["rkey"], held[1].ID)
	require.Len(t, held[1].Media, 2)
	require.Equal(t, vp.Extra["rkey"], held[2].ID)
	require.Len(t, held[2].Media, 1)
	require.Equal(t, p.ExternalID, held[4].Data["quote"])
	require.Equal(t, qp.Extra["rkey"], held[4].ID)

	// Resume: the blob and the record key are checkpointed, and the record was created (answer
	// lost): the retry answers it without creating another.
	r := request("k6", bsky("Resumed"), img)
	r.Checkpoint = func(_ context.Context, k, _ string) error {
		if k == "uri" {
			return errors.New("worker died")
		}
		return nil
	}
	_, err = pub.Publish(ctx, tok, r)
	require.Error(t, err)
	require.NotEmpty(t, r.Resume["blob.0"])
	media0 := len(nets.Sandbox.Held(app.Bluesky, sandbox.KindMedia))
	rp, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k6", Payload: r.Payload, Media: r.Media,
		Resume: map[string]string{"rkey": r.Resume["rkey"], "blob.0": r.Resume["blob.0"], "startedAt": r.Resume["startedAt"]}})
	require.NoError(t, err)
	require.Equal(t, r.Resume["rkey"], rp.Extra["rkey"])
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	require.Len(t, nets.Sandbox.Held(app.Bluesky, sandbox.KindMedia), media0)
	// A resume whose blob was uploaded but whose record was never created creates it once.
	np, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k7", Payload: bsky("Second resumed"), Media: []app.MediaFile{img},
		Resume: map[string]string{"blob.0": r.Resume["blob.0"]}})
	require.NoError(t, err)
	require.Len(t, posts(nets, sandbox.KindPost), 7)
	require.Equal(t, "Second resumed", posts(nets, sandbox.KindPost)[6].Text)
	require.NotEmpty(t, np.ExternalID)

	// Find: by the record key, by recent records, none.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: bsky("x"), Resume: map[string]string{"rkey": p.Extra["rkey"]}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: bsky("Pictures"), Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, ip.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: bsky("never posted")})
	require.NoError(t, err)
	require.Nil(t, f)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: bsky("never posted"), Resume: map[string]string{"rkey": bluesky.TID(time.Now(), 7)}})
	require.NoError(t, err)
	require.Nil(t, f)

	// A reply, and a reply to the reply (root kept).
	rep := a.(app.Replier)
	c1, err := rep.Reply(ctx, tok, &app.ReplyRequest{AttemptKey: "c1", ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First comment"})
	require.NoError(t, err)
	c2, err := rep.Reply(ctx, tok, &app.ReplyRequest{AttemptKey: "c2", ParentExternalID: c1.ExternalID, Text: "Nested"})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, c2.Extra["rootUri"])
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 2)
	require.Equal(t, p.ExternalID, comments[0].Parent)
	require.Equal(t, c1.ExternalID, comments[1].Parent)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{ExternalID: ip.ExternalID}))
	require.Len(t, posts(nets, sandbox.KindPost), 6)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: bsky("Pictures"), Resume: map[string]string{"uri": ip.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 (RateLimit-Reset) and 400, verbatim.
	fail(t, nets, `{"status":429,"resetInSeconds":30,"path":"createRecord"}`)
	_, err = pub.Publish(ctx, tok, request("k10", bsky("throttled")))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	fail(t, nets, `{"status":400,"code":"InvalidRequest","message":"Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes","path":"createRecord"}`)
	_, err = pub.Publish(ctx, tok, request("k11", bsky("refused")))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes", ne.Message)
	// The twin's own validation.
	_, err = pub.Publish(ctx, tok, request("k12", bsky(strings.Repeat("é", 301))))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, "InvalidRequest", ne.Code)
	require.Len(t, posts(nets, sandbox.KindPost), 6)
}

// A video job still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing
// (no worker waits); the next attempt, resumed from the checkpoints, polls the same job and
// creates the post once.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Bluesky, "alice")
	a := nets.Adapters[app.Bluesky].(*bluesky.Adapter)
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.Bluesky, Payload: bsky("A slow video"),
		Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())}}
	jobs := func() (n int) {
		for _, h := range nets.Sandbox.Held(app.Bluesky, sandbox.KindMedia) {
			if h.Data["job"] != nil {
				n++
			}
		}
		return n
	}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.NotEmpty(t, saved["videoJob"])
	require.Empty(t, posts(nets, sandbox.KindPost))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.Bluesky, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, p.ExternalID, saved["uri"])
	require.Equal(t, 1, jobs(), "the video is uploaded once")
}

// Documented shapes (docs.bsky.app): uploadBlob's blob, createRecord's {uri, cid}, getRecord's
// RecordNotFound error.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var created map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/xrpc/com.atproto.repo.uploadBlob":
			require.Equal(t, "image/png", r.Header.Get("Content-Type"))
			_, _ = w.Write([]byte(`{"blob":{"$type":"blob","ref":{"$link":"bafkreibabalobzn6cd366ukcsjycp4yymjymgfxcv6xczmlgpemzkz3cfa"},"mimeType":"image/png","size":760898}}`))
		case "/xrpc/com.atproto.repo.createRecord":
			require.NoError(t, json.NewDecoder(r.Body).Decode(&created))
			_, _ = w.Write([]byte(`{"uri":"at://did:plc:u5cwb2mwiv2bfq53cjufe6yn/app.bsky.feed.post/3k4duaz5vfs2b","cid":"bafyreibjifzpqj6o6wcq3hejh7y4z4z2vmiklkvykc57tw3pcbx3kxifpm","commit":{"cid":"bafyreid","rev":"3k4duaz5vfs2b"},"validationStatus":"valid"}`))
		case "/xrpc/com.atproto.repo.getRecord":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"RecordNotFound","message":"Could not locate record: at://did:plc:u5cwb2mwiv2bfq53cjufe6yn/app.bsky.feed.post/3k4duaz5vfs2b"}`))
		}
	}))
	defer srv.Close()
	a := bluesky.New(srv.URL, true)
	tok := &app.Token{AccessToken: "jwt", Secrets: map[string]string{"did": "did:plc:u5cwb2mwiv2bfq53cjufe6yn", "handle": "example.com", "pds": srv.URL}}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{AttemptKey: "a", Payload: bsky("Hello"), Media: []app.MediaFile{media("i", "image", "image/png", "png", tinyPNG(t))}})
	require.NoError(t, err)
	require.Equal(t, "at://did:plc:u5cwb2mwiv2bfq53cjufe6yn/app.bsky.feed.post/3k4duaz5vfs2b", p.ExternalID)
	require.Equal(t, "https://bsky.app/profile/example.com/post/3k4duaz5vfs2b", p.Permalink)
	require.Equal(t, "bafyreibjifzpqj6o6wcq3hejh7y4z4z2vmiklkvykc57tw3pcbx3kxifpm", p.Extra["cid"])
	require.Equal(t, "app.bsky.feed.post", created["collection"])
	require.Len(t, created["rkey"], 13)
	embed := created["record"].(map[string]any)["embed"].(map[string]any)
	require.Equal(t, "app.bsky.embed.images", embed["$type"])
	f, err := a.Find(context.Background(), tok, &app.PublishRequest{Payload: bsky("x"), Resume: map[string]string{"rkey": "3k4duaz5vfs2b"}})
	require.NoError(t, err)
	require.Nil(t, f)
	early, late := bluesky.TID(time.UnixMicro(1688137381887007), 5), bluesky.TID(time.UnixMicro(1688137381887008), 0)
	require.Len(t, early, 13)
	require.Less(t, early, late, "TIDs sort by time")
	require.Contains(t, "234567abcdefghij", early[:1], "the top bit is 0")
}
