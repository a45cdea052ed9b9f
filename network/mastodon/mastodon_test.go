package mastodon_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/mastodon"
)

// Documented shapes: POST /api/v1/apps, POST /oauth/token, verify_credentials; the server URL is
// guarded against private addresses.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/apps":
			_, _ = w.Write([]byte(`{"id":"563419","name":"Crier","website":null,"redirect_uri":"https://c/cb","client_id":"TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM","client_secret":"ZEaFUFmF0umgBX1qKJDjaU99Q31lDkOU8NutzTOoliw","vapid_key":"BCk"}`))
		case "/oauth/token":
			require.NoError(t, r.ParseForm())
			require.Equal(t, "TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM", r.PostForm.Get("client_id"))
			_, _ = w.Write([]byte(`{"access_token":"ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0","token_type":"Bearer","scope":"read write","created_at":1573979017}`))
		case "/api/v1/accounts/verify_credentials":
			_, _ = w.Write([]byte(`{"id":"14715","username":"trwnh","acct":"trwnh","display_name":"infinite love ⴳ","note":"<p>writing</p>","avatar":"https://files.mastodon.social/a.png"}`))
		}
	}))
	defer srv.Close()
	a := mastodon.New(true, "https://crier.example")
	server, err := a.NormalizeServer(srv.URL + "/")
	require.NoError(t, err)
	id, secret, err := a.RegisterApp(context.Background(), server, "https://c/cb")
	require.NoError(t, err)
	require.NotEmpty(t, secret)
	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c", ServerURL: server, ClientID: id, ClientSecret: secret, RedirectURI: "https://c/cb"})
	require.NoError(t, err)
	require.True(t, tok.Expiry.IsZero())
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Contains(t, p.Username, "trwnh@127.0.0.1:")
	_, err = a.Refresh(context.Background(), tok)
	require.ErrorIs(t, err, app.ErrNoRefresh)

	guarded := mastodon.New(false, "")
	_, err = guarded.NormalizeServer("http://127.0.0.1:3000")
	require.Error(t, err)
	s, err := guarded.NormalizeServer("mastodon.social")
	require.NoError(t, err)
	require.Equal(t, "https://mastodon.social", s)

	h := http.Header{}
	h.Set("X-RateLimit-Reset", "2026-11-23T14:05:00.000Z")
	ne := mastodon.Classify(429, h, []byte(`{"error":"Too many requests"}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, time.Date(2026, 11, 23, 14, 5, 0, 0, time.UTC), ne.ResetAt.UTC())
	require.Equal(t, app.ErrAuthExpired, mastodon.Classify(401, nil, []byte(`{"error":"The access token is invalid"}`)).Class)
	require.Equal(t, app.ErrPermanent, mastodon.Classify(422, nil, []byte(`{"error":"Validation failed: Text character limit of 500 exceeded"}`)).Class)
}
