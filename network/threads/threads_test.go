package threads_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/threads"
)

// Documented shapes: the short-lived token, th_exchange_token, th_refresh_token and /me.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/oauth/access_token":
			_, _ = w.Write([]byte(`{"access_token":"THQVJ-short","user_id":12345678}`))
		case "/access_token":
			require.Equal(t, "th_exchange_token", r.URL.Query().Get("grant_type"))
			require.Equal(t, "THQVJ-short", r.URL.Query().Get("access_token"))
			_, _ = w.Write([]byte(`{"access_token":"THQVJ-long","token_type":"bearer","expires_in":5183944}`))
		case "/refresh_access_token":
			require.Equal(t, "th_refresh_token", r.URL.Query().Get("grant_type"))
			_, _ = w.Write([]byte(`{"access_token":"THQVJ-renewed","token_type":"bearer","expires_in":5183944}`))
		case "/v1.0/me":
			_, _ = w.Write([]byte(`{"id":"1234567","username":"threadsapitestuser","name":"Threads API Test User","threads_profile_picture_url":"https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/","threads_biography":"This is my Threads bio."}`))
		}
	}))
	defer srv.Close()
	a := threads.New(core.Endpoints{Auth: "https://threads.net", API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c", RedirectURI: "https://c/cb"})
	require.NoError(t, err)
	require.Equal(t, "THQVJ-long", tok.AccessToken)
	require.WithinDuration(t, time.Now().Add(60*24*time.Hour), tok.Expiry, 2*time.Hour)
	tok, err = a.Refresh(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "THQVJ-renewed", tok.AccessToken)
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "threadsapitestuser", p.Username)
	require.Equal(t, "This is my Threads bio.", p.Bio)
}
