package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Snapchat: connect, the public profile stored, the short-lived token refreshed, disconnect.
func TestConnectSnapchatThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Snaps")

	authURL := connectURL(t, srv, key, "SNAPCHAT", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/snapchat/login/oauth2/authorize?"), authURL)
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a := byType(t, srv, key, "SNAPCHAT", team)
	require.Equal(t, "crier_sandbox", *a.Username)
	require.True(t, strings.HasPrefix(*a.ExternalID, "pp-"))

	// 30-minute tokens: expired at the network, refreshed by Crier before the call.
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/snapchat/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"SNAPCHAT","teamId":"` + team + `"}`
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	require.Equal(t, 2, sandboxOf(t, srv, "snapchat").count(http.MethodPost, "/login/oauth2/access_token"))

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
