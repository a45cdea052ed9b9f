package mastodon_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/mastodon"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

func file(id, typ, mime string, b []byte) app.MediaFile {
	return app.MediaFile{UploadID: id, Type: typ, Mime: mime, Size: int64(len(b)),
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
}

// Publishing through the real adapter to the sandbox twin: text with an image and a video (the
// video is processed asynchronously and polled), the idempotency key, Find, replies and delete.
func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Mastodon, "alice")
	a := nets.Adapters[app.Mastodon].(*mastodon.Adapter)
	a.Poll = pubutil.Poller{Every: 10 * time.Millisecond}
	ctx := context.Background()
	prof, err := a.Profile(ctx, tok)
	require.NoError(t, err)
	acct := &app.SocialAccount{ExternalID: &prof.ExternalID}

	video, err := os.ReadFile("../../media/testdata/sample.mp4")
	require.NoError(t, err)
	png := []byte("\x89PNG\r\n\x1a\n-not-a-real-image-but-the-twin-only-counts")
	saved := map[string]string{}
	req := &app.PublishRequest{AttemptKey: "post-1:mastodon", Network: app.Mastodon, Account: acct,
		Payload: &mastodon.Payload{Text: "Hello <world> & friends", Privacy: "UNLISTED", Spoiler: "cw"},
		Media:   []app.MediaFile{file("u1", "image", "image/png", png), file("u2", "video", "video/mp4", video)},
		Checkpoint: func(_ context.Context, k, v string) error {
			saved[k] = v
			return nil
		}}
	found, err := a.Find(ctx, tok, req)
	require.NoError(t, err)
	require.Nil(t, found)

	pub, err := a.Publish(ctx, tok, req)
	require.NoError(t, err)
	require.NotEmpty(t, pub.ExternalID)
	require.Contains(t, pub.Permalink, "/@alice/"+pub.ExternalID)
	require.Len(t, saved, 2, "each media id is checkpointed")

	// The same attempt key answers the same status: no second post.
	again, err := a.Publish(ctx, tok, req)
	require.NoError(t, err)
	require.Equal(t, pub.ExternalID, again.ExternalID)
	posts := nets.Sandbox.Held(app.Mastodon, sandbox.KindPost)
	require.Len(t, posts, 1)
	require.Equal(t, "Hello <world> & friends", posts[0].Text)
	require.Len(t, posts[0].Media, 2)
	require.Len(t, nets.Sandbox.Held(app.Mastodon, sandbox.KindMedia), 2, "checkpointed media are not uploaded again")

	found, err = a.Find(ctx, tok, req)
	require.NoError(t, err)
	require.Equal(t, pub.ExternalID, found.ExternalID)

	rreq := &app.ReplyRequest{AttemptKey: "c-1:mastodon", Account: acct, ParentExternalID: pub.ExternalID, Text: "first!"}
	fr, err := a.FindReply(ctx, tok, rreq)
	require.NoError(t, err)
	require.Nil(t, fr)
	reply, err := a.Reply(ctx, tok, rreq)
	require.NoError(t, err)
	fr, err = a.FindReply(ctx, tok, rreq)
	require.NoError(t, err)
	require.Equal(t, reply.ExternalID, fr.ExternalID)
	comments := nets.Sandbox.Held(app.Mastodon, sandbox.KindComment)
	require.Len(t, comments, 1)
	require.Equal(t, pub.ExternalID, comments[0].Parent)

	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{Network: app.Mastodon, ExternalID: pub.ExternalID}))
	require.NotNil(t, nets.Sandbox.Held(app.Mastodon, sandbox.KindPost)[0].DeletedAt)
	require.NoError(t, a.Delete(ctx, tok, &app.DeleteRequest{Network: app.Mastodon, ExternalID: pub.ExternalID}), "already gone is fine")

	// A refusal is permanent with Mastodon's message verbatim.
	_, err = a.Publish(ctx, tok, &app.PublishRequest{AttemptKey: "post-2", Payload: &mastodon.Payload{Text: ""}})
	var ne *app.NetworkError
	require.ErrorAs(t, err, &ne)
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, 422, ne.Status)
	require.Equal(t, "Validation failed: Text can't be blank", ne.Message)
}

// A video still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing (no
// worker waits); the next attempt, resumed from the checkpoints, polls the same media and posts
// the status once.
func TestPublishYieldsWhileProcessing(t *testing.T) {
	t.Parallel()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.Mastodon, "alice")
	a := nets.Adapters[app.Mastodon].(*mastodon.Adapter)
	ctx := context.Background()
	video, err := os.ReadFile("../../media/testdata/sample.mp4")
	require.NoError(t, err)
	r := &app.PublishRequest{AttemptKey: "post-1:mastodon", Network: app.Mastodon, Payload: &mastodon.Payload{Text: "A slow video"},
		Media: []app.MediaFile{file("u1", "video", "video/mp4", video)}}
	saved := sandboxtest.Yield(t, a, &a.Poll, tok, r)
	require.NotEmpty(t, saved["media:u1"])
	require.Empty(t, nets.Sandbox.Held(app.Mastodon, sandbox.KindPost))

	p, err := a.Publish(ctx, tok, saved.Wire(&app.PublishRequest{AttemptKey: r.AttemptKey, Network: app.Mastodon, Payload: r.Payload, Media: r.Media}))
	require.NoError(t, err)
	posts := nets.Sandbox.Held(app.Mastodon, sandbox.KindPost)
	require.Len(t, posts, 1)
	require.Equal(t, p.ExternalID, posts[0].ID)
	require.Equal(t, []string{saved["media:u1"]}, posts[0].Media)
	require.Len(t, nets.Sandbox.Held(app.Mastodon, sandbox.KindMedia), 1, "the video is uploaded once")
}
