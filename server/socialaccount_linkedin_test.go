package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// LinkedIn: connect, the member's profile, Company Pages as channels (set-channel), refresh with
// the refresh token once the access token expired, disconnect.
func TestConnectLinkedInThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "B2B")

	authURL := connectURL(t, srv, key, "LINKEDIN", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/linkedin/oauth/v2/authorization?"), authURL)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "w_organization_social")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	_, a := byType(t, srv, key, "LINKEDIN", team)
	require.Contains(t, *a.DisplayName, "Sandbox")
	require.NotNil(t, a.UserID)
	require.Len(t, a.Channels, 2)
	require.Equal(t, "Sandbox Robotics", *a.Channels[0].Name)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel",
		`{"type":"LINKEDIN","teamId":"`+team+`","channelId":"`+a.Channels[0].ID+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	a = saAccount{}
	require.NoError(t, json.Unmarshal(b, &a))
	require.Equal(t, "Sandbox Robotics", *a.DisplayName)

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/linkedin/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"LINKEDIN","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, 2, sandboxOf(t, srv, "linkedin").count(http.MethodPost, "/oauth/v2/accessToken"), "exchange, then refresh")

	// LinkedIn's 5xx is a 502 carrying its message.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/linkedin/_sandbox/fail", `{"status":503,"message":"Service Unavailable","path":"/v2/userinfo"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", tb, "x-api-key", key)
	require.Equal(t, http.StatusBadGateway, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "Service Unavailable")

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	status, _ := byType(t, srv, key, "LINKEDIN", team)
	require.Equal(t, http.StatusNotFound, status)
}
