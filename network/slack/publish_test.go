package slack_test

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
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/network/slack"
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
	for _, h := range nets.Sandbox.Held(app.Slack, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Slack)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Slack, "alice")
	a := nets.Adapters[app.Slack]
	a.(*slack.Adapter).Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pub := a.(app.Publisher)
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	general := chans[0].ID
	request := func(key, text string, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Slack, Payload: &pubutil.ChatPayload{ChannelID: general, Text: text}, Media: m}
	}

	// Text.
	p, err := pub.Publish(ctx, tok, request("k1", "Hello from Crier"))
	require.NoError(t, err)
	require.NotEmpty(t, p.ExternalID)
	require.Equal(t, "https://alice.slack.com/archives/"+general+"/p"+strings.ReplaceAll(p.ExternalID, ".", ""), p.Permalink)
	require.Len(t, posts(nets, sandbox.KindPost), 1)

	// An image and a video through the upload v2 flow, shared as one message.
	r := request("k2", "With media", media("img1", "image", "image/png", "png", tinyPNG(t)), media("vid1", "video", "video/mp4", "mp4", tinyMP4()))
	p2, err := pub.Publish(ctx, tok, r)
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 2)
	require.Len(t, held[1].Media, 2)
	require.Equal(t, "With media", held[1].Text)
	require.Equal(t, p2.ExternalID, held[1].ID)
	require.Equal(t, strings.Join(held[1].Media, ","), p2.Extra["files"])

	// Resume: an attempt uploaded both files, then failed to share them; the retry uploads nothing
	// again and shares the checkpointed files.
	uploads := len(nets.Sandbox.Held(app.Slack, sandbox.KindMedia))
	r = request("k3", "Resumed", media("img1", "image", "image/png", "png", tinyPNG(t)), media("vid1", "video", "video/mp4", "mp4", tinyMP4()))
	fail(t, nets, `{"status":500,"path":"files.completeUploadExternal"}`)
	_, err = pub.Publish(ctx, tok, r)
	require.Equal(t, app.ErrTransient, app.ClassOf(err))
	require.Len(t, strings.Split(r.Resume["files"], ","), 2)
	p3, err := pub.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "k3", Payload: r.Payload, Media: r.Media, Resume: r.Resume})
	require.NoError(t, err)
	require.Len(t, nets.Sandbox.Held(app.Slack, sandbox.KindMedia), uploads+2, "no file uploaded twice")
	require.Equal(t, r.Resume["files"], p3.Extra["files"])
	require.Len(t, posts(nets, sandbox.KindPost), 3)

	// A checkpointed message is not posted again.
	r = request("k1", "Hello from Crier")
	r.Resume = map[string]string{"ts": p.ExternalID}
	again, err := pub.Publish(ctx, tok, r)
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 3)

	// Find: by checkpoint, by recent messages, none.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: general, Text: "Hello from Crier"}, Resume: map[string]string{"ts": p.ExternalID}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: general, Text: "Hello from Crier"},
		Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: general, Text: "With media"}, Resume: map[string]string{"files": p2.Extra["files"]}})
	require.NoError(t, err)
	require.Equal(t, p2.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, request("k9", "never posted"))
	require.NoError(t, err)
	require.Nil(t, f)

	// A reply in the thread.
	rp, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{AttemptKey: "c1", ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First comment"})
	require.NoError(t, err)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 1)
	require.Equal(t, p.ExternalID, comments[0].Parent)
	require.Equal(t, rp.ExternalID, comments[0].ID)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{Network: app.Slack, ExternalID: p.ExternalID, Extra: p.Extra}))
	require.Len(t, posts(nets, sandbox.KindPost), 2)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: general}, Resume: map[string]string{"ts": p.ExternalID}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 and a refusal (Slack refuses with HTTP 200 ok:false).
	fail(t, nets, `{"status":429,"resetInSeconds":30,"path":"chat.postMessage"}`)
	_, err = pub.Publish(ctx, tok, request("k4", "throttled"))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	fail(t, nets, `{"status":400,"code":"not_in_channel","path":"chat.postMessage"}`)
	_, err = pub.Publish(ctx, tok, request("k5", "refused"))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "not_in_channel", ne.Message)
	require.Len(t, posts(nets, sandbox.KindPost), 2)

	// The twin's own validation.
	_, err = pub.Publish(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: "C000NOPE", Text: "x"}})
	require.ErrorAs(t, err, &ne)
	require.Equal(t, "channel_not_found", ne.Code)
}

