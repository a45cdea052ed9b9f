package youtube_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/google"
	"github.com/crier/crier/network/youtube"
)

// Documented shapes: channels.list (mine=true) and Google's error body.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/token":
			require.NoError(t, r.ParseForm())
			require.Equal(t, "refresh_token", r.PostForm.Get("grant_type"))
			_, _ = w.Write([]byte(`{"access_token":"ya29.new","expires_in":3599,"scope":"https://www.googleapis.com/auth/youtube","token_type":"Bearer"}`))
		case "/youtube/v3/channels":
			if r.Header.Get("Authorization") != "Bearer ya29.good" {
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":{"code":401,"message":"Request had invalid authentication credentials.","errors":[{"message":"Invalid Credentials","domain":"global","reason":"authError","location":"Authorization","locationType":"header"}],"status":"UNAUTHENTICATED"}}`))
				return
			}
			_, _ = w.Write([]byte(`{"kind":"youtube#channelListResponse","etag":"e","pageInfo":{"totalResults":1,"resultsPerPage":5},"items":[{"kind":"youtube#channel","etag":"e","id":"UC_x5XG1OV2P6uZZ5FSM9Ttw","snippet":{"title":"Google for Developers","description":"d","customUrl":"@googledevelopers","publishedAt":"2007-08-23T00:34:43Z","thumbnails":{"default":{"url":"https://yt3.ggpht.com/a=s88","width":88,"height":88}}}}]}`))
		}
	}))
	defer srv.Close()
	a := youtube.New(core.Endpoints{Auth: srv.URL, API: srv.URL, Token: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	cs, err := a.Channels(context.Background(), &app.Token{AccessToken: "ya29.good"})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.Equal(t, "UC_x5XG1OV2P6uZZ5FSM9Ttw", cs[0].ID)
	require.Equal(t, "googledevelopers", *cs[0].Username)
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(a.Check(context.Background(), &app.Token{AccessToken: "old"})))
	tok, err := a.Refresh(context.Background(), &app.Token{RefreshToken: "1//rt"})
	require.NoError(t, err)
	require.Equal(t, "ya29.new", tok.AccessToken)
}

func TestClassify(t *testing.T) {
	t.Parallel()
	ne := google.Classify(403, nil, []byte(`{"error":{"code":403,"message":"The request cannot be completed because you have exceeded your quota.","errors":[{"message":"The request cannot be completed because you have exceeded your quota.","domain":"youtube.quota","reason":"quotaExceeded"}]}}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "quotaExceeded", ne.Code)
	require.Equal(t, 0, ne.ResetAt.In(google.Pacific).Hour())
	require.True(t, ne.ResetAt.After(time.Now()))
	require.Equal(t, app.ErrPermanent, google.Classify(400, nil, []byte(`{"error":{"code":400,"message":"Invalid title","errors":[{"domain":"youtube.video","reason":"invalidTitle"}]}}`)).Class)
	require.Equal(t, app.ErrTransient, google.Classify(503, nil, []byte(`{"error":{"code":503,"message":"Backend Error","errors":[{"domain":"global","reason":"backendError"}]}}`)).Class)
}
