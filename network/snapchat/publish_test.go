package snapchat_test

import (
	"context"
	"encoding/json"
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
	"github.com/crier/crier/network/snapchat"
)

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Snapchat, "alice")
	a := nets.Adapters[app.Snapchat].(*snapchat.Adapter)
	prof, err := a.Profile(ctx, tok)
	require.NoError(t, err)
	account := &app.SocialAccount{ExternalID: &prof.ExternalID, Username: &prof.Username}
	request := func(pl *snapchat.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.Snapchat, Account: account, Payload: pl, Media: m}
	}
	count := func() int { return len(nets.Posts(app.Snapchat, "alice")) }

	cp := sandboxtest.Checkpoints{}
	story := &snapchat.Payload{}
	found, err := a.Find(ctx, tok, cp.Wire(request(story, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Nil(t, found)

	// A story from an image: encrypted upload, finalize (the twin decrypts it), post.
	p, err := a.Publish(ctx, tok, cp.Wire(request(story, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, "https://www.snapchat.com/add/alice", p.Permalink)
	require.Equal(t, 1, count())
	media := nets.Sandbox.Held(app.Snapchat, sandbox.KindMedia)
	require.Len(t, media, 1)
	require.Equal(t, len(sandboxtest.TinyJPEG), media[0].Data["size"])

	// Retry and Find.
	again, err := a.Publish(ctx, tok, cp.Wire(request(story, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	found, err = a.Find(ctx, tok, cp.Wire(request(story, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"], "snapchat.media": cp["snapchat.media"], "snapchat.uploaded": "1"}
	found, err = a.Find(ctx, tok, lost.Wire(request(story, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	require.Equal(t, 1, count())

	// Spotlight (video) and a saved story; delete the spotlight; a story cannot be deleted.
	sp, err := a.Publish(ctx, tok, request(&snapchat.Payload{Type: "SPOTLIGHT", Description: "Kneading #bread", Locale: "en_US"}, sandboxtest.Video("v1")))
	require.NoError(t, err)
	require.Equal(t, "https://www.snapchat.com/spotlight/"+sp.ExternalID, sp.Permalink)
	_, err = a.Publish(ctx, tok, request(&snapchat.Payload{Type: "SAVED_STORY", Title: "Our bakery"}, sandboxtest.Image("i2")))
	require.NoError(t, err)
	require.Equal(t, 3, count())
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{ExternalID: sp.ExternalID, Extra: sp.Extra, Account: account}))
	require.Equal(t, 2, count())
	require.ErrorIs(t, a.Delete(ctx, tok, &app.DeleteRequest{ExternalID: p.ExternalID, Extra: p.Extra}), app.ErrNotSupported)

	// Snap's message verbatim; no media refused.
	_, err = a.Publish(ctx, tok, request(&snapchat.Payload{Type: "SPOTLIGHT", Description: strings.Repeat("x", 161)}, sandboxtest.Video("v2")))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "description is longer than 160 characters", ne.Message)
	_, err = a.Publish(ctx, tok, request(story))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))

	// 429 with Retry-After.
	nets.Fail(t, app.Snapchat, `{"status":429,"code":"E1429","message":"Too many requests","resetInSeconds":45,"path":"/media"}`)
	_, err = a.Publish(ctx, tok, request(story, sandboxtest.Image("i3")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(45*time.Second), ne.ResetAt, 3*time.Second)
	require.Equal(t, 2, count())
}

// The shapes networks.md gives (uncertain): media creation with key and iv, ADD/FINALIZE parts, the
// spotlight post, and the ERROR envelope.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var created map[string]string
	var actions []string
	var post map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/v1/public_profiles/pp1/media":
			require.NoError(t, json.NewDecoder(r.Body).Decode(&created))
			_, _ = w.Write([]byte(`{"request_status":"SUCCESS","request_id":"r1","media_id":"m-1","add_path":"/v1/public_profiles/pp1/media/m-1/multipart-upload","finalize_path":"/v1/public_profiles/pp1/media/m-1/multipart-upload"}`))
		case r.URL.Path == "/v1/public_profiles/pp1/media/m-1/multipart-upload":
			require.NoError(t, r.ParseMultipartForm(1<<20))
			actions = append(actions, r.FormValue("action")+r.FormValue("part_number"))
			if f, _, err := r.FormFile("file"); err == nil {
				b, _ := io.ReadAll(f)
				require.Zero(t, len(b)%16, "AES-CBC blocks")
			}
			_, _ = w.Write([]byte(`{"request_status":"SUCCESS","request_id":"r2"}`))
		case r.URL.Path == "/v1/public_profiles/pp1/spotlights":
			require.NoError(t, json.NewDecoder(r.Body).Decode(&post))
			if post["description"] == "bad" {
				w.WriteHeader(400)
				_, _ = w.Write([]byte(`{"request_status":"ERROR","request_id":"r3","debug_message":"Invalid description","display_message":"The description is not allowed","error_code":"E2001"}`))
				return
			}
			_, _ = w.Write([]byte(`{"request_status":"SUCCESS","request_id":"r3","spotlight":{"id":"sp-9","media_id":"m-1"}}`))
		default:
			t.Errorf("unexpected %s", r.URL.Path)
		}
	}))
	defer srv.Close()
	a := snapchat.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	id, user := "pp1", "ada"
	acc := &app.SocialAccount{ExternalID: &id, Username: &user}
	p, err := a.Publish(context.Background(), &app.Token{AccessToken: "x"}, &app.PublishRequest{Account: acc,
		Payload: &snapchat.Payload{Type: "SPOTLIGHT", Text: "Hello", Locale: "en_US"}, Media: []app.MediaFile{sandboxtest.Video("v")}})
	require.NoError(t, err)
	require.Equal(t, "sp-9", p.ExternalID)
	require.Equal(t, "VIDEO", created["type"])
	require.Len(t, created["key"], 44)
	require.Len(t, created["iv"], 24)
	require.Equal(t, []string{"ADD1", "FINALIZE"}, actions)
	require.Equal(t, "m-1", post["media_id"])
	require.Equal(t, "Hello", post["description"])

	_, err = a.Publish(context.Background(), &app.Token{AccessToken: "x"}, &app.PublishRequest{Account: acc,
		Payload: &snapchat.Payload{Type: "SPOTLIGHT", Description: "bad"}, Media: []app.MediaFile{sandboxtest.Video("v")}})
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "E2001", ne.Code)
	require.Equal(t, "The description is not allowed", ne.Message)
}
