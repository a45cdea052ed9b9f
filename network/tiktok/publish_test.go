package tiktok_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/network/tiktok"
)

// failingVideo is an upload whose reader breaks after n bytes (a worker dying mid-upload).
func failingVideo(b []byte, n int) app.MediaFile {
	m := sandboxtest.File("big", "video", "video/mp4", "mp4", b)
	m.Open = func(context.Context) (io.ReadCloser, error) {
		return io.NopCloser(io.MultiReader(bytes.NewReader(b[:n]), errReader{})), nil
	}
	return m
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("worker died") }

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.TikTok, "alice")
	a := nets.Adapters[app.TikTok].(*tiktok.Adapter)
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}
	username := "alice"
	account := &app.SocialAccount{Username: &username}
	request := func(pl *tiktok.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.TikTok, Account: account, Payload: pl, Media: m}
	}
	count := func() int { return len(nets.Posts(app.TikTok, "alice")) }

	cp := sandboxtest.Checkpoints{}
	pl := &tiktok.Payload{Text: "Kneading #bread", Privacy: "PUBLIC_TO_EVERYONE", DisableDuet: true, ThumbnailOffset: 1200}
	found, err := a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Nil(t, found)

	// A video by FILE_UPLOAD: init, chunk, status until PUBLISH_COMPLETE.
	p, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, "https://www.tiktok.com/@alice/video/"+p.ExternalID, p.Permalink)
	require.NotEmpty(t, p.Extra["publishId"])
	require.Equal(t, 1, count())
	h := nets.Posts(app.TikTok, "alice")[0]
	require.Equal(t, p.ExternalID, h.ID)
	require.Equal(t, "Kneading #bread", h.Text)

	// Retry and Find: the same publish, no second post.
	again, err := a.Publish(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	found, err = a.Find(ctx, tok, cp.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"]}
	found, err = a.Find(ctx, tok, lost.Wire(request(pl, sandboxtest.Video("v1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	require.Equal(t, 1, count())

	// An init whose upload died: the retry uploads to the same publish, once.
	ucp := sandboxtest.Checkpoints{}
	nets.Fail(t, app.TikTok, `{"status":500,"code":"internal","message":"Something went wrong. Please try again later.","path":"/upload/video"}`)
	_, err = a.Publish(ctx, tok, ucp.Wire(request(&tiktok.Payload{Text: "Second"}, sandboxtest.Video("v2"))))
	require.Equal(t, app.ErrTransient, app.ClassOf(err))
	require.NotEmpty(t, ucp["tiktok.publish_id"])
	found, err = a.Find(ctx, tok, ucp.Wire(request(&tiktok.Payload{Text: "Second"}, sandboxtest.Video("v2"))))
	require.NoError(t, err)
	require.Nil(t, found, "a publish whose upload never finished holds nothing")
	v2, err := a.Publish(ctx, tok, ucp.Wire(request(&tiktok.Payload{Text: "Second"}, sandboxtest.Video("v2"))))
	require.NoError(t, err)
	require.Equal(t, ucp["tiktok.publish_id"], v2.Extra["publishId"])
	require.Equal(t, 2, count())

	// A 20 MB video in two chunks whose worker died after the first: the retry sends the second
	// chunk only, to the same publish.
	big := bytes.Repeat([]byte("0123456789abcdef"), (20<<20)/16+1)
	ccp := sandboxtest.Checkpoints{}
	_, err = a.Publish(ctx, tok, ccp.Wire(request(&tiktok.Payload{Text: "Big"}, failingVideo(big, 12<<20))))
	require.Error(t, err)
	require.Empty(t, ccp["tiktok.uploaded"])
	bv, err := a.Publish(ctx, tok, ccp.Wire(request(&tiktok.Payload{Text: "Big"}, sandboxtest.File("big", "video", "video/mp4", "mp4", big))))
	require.NoError(t, err)
	require.Equal(t, ccp["tiktok.publish_id"], bv.Extra["publishId"])
	require.Equal(t, 3, count())
	require.Equal(t, []string{fmt.Sprintf("bytes:%d", len(big))}, nets.Posts(app.TikTok, "alice")[2].Media)

	// Photos (PULL_FROM_URL) and PULL_FROM_URL video; a draft goes to the inbox.
	ph, err := a.Publish(ctx, tok, request(&tiktok.Payload{Type: "IMAGE", Text: "Three loaves", PhotoCoverIndex: 1, AutoAddMusic: true},
		sandboxtest.Image("p1"), sandboxtest.Image("p2"), sandboxtest.Image("p3")))
	require.NoError(t, err)
	require.Equal(t, "https://www.tiktok.com/@alice/photo/"+ph.ExternalID, ph.Permalink)
	require.Len(t, nets.Posts(app.TikTok, "alice")[3].Media, 3)
	a.PullFromURL = true
	_, err = a.Publish(ctx, tok, request(&tiktok.Payload{Text: "Pulled"}, sandboxtest.Video("v3")))
	require.NoError(t, err)
	a.PullFromURL = false
	require.Equal(t, []string{"https://media.crier.invalid/v3.mp4"}, nets.Posts(app.TikTok, "alice")[4].Media)
	d, err := a.Publish(ctx, tok, request(&tiktok.Payload{Text: "Draft", UploadToDraft: true}, sandboxtest.Video("v4")))
	require.NoError(t, err)
	require.Equal(t, "inbox", d.Extra["state"])
	require.Equal(t, 6, count())

	// No delete, no comments on this API.
	require.ErrorIs(t, a.Delete(ctx, tok, &app.DeleteRequest{ExternalID: p.ExternalID}), app.ErrNotSupported)
	_, err = a.Reply(ctx, tok, &app.ReplyRequest{ParentExternalID: p.ExternalID, Text: "hi"})
	require.ErrorIs(t, err, app.ErrNotSupported)

	// Text only and a privacy the creator lacks: refused. TikTok's own message verbatim.
	_, err = a.Publish(ctx, tok, request(&tiktok.Payload{Text: "words"}))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	_, err = a.Publish(ctx, tok, request(&tiktok.Payload{Text: "x", Privacy: "FRIENDS"}, sandboxtest.Video("v")))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	_, err = a.Publish(ctx, tok, request(&tiktok.Payload{Text: "x", IsBrandContent: true, Privacy: "SELF_ONLY"}, sandboxtest.Video("v")))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "invalid_params", ne.Code)
	require.Equal(t, "Branded content cannot be private (SELF_ONLY).", ne.Message)

	// 429 rate_limit_exceeded: reset after TikTok's minute window.
	nets.Fail(t, app.TikTok, `{"status":429,"code":"rate_limit_exceeded","message":"API rate limit was exceeded, please retry later.","path":"/video/init"}`)
	_, err = a.Publish(ctx, tok, request(&tiktok.Payload{Text: "later"}, sandboxtest.Video("l")))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "API rate limit was exceeded, please retry later.", ne.Message)
	require.WithinDuration(t, time.Now().Add(time.Minute), ne.ResetAt, 5*time.Second)
	require.Equal(t, 6, count())
}

// Documented shapes: creator_info, video/init {publish_id, upload_url}, the chunk PUT, and
// status/fetch with publicaly_available_post_id; FAILED with fail_reason.
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	var initBody map[string]any
	var uploaded int
	fetches := 0
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		switch r.URL.Path {
		case "/v2/post/publish/creator_info/query/":
			_, _ = w.Write([]byte(`{"data":{"creator_avatar_url":"https://lf16-tt4d.tiktokcdn.com/obj/a.jpeg","creator_username":"tiktok","creator_nickname":"TikTok Official","privacy_level_options":["PUBLIC_TO_EVERYONE","MUTUAL_FOLLOW_FRIENDS","SELF_ONLY"],"comment_disabled":false,"duet_disabled":false,"stitch_disabled":true,"max_video_post_duration_sec":300},"error":{"code":"ok","message":"","log_id":"202210112248442CB9319E1FB30C1073F3"}}`))
		case "/v2/post/publish/video/init/":
			require.NoError(t, json.NewDecoder(r.Body).Decode(&initBody))
			_, _ = w.Write([]byte(`{"data":{"publish_id":"v_pub_file~v2-1.123456789","upload_url":"` + srv.URL + `/upload/?upload_id=67890&upload_token=Xza123"},"error":{"code":"ok","message":"","log_id":"202210112248442CB9319E1FB30C1073F3"}}`))
		case "/upload/":
			require.Equal(t, "bytes 0-31/32", r.Header.Get("Content-Range"))
			b, _ := io.ReadAll(r.Body)
			uploaded = len(b)
			w.WriteHeader(201)
		case "/v2/post/publish/status/fetch/":
			fetches++
			if fetches == 1 {
				_, _ = w.Write([]byte(`{"data":{"status":"PROCESSING_UPLOAD","uploaded_bytes":40},"error":{"code":"ok","message":"","log_id":"x"}}`))
				return
			}
			_, _ = w.Write([]byte(`{"data":{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[7283947329847293847],"uploaded_bytes":40},"error":{"code":"ok","message":"","log_id":"x"}}`))
		default:
			t.Errorf("unexpected %s", r.URL.Path)
		}
	}))
	defer srv.Close()
	a := tiktok.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "ck", ClientSecret: "cs"})
	a.Poll = pubutil.Poller{Every: time.Millisecond}
	p, err := a.Publish(context.Background(), &app.Token{AccessToken: "act.x"}, &app.PublishRequest{
		Payload: &tiktok.Payload{Text: "Hello", DisableComments: true}, Media: []app.MediaFile{sandboxtest.Video("v")}})
	require.NoError(t, err)
	require.Equal(t, "7283947329847293847", p.ExternalID)
	require.Equal(t, "https://www.tiktok.com/@tiktok/video/7283947329847293847", p.Permalink)
	require.Equal(t, 32, uploaded)
	require.Equal(t, map[string]any{"source": "FILE_UPLOAD", "video_size": 32.0, "chunk_size": 32.0, "total_chunk_count": 1.0}, initBody["source_info"])
	info := initBody["post_info"].(map[string]any)
	require.Equal(t, "PUBLIC_TO_EVERYONE", info["privacy_level"])
	require.Equal(t, true, info["disable_comment"])
	require.Equal(t, true, info["disable_stitch"], "the creator has stitch disabled")

	ne := tiktok.Classify(400, nil, []byte(`{"data":{},"error":{"code":"url_ownership_unverified","message":"Please review our URL ownership verification rules.","log_id":"x"}}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.True(t, strings.HasPrefix(ne.Message, "Please review"))
	ne = tiktok.Classify(403, nil, []byte(`{"error":{"code":"spam_risk_too_many_posts","message":"The user has reached the daily post cap."}}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), ne.ResetAt, time.Minute)
}
