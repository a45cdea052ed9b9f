package discord_test

import (
	"bytes"
	"context"
	"encoding/json"
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
	"github.com/crier/crier/network/discord"
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
	for _, h := range nets.Sandbox.Held(app.Discord, kind) {
		if h.User == "alice" && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

func fail(t *testing.T, nets *sandboxtest.Networks, body string) {
	res, err := http.Post(nets.Base(app.Discord)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_ = res.Body.Close()
}

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Discord, "alice")
	a := nets.Adapters[app.Discord]
	pub := a.(app.Publisher)
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	general := chans[0].ID
	request := func(key, text string, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: key, Network: app.Discord, Payload: &pubutil.ChatPayload{ChannelID: general, Text: text}, Media: m}
	}

	// Text.
	p, err := pub.Publish(ctx, tok, request("k1", "Hello from Crier"))
	require.NoError(t, err)
	require.NotEmpty(t, p.ExternalID)
	require.Equal(t, "https://discord.com/channels/"+tok.Secrets["guildId"]+"/"+general+"/"+p.ExternalID, p.Permalink)
	require.Len(t, posts(nets, sandbox.KindPost), 1)

	// An image and a video as attachments.
	p2, err := pub.Publish(ctx, tok, request("k2", "With media", media("img1", "image", "image/png", "png", tinyPNG(t)), media("vid1", "video", "video/mp4", "mp4", tinyMP4())))
	require.NoError(t, err)
	held := posts(nets, sandbox.KindPost)
	require.Len(t, held, 2)
	require.Equal(t, []string{"img1.png", "vid1.mp4"}, held[1].Media)
	require.Equal(t, p2.ExternalID, held[1].ID)

	// The same attempt sent again (answer lost) is deduplicated by the nonce.
	again, err := pub.Publish(ctx, tok, request("k2", "With media", media("img1", "image", "image/png", "png", tinyPNG(t))))
	require.NoError(t, err)
	require.Equal(t, p2.ExternalID, again.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 2)

	// A checkpointed message is not sent again.
	r := request("k1", "Hello from Crier")
	r.Resume = map[string]string{"message": p.ExternalID, "channel": general}
	p3, err := pub.Publish(ctx, tok, r)
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, p3.ExternalID)
	require.Len(t, posts(nets, sandbox.KindPost), 2)

	// Find: by checkpoint, by recent messages, none.
	f, err := pub.Find(ctx, tok, &app.PublishRequest{AttemptKey: "k1", Payload: &pubutil.ChatPayload{ChannelID: general, Text: "Hello from Crier"}, Resume: map[string]string{"message": p.ExternalID, "channel": general}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{AttemptKey: "other", Payload: &pubutil.ChatPayload{ChannelID: general, Text: "Hello from Crier"},
		Resume: map[string]string{"startedAt": time.Now().Add(-time.Minute).Format(time.RFC3339Nano)}})
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, f.ExternalID)
	f, err = pub.Find(ctx, tok, request("k9", "never posted"))
	require.NoError(t, err)
	require.Nil(t, f)

	// A reply.
	rp, err := a.(app.Replier).Reply(ctx, tok, &app.ReplyRequest{AttemptKey: "c1", ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First comment"})
	require.NoError(t, err)
	comments := posts(nets, sandbox.KindComment)
	require.Len(t, comments, 1)
	require.Equal(t, p.ExternalID, comments[0].Parent)
	require.Equal(t, rp.ExternalID, comments[0].ID)

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{Network: app.Discord, ExternalID: p.ExternalID, Extra: p.Extra}))
	require.Len(t, posts(nets, sandbox.KindPost), 1)
	f, err = pub.Find(ctx, tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: general}, Resume: map[string]string{"message": p.ExternalID, "channel": general}})
	require.NoError(t, err)
	require.Nil(t, f)

	// Injected 429 and 400.
	fail(t, nets, `{"status":429,"resetInSeconds":30,"path":"/messages"}`)
	_, err = pub.Publish(ctx, tok, request("k3", "throttled"))
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	fail(t, nets, `{"status":400,"code":"50035","message":"Invalid Form Body","path":"/messages"}`)
	_, err = pub.Publish(ctx, tok, request("k4", "refused"))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Invalid Form Body", ne.Message)
	require.Equal(t, "50035", ne.Code)
	require.Len(t, posts(nets, sandbox.KindPost), 1)

	// The twin's own validation: an empty message.
	_, err = pub.Publish(ctx, tok, request("k5", ""))
	require.ErrorAs(t, err, &ne)
	require.Equal(t, "Cannot send an empty message", ne.Message)
}

// Documented shapes: the Message object of POST /channels/{id}/messages (multipart with
// payload_json and files[n]), and a 404 Unknown Message.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var payload map[string]any
	var file []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		require.Equal(t, "Bot b0t", r.Header.Get("Authorization"))
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v10/channels/41771983423143937/messages":
			require.NoError(t, r.ParseMultipartForm(1<<20))
			require.NoError(t, json.Unmarshal([]byte(r.FormValue("payload_json")), &payload))
			f, _, err := r.FormFile("files[0]")
			require.NoError(t, err)
			file, _ = io.ReadAll(f)
			_, _ = w.Write([]byte(`{"id":"334385199974967042","type":0,"content":"Supa Hot","channel_id":"41771983423143937","author":{"id":"53908232506183680","username":"Mason","avatar":null,"discriminator":"0","bot":true},"attachments":[{"id":"1","filename":"a.png","size":67,"url":"https://cdn.discordapp.com/attachments/1/2/a.png"}],"embeds":[],"mentions":[],"mention_roles":[],"pinned":false,"mention_everyone":false,"tts":false,"timestamp":"2017-07-11T17:27:07.299000+00:00","edited_timestamp":null,"flags":0,"components":[],"nonce":"abc"}`))
		case r.URL.Path == "/api/v10/channels/41771983423143937/messages/1":
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message": "Unknown Message", "code": 10008}`))
		}
	}))
	defer srv.Close()
	a := discord.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s", BotToken: "b0t"})
	tok := &app.Token{Secrets: map[string]string{"guildId": "290926798626357250"}}
	img := tinyPNG(t)
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{AttemptKey: "a", Payload: &pubutil.ChatPayload{ChannelID: "41771983423143937", Text: "Supa Hot"},
		Media: []app.MediaFile{media("a", "image", "image/png", "png", img)}})
	require.NoError(t, err)
	require.Equal(t, "334385199974967042", p.ExternalID)
	require.Equal(t, "https://discord.com/channels/290926798626357250/41771983423143937/334385199974967042", p.Permalink)
	require.Equal(t, "Supa Hot", payload["content"])
	require.Equal(t, discord.Nonce("a"), payload["nonce"])
	require.Equal(t, img, file)
	f, err := a.Find(context.Background(), tok, &app.PublishRequest{Payload: &pubutil.ChatPayload{ChannelID: "41771983423143937"}, Resume: map[string]string{"message": "1", "channel": "41771983423143937"}})
	require.NoError(t, err)
	require.Nil(t, f)
}
