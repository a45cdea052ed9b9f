package pinterest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pinterest"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Pinterest, "alice")
	a := nets.Adapters[app.Pinterest].(*pinterest.Adapter)
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	boards, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	board := &boards[0]
	request := func(pl *pinterest.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.Pinterest, Channel: board, Payload: pl, Media: m}
	}
	held := func() int { return len(nets.Posts(app.Pinterest, "alice")) }

	cp := sandboxtest.Checkpoints{}
	pl := &pinterest.Payload{Text: "Sourdough", Description: "Our loaf", BoardName: "Recipes", Link: "https://bakery.example/loaf", AltText: "A loaf"}
	found, err := a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("u1"))))
	require.NoError(t, err)
	require.Nil(t, found)

	// Image pin.
	p, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("u1"))))
	require.NoError(t, err)
	require.Equal(t, "https://www.pinterest.com/pin/"+p.ExternalID+"/", p.Permalink)
	require.Equal(t, 1, held())
	h := nets.Posts(app.Pinterest, "alice")[0]
	require.Equal(t, board.ID, h.Channel)
	require.Equal(t, []string{"https://media.crier.invalid/u1.jpg"}, h.Media)
	require.Equal(t, "A loaf", h.Data["alt_text"])

	// Resume: no second pin; Find by checkpoint and by the attempt marker.
	again, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("u1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Equal(t, 1, held())
	found, err = a.Find(ctx, tok, cp.Wire(request(pl)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"]}
	found, err = a.Find(ctx, tok, lost.Wire(request(pl)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)

	// Board by name when no channel was resolved; carousel of 3.
	carousel := &app.PublishRequest{Network: app.Pinterest, Payload: &pinterest.Payload{Text: "Garden", BoardName: "garden IDEAS"},
		Media: []app.MediaFile{sandboxtest.Image("c1"), sandboxtest.Image("c2"), sandboxtest.Image("c3")}}
	c, err := a.Publish(ctx, tok, carousel)
	require.NoError(t, err)
	require.Equal(t, boards[1].ID, c.Extra["boardId"])
	require.Equal(t, 2, held())

	// Video: register, S3 upload, poll, pin with the thumbnail as cover; a retry after the upload
	// does not upload again.
	vcp := sandboxtest.Checkpoints{}
	thumb := sandboxtest.Image("thumb")
	vreq := vcp.Wire(request(&pinterest.Payload{Text: "Kneading", BoardName: "Recipes"}, sandboxtest.Video("v1")))
	vreq.Thumbnail = &thumb
	v, err := a.Publish(ctx, tok, vreq)
	require.NoError(t, err)
	require.NotEmpty(t, vcp["pinterest.media"])
	require.Equal(t, 3, held())
	vh := nets.Posts(app.Pinterest, "alice")[2]
	require.Equal(t, "VIDEO", vh.Data["creative_type"])
	require.Equal(t, thumb.URL, vh.Data["cover_image_url"])
	require.Equal(t, v.ExternalID, vh.ID)

	// Delete.
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{Network: app.Pinterest, ExternalID: c.ExternalID}))
	require.Equal(t, 2, held())

	// Six images: refused before any call. Unknown board: refused.
	_, err = a.Publish(ctx, tok, &app.PublishRequest{Payload: &pinterest.Payload{BoardName: "Recipes"}, Media: []app.MediaFile{
		sandboxtest.Image("1"), sandboxtest.Image("2"), sandboxtest.Image("3"), sandboxtest.Image("4"), sandboxtest.Image("5"), sandboxtest.Image("6")}})
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	_, err = a.Publish(ctx, tok, &app.PublishRequest{Payload: &pinterest.Payload{BoardName: "Nope"}, Media: []app.MediaFile{sandboxtest.Image("1")}})
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))

	// A permanent error keeps Pinterest's message verbatim.
	_, err = a.Publish(ctx, tok, request(&pinterest.Payload{Text: string(make([]byte, 101)), BoardName: "Recipes"}, sandboxtest.Image("u9")))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Invalid parameters. title: maxLength=100", ne.Message)

	// 429 with Pinterest's X-RateLimit-Reset.
	nets.Fail(t, app.Pinterest, `{"status":429,"message":"You have exceeded your rate limit. Try again later.","resetInSeconds":42,"path":"/v5/pins"}`)
	_, err = a.Publish(ctx, tok, request(&pinterest.Payload{Text: "later", BoardName: "Recipes"}, sandboxtest.Image("u2")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "You have exceeded your rate limit. Try again later.", ne.Message)
	require.WithinDuration(t, time.Now().Add(42*time.Second), ne.ResetAt, 3*time.Second)
	require.Equal(t, 2, held())
}

