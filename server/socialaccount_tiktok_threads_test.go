package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// TikTok (client_key, rotating refresh tokens) and Threads (long-lived tokens renewed with
// th_refresh_token): connect, profile, refresh, disconnect.
func TestConnectTikTokAndThreadsThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Shorts")
	// Threads tokens of 5 minutes: every use renews them.
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/threads/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)

	for _, tc := range []struct{ network, seg, authPrefix, refreshMethod, refreshPath string }{
		{"TIKTOK", "tiktok", "/sandbox/tiktok/v2/auth/authorize/?", http.MethodPost, "/v2/oauth/token"},
		{"THREADS", "threads", "/sandbox/threads/oauth/authorize?", http.MethodGet, "/refresh_access_token"},
	} {
		authURL := connectURL(t, srv, key, tc.network, team)
		require.True(t, strings.HasPrefix(authURL, srv.URL+tc.authPrefix), authURL)
		if tc.network == "TIKTOK" {
			q := mustQuery(t, authURL)
			require.Equal(t, "sandbox-tiktok-client", q.Get("client_key"))
			require.Empty(t, q.Get("client_id"))
			require.Contains(t, q.Get("scope"), "user.info.basic,")
		}
		done := approve(t, authURL)
		require.Equal(t, "true", done.Query().Get("success"), done.String())
		status, a := byType(t, srv, key, tc.network, team)
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, "crier_sandbox", *a.Username)

		res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/"+tc.seg+"/_sandbox/expire-tokens", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		if tc.network == "THREADS" {
			// An expired Threads token cannot be renewed: the check says reconnect.
			tb := `{"type":"THREADS","teamId":"` + team + `"}`
			res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			require.Contains(t, string(b), `"success":false`)
			done = approve(t, connectURL(t, srv, key, "THREADS", team))
			require.Equal(t, a.ID, done.Query().Get("socialAccountId"))
		}
		tb := `{"type":"` + tc.network + `","teamId":"` + team + `"}`
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", tb, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		require.GreaterOrEqual(t, sandboxOf(t, srv, tc.seg).count(tc.refreshMethod, tc.refreshPath), 1, tc.network)

		res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}
	require.Equal(t, 2, sandboxOf(t, srv, "tiktok").count(http.MethodPost, "/v2/oauth/token"), "exchange, then one refresh")
}
