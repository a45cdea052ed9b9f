package x_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/x"
)

// The answers below are X's documented shapes (developer.x.com: OAuth 2.0 PKCE, GET /2/users/me,
// problem JSON errors, x-rate-limit-* headers).
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var tokenForm url.Values
	var basicUser string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/2/oauth2/token":
			require.NoError(t, r.ParseForm())
			tokenForm = r.PostForm
			basicUser, _, _ = r.BasicAuth()
			_, _ = w.Write([]byte(`{"token_type":"bearer","expires_in":7200,"access_token":"VGNibzFWSWREZm01bjN1N3dicWlNUG1oa2xRRVNNdmVHelJGY2hPWGxNd2dxOjE2MjIxNjA4MDY0MDM6MToxOmF0OjE","scope":"tweet.read users.read offline.access","refresh_token":"bWRWa3gzdnk3WHRGU1o0bmRRcTJ5VUxWX1lZTDdJSUtmaWcxbTVxdEFXcW5tOjE2MjIxNjA4MDY0MDM6MToxOnJ0OjE"}`))
		case "/2/users/me":
			if r.Header.Get("Authorization") != "Bearer good" {
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}`))
				return
			}
			_, _ = w.Write([]byte(`{"data":{"id":"2244994945","name":"X Dev","username":"XDevelopers","description":"The voice of the X Dev team","profile_image_url":"https://pbs.twimg.com/profile_images/1/a_normal.jpg","subscription_type":"PremiumPlus"}}`))
		}
	}))
	defer srv.Close()
	a := x.New(core.Endpoints{Auth: "https://x.com", API: srv.URL}, core.Credentials{ClientID: "cid", ClientSecret: "sec"})

	raw, err := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://crier.example/oauth/callback/twitter", State: "st", Verifier: "verifier-verifier-verifier-verifier-verifier"})
	require.NoError(t, err)
	u, _ := url.Parse(raw)
	require.Equal(t, "/i/oauth2/authorize", u.Path)
	q := u.Query()
	require.Equal(t, "code", q.Get("response_type"))
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.Equal(t, app.PKCEChallenge("verifier-verifier-verifier-verifier-verifier"), q.Get("code_challenge"))
	require.Equal(t, "tweet.read tweet.write users.read offline.access media.write", q.Get("scope"))

	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c0de", RedirectURI: "https://crier.example/oauth/callback/twitter", Verifier: "verifier-verifier-verifier-verifier-verifier"})
	require.NoError(t, err)
	require.Equal(t, "cid", basicUser, "confidential clients authenticate with Basic")
	require.Equal(t, "verifier-verifier-verifier-verifier-verifier", tokenForm.Get("code_verifier"))
	require.Equal(t, "authorization_code", tokenForm.Get("grant_type"))
	require.NotEmpty(t, tok.RefreshToken)
	require.WithinDuration(t, time.Now().Add(2*time.Hour), tok.Expiry, time.Minute)

	p, err := a.Profile(context.Background(), &app.Token{AccessToken: "good"})
	require.NoError(t, err)
	require.Equal(t, "XDevelopers", p.Username)
	require.Equal(t, "2244994945", p.ExternalID)
	require.Equal(t, "premium_plus", p.TwitterSubType)

	_, err = a.Profile(context.Background(), &app.Token{AccessToken: "bad"})
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(err))
}

func TestClassify(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(15 * time.Minute).Truncate(time.Second)
	h := http.Header{}
	h.Set("x-rate-limit-reset", itoa(reset.Unix()))
	ne := x.Classify(429, h, []byte(`{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.True(t, ne.ResetAt.Equal(reset), "%v vs %v", ne.ResetAt, reset)
	require.Equal(t, "Too Many Requests", ne.Message)

	// The 24-hour user cap of POST /2/tweets wins when it is the exhausted one.
	day := time.Now().Add(20 * time.Hour).Truncate(time.Second)
	h.Set("x-user-limit-24hour-remaining", "0")
	h.Set("x-user-limit-24hour-reset", itoa(day.Unix()))
	require.True(t, x.Classify(429, h, nil).ResetAt.Equal(day))

	ne = x.Classify(403, nil, []byte(`{"detail":"You are not allowed to create a Tweet with duplicate content.","type":"about:blank","title":"Forbidden","status":403}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "You are not allowed to create a Tweet with duplicate content.", ne.Message)

	ne = x.Classify(429, nil, []byte(`{"errors":[{"message":"Rate limit exceeded","code":88}]}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "88", ne.Code)

	require.Equal(t, app.ErrTransient, x.Classify(503, nil, []byte(`{"title":"Service Unavailable","detail":"Service Unavailable","type":"about:blank","status":503}`)).Class)
	require.Equal(t, app.ErrRateLimited, x.Classify(429, nil, []byte(`{"title":"UsageCapExceeded","type":"https://api.twitter.com/2/problems/usage-capped","detail":"Usage cap exceeded: Monthly product cap"}`)).Class)
	require.Nil(t, x.Classify(200, nil, nil))
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
