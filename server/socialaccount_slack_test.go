package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Slack bot install: the workspace is the account, its channels listed; a rotating bot token is
// refreshed; Slack's 200 {"ok":false,"error":"invalid_auth"} is an auth failure.
func TestConnectSlackThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Workspace")

	authURL := connectURL(t, srv, key, "SLACK", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/slack/oauth/v2/authorize?"), authURL)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "chat:write,")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a := byType(t, srv, key, "SLACK", team)
	require.Equal(t, "crier_sandbox", *a.Username)
	require.Len(t, a.Channels, 3)
	require.Equal(t, "general", *a.Channels[0].Name)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "incoming-webhook")
	require.NotNil(t, a.Channels[0].Webhook, "the install's incoming webhook is on #general")
	require.Equal(t, "#general", *a.Channels[0].Webhook.Name)
	require.Contains(t, *a.Channels[0].Webhook.URL, "/sandbox/slack/services/")
	require.Nil(t, a.Channels[1].Webhook)

	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/slack/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"SLACK","teamId":"` + team + `"}`
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, 2, sandboxOf(t, srv, "slack").count(http.MethodPost, "/api/oauth.v2.access"))
	require.Contains(t, string(b), `"webhook":{"avatar":null,"id":"B`, "the webhook survives the token refresh and the channel refresh")

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/slack/_sandbox/fail", `{"status":429,"resetInSeconds":30,"path":"/api/conversations.list"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "ratelimited")

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/slack/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":false`)

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
