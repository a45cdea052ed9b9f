package reddit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/reddit"
)

// Documented shapes: /api/v1/me, the subreddit Listing, json.errors on 200, X-Ratelimit-Reset.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, reddit.UserAgent, r.Header.Get("User-Agent"), "Reddit requires a descriptive User-Agent")
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/me":
			_, _ = w.Write([]byte(`{"is_employee":false,"name":"spez","id":"1w72","icon_img":"https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_x.png?width=256&amp;s=1","subreddit":{"display_name_prefixed":"u/spez","public_description":"Reddit CEO","title":"spez"}}`))
		case "/subreddits/mine/subscriber":
			_, _ = w.Write([]byte(`{"kind":"Listing","data":{"after":null,"dist":1,"children":[{"kind":"t5","data":{"display_name":"golang","title":"The Go Programming Language","name":"t5_2rc7j","icon_img":"","community_icon":"https://styles.redditmedia.com/g.png","allow_images":true,"allow_videos":false,"allow_galleries":true,"link_flair_enabled":true}}]}}`))
		}
	}))
	defer srv.Close()
	a := reddit.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	p, err := a.Profile(context.Background(), &app.Token{AccessToken: "t"})
	require.NoError(t, err)
	require.Equal(t, "t2_1w72", p.ExternalID)
	require.Equal(t, "spez", p.Username)
	require.Contains(t, p.AvatarURL, "width=256&s=1")
	cs, err := a.Channels(context.Background(), &app.Token{AccessToken: "t"})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.Equal(t, "golang", cs[0].ID)
	require.False(t, *cs[0].Metadata.AllowVideos)
	require.True(t, *cs[0].Metadata.LinkFlairEnabled)
	raw, _ := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://c/cb", State: "s"})
	require.Contains(t, raw, "duration=permanent")
}

func TestClassify(t *testing.T) {
	t.Parallel()
	ne := reddit.Classify(200, nil, []byte(`{"json":{"errors":[["RATELIMIT","you are doing that too much. try again in 9 minutes.","ratelimit"]]}}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "RATELIMIT", ne.Code)
	require.WithinDuration(t, time.Now().Add(9*time.Minute), ne.ResetAt, 5*time.Second)
	ne = reddit.Classify(200, nil, []byte(`{"json":{"errors":[["SUBREDDIT_NOEXIST","that subreddit doesn't exist","sr"]]}}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Nil(t, reddit.Classify(200, nil, []byte(`{"json":{"errors":[],"data":{"id":"abc","name":"t3_abc"}}}`)))
	h := http.Header{}
	h.Set("X-Ratelimit-Reset", "42")
	ne = reddit.Classify(429, h, []byte(`{"message":"Too Many Requests","error":429}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(42*time.Second), ne.ResetAt, 5*time.Second)
	require.Equal(t, app.ErrAuthExpired, reddit.Classify(401, nil, []byte(`{"message":"Unauthorized","error":401}`)).Class)
}
