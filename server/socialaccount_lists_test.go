package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Reddit and Pinterest: channels (subreddits, boards) are listed at connect and refreshed on
// demand — after the access token expired, through the refresh token.
func TestConnectListChannelNetworksThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Lists")

	for _, tc := range []struct {
		network, seg, authPath, tokenPath, channel string
	}{
		{"REDDIT", "reddit", "/sandbox/reddit/api/v1/authorize?", "/api/v1/access_token", "selfhosted"},
		{"PINTEREST", "pinterest", "/sandbox/pinterest/oauth?", "/v5/oauth/token", "Recipes"},
	} {
		authURL := connectURL(t, srv, key, tc.network, team)
		require.True(t, strings.HasPrefix(strings.Replace(authURL, "/oauth/?", "/oauth?", 1), srv.URL+tc.authPath), authURL)
		done := approve(t, authURL)
		require.Equal(t, "true", done.Query().Get("success"), done.String())
		_, a := byType(t, srv, key, tc.network, team)
		require.Equal(t, "crier_sandbox", *a.Username, tc.network)
		require.NotEmpty(t, a.Channels, tc.network)

		res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/"+tc.seg+"/_sandbox/expire-tokens", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		tb := `{"type":"` + tc.network + `","teamId":"` + team + `"}`
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		require.Contains(t, string(b), tc.channel)
		require.Equal(t, 2, sandboxOf(t, srv, tc.seg).count(http.MethodPost, tc.tokenPath), tc.network+": exchange, then refresh")

		// A list network has no channel to select.
		res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel", `{"type":"`+tc.network+`","teamId":"`+team+`","channelId":"x"}`, "x-api-key", key)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	}

	// Reddit's subreddit facts reach the channel metadata.
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=REDDIT&teamId="+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"linkFlairEnabled":true`)

	// Reddit's 429 carries its reset in X-Ratelimit-Reset.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/reddit/_sandbox/fail", `{"status":429,"message":"Too Many Requests","resetInSeconds":120,"path":"/subreddits"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", `{"type":"REDDIT","teamId":"`+team+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))

	for _, n := range []string{"REDDIT", "PINTEREST"} {
		res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", `{"type":"`+n+`","teamId":"`+team+`"}`, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}
}