// Files Slack is still sharing past pubutil.InlineWait end the attempt with app.ErrProcessing (no
// worker waits); the next attempt, resumed from the checkpoints, reads the message back instead of
// uploading or sharing again.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Slack, "alice")
	a := nets.Adapters[app.Slack].(*slack.Adapter)
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	r := &app.PublishRequest{AttemptKey: "k1", Network: app.Slack, Payload: &pubutil.ChatPayload{ChannelID: chans[0].ID, Text: "A slow share"},
		Media: []app.MediaFile{media("vid1", "video", "video/mp4", "mp4", tinyMP4())}}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.NotEmpty(t, saved["files"])
	require.Equal(t, "1", saved["shared"])

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: "k1", Network: app.Slack, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 1, "shared once")
	require.Equal(t, p.ExternalID, held[0].ID)
	require.Equal(t, p.ExternalID, saved["ts"])
	require.Len(t, nets.Sandbox.Held(app.Slack, sandbox.KindMedia), 1, "the file is uploaded once")
}

// Documented shapes: chat.postMessage, chat.getPermalink, files.getUploadURLExternal,
// files.completeUploadExternal and conversations.history as Slack's method pages show them.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var uploaded []byte
	var complete map[string]string
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/chat.postMessage":
			_, _ = w.Write([]byte(`{"ok":true,"channel":"C123ABC456","ts":"1503435956.000247","message":{"text":"Here's a message for you","username":"ecto1","bot_id":"B123ABC456","attachments":[{"text":"This is an attachment","id":1,"fallback":"This is an attachment's fallback"}],"type":"message","subtype":"bot_message","ts":"1503435956.000247"}}`))
		case "/api/chat.getPermalink":
			_, _ = w.Write([]byte(`{"ok":true,"channel":"C123ABC456","permalink":"https://ghostbusters.slack.com/archives/C1H9RESGA/p135854651500008"}`))
		case "/api/files.getUploadURLExternal":
			require.NoError(t, r.ParseForm())
			require.Equal(t, fmt.Sprint(len(tinyPNG(t))), r.PostForm.Get("length"))
			_, _ = w.Write([]byte(`{"ok":true,"upload_url":"` + srvURL + `/upload/v1/ABC123","file_id":"F123ABC456"}`))
		case "/upload/v1/ABC123":
			uploaded, _ = io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("OK - 67"))
		case "/api/files.completeUploadExternal":
			require.NoError(t, r.ParseForm())
			complete = map[string]string{"files": r.PostForm.Get("files"), "channel_id": r.PostForm.Get("channel_id"), "initial_comment": r.PostForm.Get("initial_comment")}
			_, _ = w.Write([]byte(`{"ok":true,"files":[{"id":"F123ABC456","title":"slack-test"}]}`))
		case "/api/conversations.history":
			require.Equal(t, "C123ABC456", r.URL.Query().Get("channel"))
			_, _ = w.Write([]byte(`{"ok":true,"messages":[{"type":"message","text":"pic","files":[{"id":"F123ABC456","created":1531763342,"name":"img1.png","title":"img1.png","mimetype":"image/png","filetype":"png","user":"U123ABC456","size":67}],"upload":true,"user":"U123ABC456","bot_id":"B123","display_as_bot":false,"ts":"1531763348.000001"},{"type":"message","user":"U012AB3CDE","text":"I find you punny and would like to smell your nose letter","ts":"1512085950.000216"}],"has_more":false,"pin_count":0,"response_metadata":{"next_cursor":""}}`))
		}
	}))
	defer srv.Close()
	srvURL = srv.URL
	a := slack.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok := &app.Token{AccessToken: "xoxb-1", Secrets: map[string]string{}}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: "C123ABC456", Text: "Here's a message for you"}})
	require.NoError(t, err)
	require.Equal(t, "1503435956.000247", p.ExternalID)
	require.Equal(t, "https://ghostbusters.slack.com/archives/C1H9RESGA/p135854651500008", p.Permalink)
	img := tinyPNG(t)
	p, err = a.Publish(context.Background(), tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: "C123ABC456", Text: "pic"},
		Media: []app.MediaFile{media("img1", "image", "image/png", "png", img)}})
	require.NoError(t, err)
	require.Equal(t, img, uploaded)
	require.Equal(t, "1531763348.000001", p.ExternalID)
	require.Equal(t, "C123ABC456", complete["channel_id"])
	require.Equal(t, "pic", complete["initial_comment"])
	require.JSONEq(t, `[{"id":"F123ABC456","title":"img1.png"}]`, complete["files"])
	require.Equal(t, "https://slack.com/archives/C123/p1531763348000001", slack.Permalink("C123", "1531763348.000001"))
}
