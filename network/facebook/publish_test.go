package facebook_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/facebook"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Facebook, "alice")
	a := nets.Adapters[app.Facebook].(*facebook.Pages)
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	pages, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	page := &pages[0]
	request := func(pl *facebook.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.Facebook, Channel: page, Payload: pl, Media: m}
	}
	count := func() int { return len(nets.Posts(app.Facebook, "alice")) }

	// Find before anything: nil.
	cp := sandboxtest.Checkpoints{}
	text := &facebook.Payload{Text: "Fresh bread today", Link: "https://bakery.example"}
	found, err := a.Find(ctx, tok, cp.Wire(request(text)))
	require.NoError(t, err)
	require.Nil(t, found)

	// Text + link on the feed.
	p, err := a.Publish(ctx, tok, cp.Wire(request(text)))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.ExternalID, page.ID+"_"), p.ExternalID)
	require.Equal(t, "https://www.facebook.com/"+page.ID+"/posts/"+strings.TrimPrefix(p.ExternalID, page.ID+"_"), p.Permalink)
	require.Equal(t, 1, count())

	// Resume without a duplicate; Find by checkpoint and by the attempt marker.
	again, err := a.Publish(ctx, tok, cp.Wire(request(text)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Equal(t, 1, count())
	found, err = a.Find(ctx, tok, cp.Wire(request(text)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"]}
	found, err = a.Find(ctx, tok, lost.Wire(request(text)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	require.Equal(t, p.Permalink, found.Permalink)

	// First comment.
	c, err := a.Reply(ctx, tok, &app.ReplyRequest{Channel: page, ParentExternalID: p.ExternalID, Text: "Order at the link"})
	require.NoError(t, err)
	require.NotEmpty(t, c.ExternalID)
	require.Len(t, nets.Sandbox.Held(app.Facebook, sandbox.KindComment), 1)

	// One photo.
	ph, err := a.Publish(ctx, tok, request(&facebook.Payload{Text: "Loaf"}, sandboxtest.Image("i1")))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(ph.Permalink, "https://www.facebook.com/photo/?fbid="), ph.Permalink)
	require.Equal(t, 2, count())

	// Several photos: unpublished photos (checkpointed), then one feed post; a retry after the
	// photos reuses them.
	mcp := sandboxtest.Checkpoints{}
	multi := request(&facebook.Payload{Text: "Three loaves"}, sandboxtest.Image("m1"), sandboxtest.Image("m2"), sandboxtest.Image("m3"))
	nets.Fail(t, app.Facebook, `{"status":500,"code":"2","message":"An unexpected error has occurred. Please retry your request later.","path":"/feed"}`)
	_, err = a.Publish(ctx, tok, mcp.Wire(multi))
	require.Equal(t, app.ErrTransient, app.ClassOf(err))
	require.NotEmpty(t, mcp["facebook.photo.2"])
	mp, err := a.Publish(ctx, tok, mcp.Wire(multi))
	require.NoError(t, err)
	require.Equal(t, 3, count())
	require.Len(t, nets.Sandbox.Held(app.Facebook, sandbox.KindMedia), 3, "no photo uploaded twice")
	posts := nets.Posts(app.Facebook, "alice")
	require.Equal(t, mp.ExternalID, posts[2].ID)
	require.Len(t, posts[2].Media, 3)

	// Video.
	v, err := a.Publish(ctx, tok, request(&facebook.Payload{Text: "Kneading", MediaTitle: "How we knead"}, sandboxtest.Video("v1")))
	require.NoError(t, err)
	require.Equal(t, "https://www.facebook.com/"+page.ID+"/videos/"+v.ExternalID+"/", v.Permalink)

	// Reel: start, upload by file_url, finish, poll.
	r, err := a.Publish(ctx, tok, request(&facebook.Payload{Type: "REEL", Text: "Reel"}, sandboxtest.Video("r1")))
	require.NoError(t, err)
	require.Equal(t, "https://www.facebook.com/reel/"+r.ExternalID, r.Permalink)

	// A reel whose finish answer was lost is found by its video's status, not posted again.
	rcp := sandboxtest.Checkpoints{}
	reel := &facebook.Payload{Type: "REEL", Text: "Reel two"}
	nets.Fail(t, app.Facebook, `{"status":500,"code":"2","message":"An unexpected error has occurred. Please retry your request later.","path":"/video_reels"}`)
	_, err = a.Publish(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("r2"))))
	require.Error(t, err) // the start failed: nothing exists
	found, err = a.Find(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("r2"))))
	require.NoError(t, err)
	require.Nil(t, found)
	r2, err := a.Publish(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("r2"))))
	require.NoError(t, err)
	delete(rcp, "facebook.post")
	found, err = a.Find(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("r2"))))
	require.NoError(t, err)
	require.Equal(t, r2.ExternalID, found.ExternalID)
	require.Equal(t, 6, count())

	// Stories; a story whose answer was lost is found among the page's stories by its photo.
	scp := sandboxtest.Checkpoints{}
	st, err := a.Publish(ctx, tok, scp.Wire(request(&facebook.Payload{Type: "STORY"}, sandboxtest.Image("s1"))))
	require.NoError(t, err)
	delete(scp, "facebook.post")
	found, err = a.Find(ctx, tok, scp.Wire(request(&facebook.Payload{Type: "STORY"}, sandboxtest.Image("s1"))))
	require.NoError(t, err)
	require.Equal(t, st.ExternalID, found.ExternalID)
	_, err = a.Publish(ctx, tok, request(&facebook.Payload{Type: "STORY"}, sandboxtest.Video("s2")))
	require.NoError(t, err)
	require.Equal(t, 8, count())

	// Without a page token anywhere, the page's token is read from the Graph with the user token.
	bare := *page
	bare.Token = ""
	noTok := request(&facebook.Payload{Text: "page token fetched"})
	noTok.Channel = &bare
	nt, err := a.Publish(ctx, tok, noTok)
	require.NoError(t, err)
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{Channel: &bare, ExternalID: nt.ExternalID}))

	// Delete, with the page token as Crier keeps it (Secrets["channel"] of the selected page).
	stored := &app.Token{AccessToken: tok.AccessToken, Secrets: map[string]string{"channelId": page.ID, "channel": page.Token}}
	require.NoError(t, a.Delete(ctx, stored, &app.DeleteRequest{Network: app.Facebook, ExternalID: ph.ExternalID}))
	require.Equal(t, 7, count())

	// Permanent: Graph's message verbatim.
	_, err = a.Publish(ctx, tok, request(&facebook.Payload{Text: "x", Link: "not a url"}))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "(#100) link URL is not properly formatted", ne.Message)
	require.Equal(t, "100", ne.Code)

	// Throttled: code 32 with X-Business-Use-Case-Usage's estimated_time_to_regain_access.
	nets.Fail(t, app.Facebook, `{"status":429,"message":"(#32) Page request limit reached","resetInSeconds":600,"path":"/feed"}`)
	_, err = a.Publish(ctx, tok, request(&facebook.Payload{Text: "later"}))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "(#32) Page request limit reached", ne.Message)
	require.WithinDuration(t, time.Now().Add(10*time.Minute), ne.ResetAt, time.Minute)
	require.Equal(t, 7, count())
}

