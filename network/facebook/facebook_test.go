package facebook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/facebook"
)

// The answers below are the Graph API's documented shapes (Facebook Login, long-lived tokens,
// /me/accounts with page tokens and paging, the error object, X-Business-Use-Case-Usage).
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = r.ParseForm()
		switch {
		case r.URL.Path == "/v21.0/oauth/access_token" && r.Form.Get("grant_type") == "fb_exchange_token":
			require.Equal(t, "short", r.Form.Get("fb_exchange_token"))
			require.Equal(t, "sec", r.Form.Get("client_secret"))
			_, _ = w.Write([]byte(`{"access_token":"long","token_type":"bearer","expires_in":5183944}`))
		case r.URL.Path == "/v21.0/oauth/access_token":
			require.Equal(t, "c0de", r.Form.Get("code"))
			require.Equal(t, "cid", r.Form.Get("client_id"))
			_, _ = w.Write([]byte(`{"access_token":"short","token_type":"bearer","expires_in":5183}`))
		case r.URL.Path == "/v21.0/me":
			_, _ = w.Write([]byte(`{"id":"10158","name":"Ada Page-Owner","email":"ada@example.com","picture":{"data":{"height":50,"is_silhouette":false,"url":"https://platform-lookaside.fbsbx.com/a.jpg","width":50}}}`))
		case r.URL.Path == "/v21.0/me/accounts" && r.Form.Get("after") == "":
			_, _ = w.Write([]byte(`{"data":[{"access_token":"EAAPage1","category":"Bakery","category_list":[{"id":"1","name":"Bakery"}],"name":"Ada's Bakery","id":"111","tasks":["ANALYZE","ADVERTISE","MODERATE","CREATE_CONTENT","MANAGE"],"picture":{"data":{"url":"https://x/p1.jpg"}}}],"paging":{"cursors":{"before":"MTEx","after":"MTEx"},"next":"` + srv.URL + `/v21.0/me/accounts?after=MTEx"}}`))
		case r.URL.Path == "/v21.0/me/accounts":
			_, _ = w.Write([]byte(`{"data":[{"access_token":"EAAPage2","name":"Ada's Bikes","id":"222"}],"paging":{"cursors":{"before":"MjIy","after":"MjIy"}}}`))
		}
	}))
	defer srv.Close()
	a := facebook.New(core.Endpoints{Auth: "https://www.facebook.com", API: srv.URL}, core.Credentials{ClientID: "cid", ClientSecret: "sec"})

	raw, err := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://crier.example/cb", State: "st",
		Options: app.ConnectOptions{WithMessagingScope: true}})
	require.NoError(t, err)
	u, _ := url.Parse(raw)
	require.Equal(t, "www.facebook.com", u.Host)
	require.Equal(t, "/v21.0/dialog/oauth", u.Path)
	require.Contains(t, u.Query().Get("scope"), "pages_manage_posts,")
	require.Contains(t, u.Query().Get("scope"), "pages_messaging")
	require.Empty(t, u.Query().Get("code_challenge"))

	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c0de", RedirectURI: "https://crier.example/cb"})
	require.NoError(t, err)
	require.Equal(t, "long", tok.AccessToken)
	require.WithinDuration(t, time.Now().Add(60*24*time.Hour), tok.Expiry, 2*time.Hour)

	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "10158", p.UserID)
	require.Equal(t, "ada@example.com", p.UserEmail)
	require.Equal(t, "https://platform-lookaside.fbsbx.com/a.jpg", p.AvatarURL)

	cs, err := a.Channels(context.Background(), tok)
	require.NoError(t, err)
	require.Len(t, cs, 2, "follows paging.next")
	require.Equal(t, "111", cs[0].ID)
	require.Equal(t, "EAAPage1", cs[0].Token)
	require.Equal(t, "111", *cs[0].Metadata.FacebookPageID)
	require.Equal(t, "Ada's Bikes", *cs[1].Name)
}
