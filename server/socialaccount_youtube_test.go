package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// YouTube: Google's offline consent, the channels of the account (set-channel), the hour-long
// token refreshed with the (non-rotating) refresh token, quotaExceeded as a 429.
func TestConnectYouTubeThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Videos")

	authURL := connectURL(t, srv, key, "YOUTUBE", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/youtube/o/oauth2/v2/auth?"), authURL)
	q := mustQuery(t, authURL)
	require.Equal(t, "offline", q.Get("access_type"))
	require.Equal(t, "consent", q.Get("prompt"))
	require.Contains(t, q.Get("scope"), "youtube.upload")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	_, a := byType(t, srv, key, "YOUTUBE", team)
	require.Len(t, a.Channels, 2)
	require.True(t, strings.HasPrefix(a.Channels[0].ID, "UC"))

	tb := `{"type":"YOUTUBE","teamId":"` + team + `"}`
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel",
		`{"type":"YOUTUBE","teamId":"`+team+`","channelId":"`+a.Channels[1].ID+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	a = saAccount{}
	require.NoError(t, json.Unmarshal(b, &a))
	require.Equal(t, "Sandbox Travel", *a.DisplayName)
	require.Equal(t, "sandboxtravel", *a.Username)

	// Twice expired, twice refreshed with the same refresh token.
	for i := 0; i < 2; i++ {
		res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/youtube/_sandbox/expire-tokens", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		require.Contains(t, string(b), `"success":true`)
	}
	require.Equal(t, 3, sandboxOf(t, srv, "youtube").count(http.MethodPost, "/token"))

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/youtube/_sandbox/fail", `{"status":403,"code":"quotaExceeded","message":"The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.","path":"/youtube/v3/channels"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "exceeded your")

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