// Documented Graph answers: unpublished /photos {id}, /feed {id} with attached_media,
// permalink_url, the Reels flow (start, rupload with file_url, finish, status), and a permanent
// (#368) error kept verbatim.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	var sawFileURL, sawFinish, sawAttached string
	photos := 0
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = r.ParseForm()
		auth := r.Header.Get("Authorization")
		require.True(t, auth == "Bearer PAGETOKEN" || auth == "OAuth PAGETOKEN", auth)
		switch {
		case r.URL.Path == "/v21.0/111/feed":
			if r.Form.Get("message") == "spam" {
				w.WriteHeader(400)
				_, _ = w.Write([]byte(`{"error":{"message":"(#368) The action attempted has been deemed abusive or is otherwise disallowed","type":"OAuthException","code":368,"error_subcode":1390008,"fbtrace_id":"AbC"}}`))
				return
			}
			sawAttached = r.Form.Get("attached_media[0]") + r.Form.Get("attached_media[1]")
			_, _ = w.Write([]byte(`{"id":"111_222"}`))
		case r.URL.Path == "/v21.0/111/photos":
			require.Equal(t, "false", r.Form.Get("published"))
			photos++
			_, _ = w.Write([]byte(`{"id":"90` + string(rune('0'+photos)) + `"}`))
		case r.URL.Path == "/v21.0/111_222":
			_, _ = w.Write([]byte(`{"permalink_url":"https://www.facebook.com/111/posts/pfbid02abc","id":"111_222"}`))
		case r.URL.Path == "/v21.0/111/video_reels" && r.Form.Get("upload_phase") == "start":
			_, _ = w.Write([]byte(`{"video_id":"555","upload_url":"` + srv.URL + `/video-upload/v21.0/555"}`))
		case r.URL.Path == "/video-upload/v21.0/555":
			sawFileURL = r.Header.Get("file_url")
			_, _ = w.Write([]byte(`{"success":true}`))
		case r.URL.Path == "/v21.0/111/video_reels":
			sawFinish = r.Form.Get("video_state") + " " + r.Form.Get("video_id")
			_, _ = w.Write([]byte(`{"success":true}`))
		case r.URL.Path == "/v21.0/555":
			_, _ = w.Write([]byte(`{"status":{"video_status":"ready","uploading_phase":{"status":"complete"},"processing_phase":{"status":"complete"},"publishing_phase":{"status":"complete","publish_status":"published"}},"id":"555"}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	defer srv.Close()
	a := facebook.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	page := &app.Channel{ID: "111", Token: "PAGETOKEN"}
	tok := &app.Token{AccessToken: "USER"}
	ctx := context.Background()

	p, err := a.Publish(ctx, tok, &app.PublishRequest{Channel: page, Payload: &facebook.Payload{Text: "Two"},
		Media: []app.MediaFile{sandboxtest.Image("a"), sandboxtest.Image("b")}})
	require.NoError(t, err)
	require.Equal(t, "111_222", p.ExternalID)
	require.Equal(t, "https://www.facebook.com/111/posts/pfbid02abc", p.Permalink)
	require.Equal(t, `{"media_fbid":"901"}{"media_fbid":"902"}`, sawAttached)

	r, err := a.Publish(ctx, tok, &app.PublishRequest{Channel: page, Payload: &facebook.Payload{Type: "REEL", Text: "R"},
		Media: []app.MediaFile{sandboxtest.Video("v")}})
	require.NoError(t, err)
	require.Equal(t, "555", r.ExternalID)
	require.Equal(t, "https://www.facebook.com/reel/555", r.Permalink)
	require.Equal(t, "https://media.crier.invalid/v.mp4", sawFileURL)
	require.Equal(t, "PUBLISHED 555", sawFinish)

	_, err = a.Publish(ctx, tok, &app.PublishRequest{Channel: page, Payload: &facebook.Payload{Text: "spam"}})
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "368/1390008", ne.Code)
	require.Equal(t, "(#368) The action attempted has been deemed abusive or is otherwise disallowed", ne.Message)
}
