package instagram_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Instagram, "alice")
	a := nets.Adapters[app.Instagram].(*instagram.Adapter)
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	ig := &chans[0]
	request := func(pl *instagram.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.Instagram, Channel: ig, Payload: pl, Media: m}
	}
	count := func() int { return len(nets.Posts(app.Instagram, "alice")) }

	cp := sandboxtest.Checkpoints{}
	pl := &instagram.Payload{Text: "Fresh bread #bakery", AltText: "A loaf", LocationID: "110843418940484", Collaborators: []string{"ada"},
		Tagged: []instagram.Tag{{Username: "bob", X: 0.5, Y: 0.25}}}
	found, err := a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Nil(t, found)

	// An image: container → FINISHED → media_publish.
	p, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.Permalink, "https://www.instagram.com/p/"), p.Permalink)
	require.Equal(t, 1, count())
	h := nets.Posts(app.Instagram, "alice")[0]
	require.Equal(t, p.ExternalID, h.ID)
	require.Equal(t, "Fresh bread #bakery", h.Text)
	require.Equal(t, []string{"https://media.crier.invalid/i1.jpg"}, h.Media)
	require.Equal(t, "110843418940484", h.Data["location_id"])
	require.Equal(t, `[{"username":"bob","x":0.5,"y":0.25}]`, h.Data["user_tags"])
	require.Equal(t, "A loaf", h.Data["alt_text"])

	// Retry: no second media; Find by checkpoint and by the attempt marker.
	again, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Equal(t, 1, count())
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"], "instagram.container": cp["instagram.container"]}
	found, err = a.Find(ctx, tok, lost.Wire(request(pl)))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	// A publish whose answer was lost resumes by finding the media, not by publishing again.
	again, err = a.Publish(ctx, tok, lost.Wire(request(pl, sandboxtest.Image("i1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Equal(t, 1, count())

	// A container made by a dead attempt is published, not made again.
	rcp := sandboxtest.Checkpoints{}
	nets.Fail(t, app.Instagram, `{"status":500,"code":"2","message":"An unexpected error has occurred. Please retry your request later.","path":"/media_publish"}`)
	reel := &instagram.Payload{Type: "REEL", Text: "Kneading", TrialParams: &instagram.TrialParams{GraduationStrategy: "MANUAL"}, ThumbnailOffset: 1500}
	_, err = a.Publish(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("v1"))))
	require.Equal(t, app.ErrTransient, app.ClassOf(err))
	require.NotEmpty(t, rcp["instagram.container"])
	containers := len(nets.Sandbox.Held(app.Instagram, sandbox.KindMedia))
	r, err := a.Publish(ctx, tok, rcp.Wire(request(reel, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(r.Permalink, "https://www.instagram.com/reel/"), r.Permalink)
	require.Equal(t, containers, len(nets.Sandbox.Held(app.Instagram, sandbox.KindMedia)))
	require.Equal(t, 2, count())
	rh := nets.Posts(app.Instagram, "alice")[1]
	require.Equal(t, "REELS", rh.Data["product"])
	require.Equal(t, "true", rh.Data["share_to_feed"])
	require.Equal(t, "1500", rh.Data["thumb_offset"])
	require.Equal(t, `{"graduation_strategy":"MANUAL"}`, rh.Data["trial_params"])

	// Carousel of an image and a video; story.
	car := &instagram.Payload{Text: "Both", CarouselItems: []instagram.CarouselItem{{UploadID: "c1", AltText: "first"}, {UploadID: "c2"}}}
	c, err := a.Publish(ctx, tok, request(car, sandboxtest.Image("c1"), sandboxtest.Video("c2")))
	require.NoError(t, err)
	require.Equal(t, 3, count())
	ch := nets.Posts(app.Instagram, "alice")[2]
	require.Equal(t, c.ExternalID, ch.ID)
	require.Equal(t, "CAROUSEL_ALBUM", ch.Data["media_type"])
	require.Len(t, ch.Media, 2)
	s, err := a.Publish(ctx, tok, request(&instagram.Payload{Type: "STORY"}, sandboxtest.Image("s1")))
	require.NoError(t, err)
	require.Contains(t, s.Permalink, "/stories/")
	require.Equal(t, 4, count())

	// Comment and reply.
	cm, err := a.Reply(ctx, tok, &app.ReplyRequest{Channel: ig, ParentExternalID: p.ExternalID, ParentExtra: p.Extra, Text: "First!"})
	require.NoError(t, err)
	_, err = a.Reply(ctx, tok, &app.ReplyRequest{Channel: ig, ParentExternalID: cm.ExternalID, ParentExtra: cm.Extra, Text: "Thanks"})
	require.NoError(t, err)
	comments := nets.Sandbox.Held(app.Instagram, sandbox.KindComment)
	require.Len(t, comments, 2)
	require.Equal(t, cm.ExternalID, comments[1].Parent)

	// Delete.
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{Channel: ig, ExternalID: s.ExternalID}))
	require.Equal(t, 3, count())

	// Permanent: Meta's message verbatim. No media: refused before calling.
	_, err = a.Publish(ctx, tok, request(&instagram.Payload{Text: strings.Repeat("#a ", 31)}, sandboxtest.Image("x")))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "(#100) The caption contains more than 30 hashtags.", ne.Message)
	_, err = a.Publish(ctx, tok, request(&instagram.Payload{Text: "no media"}))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))

	// Throttled (code 4) with the BUC header's reset.
	nets.Fail(t, app.Instagram, `{"status":400,"code":"4","message":"(#4) Application request limit reached","resetInSeconds":300,"path":"/media"}`)
	_, err = a.Publish(ctx, tok, request(&instagram.Payload{Text: "later"}, sandboxtest.Image("l")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "(#4) Application request limit reached", ne.Message)
	require.WithinDuration(t, time.Now().Add(5*time.Minute), ne.ResetAt, time.Minute)
	require.Equal(t, 3, count())
}

