package tiktok_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/tiktok"
)

// Documented shapes of Login Kit v2: /v2/oauth/token/ (form with client_key) and /v2/user/info/
// with the {"data", "error":{code:"ok"}} envelope.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v2/oauth/token/":
			require.NoError(t, r.ParseForm())
			require.Equal(t, "ck", r.PostForm.Get("client_key"))
			if r.PostForm.Get("grant_type") == "refresh_token" && r.PostForm.Get("refresh_token") == "dead" {
				_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"Refresh token is invalid or expired.","log_id":"2023"}`))
				return
			}
			_, _ = w.Write([]byte(`{"access_token":"act.example12345","expires_in":86400,"open_id":"afd97af1-b87b-48b9-ac98-410aghda5344","refresh_expires_in":31536000,"refresh_token":"rft.example12345","scope":"user.info.basic,video.list","token_type":"Bearer"}`))
		case "/v2/user/info/":
			if r.Header.Get("Authorization") == "Bearer biz" {
				require.Contains(t, r.URL.Query().Get("fields"), "is_business_account")
				_, _ = w.Write([]byte(`{"data":{"user":{"open_id":"o","display_name":"Shop","username":"shop","is_business_account":true}},"error":{"code":"ok","message":"","log_id":"x"}}`))
				return
			}
			if r.Header.Get("Authorization") == "Bearer old" && r.URL.Query().Get("fields") != "open_id,avatar_url,display_name,username,bio_description" {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"data":{},"error":{"code":"invalid_params","message":"Invalid fields","log_id":"x"}}`))
				return
			}
			_, _ = w.Write([]byte(`{"data":{"user":{"avatar_url":"https://p19-sign.tiktokcdn-us.com/a.jpeg","open_id":"723f24d7-e717-40f8-a2b6-cb8464cd23b4","union_id":"c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1","display_name":"Tik Toker","username":"tiktoker"}},"error":{"code":"ok","message":"","log_id":"20220829194722CBE87ED59D524E727021"}}`))
		}
	}))
	defer srv.Close()
	a := tiktok.New(core.Endpoints{Auth: "https://www.tiktok.com", API: srv.URL}, core.Credentials{ClientID: "ck", ClientSecret: "cs"})
	raw, _ := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://c/cb", State: "s"})
	u, _ := url.Parse(raw)
	require.Equal(t, "/v2/auth/authorize/", u.Path)
	require.Equal(t, "ck", u.Query().Get("client_key"))
	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c", RedirectURI: "https://c/cb"})
	require.NoError(t, err)
	require.Equal(t, "rft.example12345", tok.RefreshToken)
	require.Equal(t, "afd97af1-b87b-48b9-ac98-410aghda5344", tok.Secrets["openId"])
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "tiktoker", p.Username)
	require.Nil(t, p.TikTokBusiness, "no is_business_account in the answer: unknown")
	p, err = a.Profile(context.Background(), &app.Token{AccessToken: "biz"})
	require.NoError(t, err)
	require.NotNil(t, p.TikTokBusiness)
	require.True(t, *p.TikTokBusiness)
	p, err = a.Profile(context.Background(), &app.Token{AccessToken: "old"})
	require.NoError(t, err, "a user info refusing the business field is read again without it")
	require.Nil(t, p.TikTokBusiness)
	_, err = a.Refresh(context.Background(), &app.Token{RefreshToken: "dead"})
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(err))

	ne := tiktok.Classify(401, nil, []byte(`{"data":{},"error":{"code":"access_token_invalid","message":"The access token is invalid or not found in the request.","log_id":"x"}}`))
	require.Equal(t, app.ErrAuthExpired, ne.Class)
	require.Equal(t, app.ErrRateLimited, tiktok.Classify(429, nil, []byte(`{"error":{"code":"rate_limit_exceeded","message":"API rate limit was exceeded"}}`)).Class)
	require.Equal(t, app.ErrRateLimited, tiktok.Classify(403, nil, []byte(`{"error":{"code":"spam_risk_too_many_posts","message":"daily cap"}}`)).Class)
	require.Equal(t, app.ErrPermanent, tiktok.Classify(200, nil, []byte(`{"error":{"code":"privacy_level_option_mismatch","message":"m"}}`)).Class)
}
