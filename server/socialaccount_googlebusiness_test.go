package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Google Business Profile: the locations of the user's accounts are the channels; set-channel
// picks the post parent accounts/{a}/locations/{l}; refresh through the Google refresh token.
func TestConnectGoogleBusinessThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Local")

	authURL := connectURL(t, srv, key, "GOOGLE_BUSINESS", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/google_business/o/oauth2/v2/auth?"), authURL)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "business.manage")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=GOOGLE_BUSINESS&teamId="+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"address":"1 Main Street, 94110 San Francisco, US"`)
	var a saAccount
	require.NoError(t, json.Unmarshal(b, &a))
	require.Len(t, a.Channels, 2)
	require.Regexp(t, `^accounts/\w+/locations/\w+$`, a.Channels[0].ID)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel",
		`{"type":"GOOGLE_BUSINESS","teamId":"`+team+`","channelId":"`+a.Channels[0].ID+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"displayName":"Sandbox Bakery Downtown"`)

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/google_business/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"GOOGLE_BUSINESS","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, 2, sandboxOf(t, srv, "google_business").count(http.MethodPost, "/token"))

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