// Documented shapes of POST /v5/pins, the media flow and the error body.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var pinBody map[string]any
	var srv *httptest.Server
	polls := 0
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v5/media":
			w.WriteHeader(201)
			_, _ = w.Write([]byte(`{"media_id":"12345","media_type":"video","upload_url":"` + srv.URL + `/s3","upload_parameters":{"x-amz-date":"20261123T000000Z","x-amz-signature":"sig","x-amz-security-token":"tok","x-amz-algorithm":"AWS4-HMAC-SHA256","key":"uploads/12/34/abc","policy":"cG9saWN5","x-amz-credential":"cred","Content-Type":"multipart/form-data"}}`))
		case r.URL.Path == "/s3":
			require.NoError(t, r.ParseMultipartForm(1<<20))
			require.Equal(t, "uploads/12/34/abc", r.FormValue("key"))
			_, _, err := r.FormFile("file")
			require.NoError(t, err)
			w.WriteHeader(204)
		case r.URL.Path == "/v5/media/12345":
			polls++
			if polls == 1 {
				_, _ = w.Write([]byte(`{"media_id":"12345","media_type":"video","status":"processing"}`))
				return
			}
			_, _ = w.Write([]byte(`{"media_id":"12345","media_type":"video","status":"succeeded"}`))
		case r.Method == http.MethodPost && r.URL.Path == "/v5/pins":
			require.NoError(t, json.NewDecoder(r.Body).Decode(&pinBody))
			if pinBody["title"] == "bad" {
				w.Header().Set("X-RateLimit-Reset", "17")
				w.WriteHeader(429)
				_, _ = w.Write([]byte(`{"code":8,"message":"Rate limit exceeded"}`))
				return
			}
			w.WriteHeader(201)
			_, _ = w.Write([]byte(`{"id":"813744226420795884","created_at":"2026-11-23T20:10:40","link":"https://www.pinterest.com/","title":"Kneading","description":"","board_id":"549755885175","board_owner":{"username":"ada"},"media":{"media_type":"video"}}`))
		}
	}))
	defer srv.Close()
	a := pinterest.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	a.Poll = pubutil.Poller{Every: time.Millisecond}
	tok := &app.Token{AccessToken: "pina_x"}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Channel: &app.Channel{ID: "549755885175"},
		Payload: &pinterest.Payload{Text: "Kneading", BoardName: "Recipes"}, Media: []app.MediaFile{sandboxtest.Video("v")}})
	require.NoError(t, err)
	require.Equal(t, "813744226420795884", p.ExternalID)
	require.Equal(t, "https://www.pinterest.com/pin/813744226420795884/", p.Permalink)
	require.Equal(t, map[string]any{"source_type": "video_id", "media_id": "12345", "cover_image_key_frame_time": 0.0}, pinBody["media_source"])
	require.Equal(t, "549755885175", pinBody["board_id"])

	_, err = a.Publish(context.Background(), tok, &app.PublishRequest{Channel: &app.Channel{ID: "549755885175"},
		Payload: &pinterest.Payload{Text: "bad"}, Media: []app.MediaFile{sandboxtest.Image("i")}})
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "8", ne.Code)
	require.WithinDuration(t, time.Now().Add(17*time.Second), ne.ResetAt, 2*time.Second)
	require.Equal(t, map[string]any{"source_type": "image_url", "url": "https://media.crier.invalid/i.jpg"}, pinBody["media_source"])

	ne = pinterest.Classify(404, nil, []byte(`{"code":40,"message":"Board not found."}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Board not found.", ne.Message)
	require.Equal(t, app.ErrTransient, pinterest.Classify(400, nil, []byte(`{"code":1,"message":"Unable to reach the URL https://x/y.jpg"}`)).Class)
}