// Documented shapes: container create {id}, status_code polling, media_publish {id}, permalink,
// and a container ERROR whose status carries Meta's message.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var forms []map[string]string
	polls := 0
	limited := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = r.ParseForm()
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v21.0/1784/media":
			f := map[string]string{}
			for k := range r.PostForm {
				f[k] = r.PostForm.Get(k)
			}
			forms = append(forms, f)
			if f["video_url"] == "https://media.crier.invalid/bad.mp4" {
				_, _ = w.Write([]byte(`{"id":"17999"}`))
				return
			}
			_, _ = w.Write([]byte(`{"id":"1790` + string(rune('0'+len(forms))) + `"}`))
		case r.URL.Path == "/v21.0/17999":
			_, _ = w.Write([]byte(`{"status_code":"ERROR","status":"Error: Unsupported video format (2207026)","id":"17999"}`))
		case strings.HasPrefix(r.URL.Path, "/v21.0/1790"):
			polls++
			if polls%2 == 1 {
				_, _ = w.Write([]byte(`{"status_code":"IN_PROGRESS","status":"In Progress","id":"x"}`))
				return
			}
			_, _ = w.Write([]byte(`{"status_code":"FINISHED","status":"Finished","id":"x"}`))
		case r.URL.Path == "/v21.0/1784/media_publish":
			require.Equal(t, "17903", r.PostForm.Get("creation_id"))
			_, _ = w.Write([]byte(`{"id":"18012345"}`))
		case r.URL.Path == "/v21.0/1784/content_publishing_limit":
			require.Equal(t, "quota_usage,config", r.URL.Query().Get("fields"))
			if limited {
				_, _ = w.Write([]byte(`{"data":[{"quota_usage":100,"config":{"quota_total":100,"quota_duration":86400}}]}`))
				return
			}
			_, _ = w.Write([]byte(`{"data":[{"quota_usage":4,"config":{"quota_total":100,"quota_duration":86400}}]}`))
		case r.URL.Path == "/v21.0/18012345":
			_, _ = w.Write([]byte(`{"id":"18012345","permalink":"https://www.instagram.com/p/C0abcDEF/","shortcode":"C0abcDEF"}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	defer srv.Close()
	a := instagram.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	a.Poll = pubutil.Poller{Every: time.Millisecond}
	ig := &app.Channel{ID: "1784", Token: "PAGE"}
	p, err := a.Publish(context.Background(), &app.Token{AccessToken: "U"}, &app.PublishRequest{Channel: ig,
		Payload: &instagram.Payload{Text: "Two", Collaborators: []string{"ada", "bob"}},
		Media:   []app.MediaFile{sandboxtest.Image("a"), sandboxtest.Image("b")}})
	require.NoError(t, err)
	require.Equal(t, "18012345", p.ExternalID)
	require.Equal(t, "https://www.instagram.com/p/C0abcDEF/", p.Permalink)
	require.Len(t, forms, 3)
	require.Equal(t, "true", forms[0]["is_carousel_item"])
	require.Equal(t, "CAROUSEL", forms[2]["media_type"])
	require.Equal(t, "17901,17902", forms[2]["children"])
	var collab []string
	require.NoError(t, json.Unmarshal([]byte(forms[2]["collaborators"]), &collab))
	require.Equal(t, []string{"ada", "bob"}, collab)

	_, err = a.Publish(context.Background(), &app.Token{AccessToken: "U"}, &app.PublishRequest{Channel: ig,
		Payload: &instagram.Payload{Type: "REEL"}, Media: []app.MediaFile{sandboxtest.Video("bad")}})
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Error: Unsupported video format (2207026)", ne.Message)

	// The 24-hour publishing cap is used up: deferred before any container is made.
	limited = true
	made := len(forms)
	_, err = a.Publish(context.Background(), &app.Token{AccessToken: "U"}, &app.PublishRequest{Channel: ig,
		Payload: &instagram.Payload{Text: "cap"}, Media: []app.MediaFile{sandboxtest.Image("c")}})
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.True(t, ne.ResetAt.After(time.Now()))
	require.Equal(t, made, len(forms))
}
