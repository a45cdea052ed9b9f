package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Instagram through Facebook Login: the professional accounts linked to the user's pages are the
// channels (a page without one is skipped); set-channel makes the account that Instagram account.
func TestConnectInstagramThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Insta")

	authURL := connectURL(t, srv, key, "INSTAGRAM", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/instagram/v21.0/dialog/oauth?"), authURL)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "instagram_content_publish")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=INSTAGRAM&teamId="+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"instagramConnectionMethod":"FACEBOOK"`)
	require.Contains(t, string(b), `"facebookPageId":"`)
	var a saAccount
	require.NoError(t, json.Unmarshal(b, &a))
	require.Len(t, a.Channels, 2, "the page without an Instagram account is not a channel")

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel",
		`{"type":"INSTAGRAM","teamId":"`+team+`","channelId":"`+a.Channels[0].ID+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	a = saAccount{}
	require.NoError(t, json.Unmarshal(b, &a))
	require.Equal(t, "sandbox_bakery", *a.Username)
	require.Equal(t, a.Channels[0].ID, *a.ProviderPageID)

	// Graph's expired-token answer (190) triggers the one refresh; a dead token then asks for a reconnect.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/instagram/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"INSTAGRAM","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":false`)
	require.Contains(t, string(b), "Error validating access token")

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}

// Instagram Login (instagramConnectionMethod INSTAGRAM): Instagram's own consent, the account is the
// professional account itself (no channel to choose), its 60-day token renewed with
// ig_refresh_token; a dead token asks for a reconnect.
func TestConnectInstagramLoginThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Insta Login")
	// Tokens of 5 minutes: every use renews them.
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/instagram/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect",
		`{"type":"INSTAGRAM","teamId":"`+team+`","redirectUrl":"https://app.example/done","instagramConnectionMethod":"INSTAGRAM"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var c struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &c))
	require.True(t, strings.HasPrefix(c.URL, srv.URL+"/sandbox/instagram/oauth/authorize?"), c.URL)
	q := mustQuery(t, c.URL)
	require.Contains(t, q.Get("scope"), "instagram_business_basic,instagram_business_content_publish")
	require.Equal(t, "code", q.Get("response_type"))
	done := approve(t, c.URL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	status, a := byType(t, srv, key, "INSTAGRAM", team)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "INSTAGRAM", *a.InstagramConnectionMethod)
	require.Equal(t, "sandbox_bakery", *a.Username)
	require.NotNil(t, a.ExternalID)
	require.Empty(t, a.Channels, "the account is its own destination")
	require.Nil(t, a.ProviderPageID)
	sb := sandboxOf(t, srv, "instagram")
	require.Equal(t, 1, sb.count(http.MethodPost, "/oauth/access_token"))
	require.Equal(t, 1, sb.count(http.MethodGet, "/access_token"))

	// The check renews the 5-minute token with ig_refresh_token first.
	tb := `{"type":"INSTAGRAM","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	require.GreaterOrEqual(t, sandboxOf(t, srv, "instagram").count(http.MethodGet, "/refresh_access_token"), 1)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"instagramConnectionMethod":"INSTAGRAM"`)

	// A dead token cannot be renewed: reconnect; reconnecting keeps the account.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/instagram/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":false`)
	done = approve(t, c.URL)
	require.Equal(t, a.ID, done.Query().Get("socialAccountId"))

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
