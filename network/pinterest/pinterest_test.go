package pinterest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pinterest"
)

// Documented shapes of API v5: the token call with Basic client auth, user_account, boards with
// bookmark pagination, and {code, message} errors.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v5/oauth/token":
			id, secret, ok := r.BasicAuth()
			require.True(t, ok)
			require.Equal(t, "app", id)
			require.Equal(t, "s", secret)
			_, _ = w.Write([]byte(`{"access_token":"pina_AEA","refresh_token":"pinr_AEA","response_type":"authorization_code","token_type":"bearer","expires_in":2592000,"refresh_token_expires_in":31536000,"scope":"boards:read pins:read"}`))
		case "/v5/user_account":
			_, _ = w.Write([]byte(`{"account_type":"BUSINESS","id":"549755885175","profile_image":"https://i.pinimg.com/p.jpg","website_url":"https://x.example","username":"crier","business_name":"Crier Co","about":"We post"}`))
		case "/v5/boards":
			if r.URL.Query().Get("bookmark") == "" {
				_, _ = w.Write([]byte(`{"items":[{"id":"549755885175","name":"Summer Recipes","description":"","owner":{"username":"crier"},"privacy":"PUBLIC"}],"bookmark":"Y2JVSG81V2sxcmNHRlpWM1J"}`))
				return
			}
			_, _ = w.Write([]byte(`{"items":[{"id":"549755885176","name":"Garden","owner":{"username":"crier"}}],"bookmark":null}`))
		}
	}))
	defer srv.Close()
	a := pinterest.New(core.Endpoints{Auth: "https://www.pinterest.com", API: srv.URL}, core.Credentials{ClientID: "app", ClientSecret: "s"})
	raw, _ := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://c/cb", State: "s"})
	require.Contains(t, raw, "https://www.pinterest.com/oauth/?")
	require.Contains(t, raw, "scope=boards%3Aread%2Cboards%3Awrite")
	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c", RedirectURI: "https://c/cb"})
	require.NoError(t, err)
	require.Equal(t, "pinr_AEA", tok.RefreshToken)
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "Crier Co", p.DisplayName)
	cs, err := a.Channels(context.Background(), tok)
	require.NoError(t, err)
	require.Len(t, cs, 2, "follows the bookmark")
	require.Equal(t, "Summer Recipes", *cs[0].Name)

	ne := pinterest.Classify(401, nil, []byte(`{"code":2,"message":"Authentication failed."}`))
	require.Equal(t, app.ErrAuthExpired, ne.Class)
	require.Equal(t, "2", ne.Code)
	require.Equal(t, app.ErrPermanent, pinterest.Classify(404, nil, []byte(`{"code":3,"message":"Board not found."}`)).Class)
	require.Equal(t, app.ErrRateLimited, pinterest.Classify(429, nil, []byte(`{"code":8,"message":"rate limit exceeded"}`)).Class)
}
