package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Discord bot install: the guild chosen at consent is the account; its text, announcement and
// forum channels (read with the bot token) are the channels; the user token is refreshed.
func TestConnectDiscordThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Community")
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/discord/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)

	authURL := connectURL(t, srv, key, "DISCORD", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/discord/oauth2/authorize?"), authURL)
	q := mustQuery(t, authURL)
	require.Equal(t, "bot identify guilds webhook.incoming", q.Get("scope"))
	require.NotEmpty(t, q.Get("permissions"))
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	_, a := byType(t, srv, key, "DISCORD", team)
	require.Contains(t, *a.DisplayName, "'s server")
	require.Len(t, a.Channels, 3, "the voice channel is left out")
	require.NotNil(t, a.Channels[0].Webhook, "the incoming webhook made at consent is on #general")
	require.Equal(t, "Crier", *a.Channels[0].Webhook.Name)
	require.NotEmpty(t, *a.Channels[0].Webhook.ID)
	require.Contains(t, *a.Channels[0].Webhook.URL, "/sandbox/discord/api/webhooks/"+*a.Channels[0].Webhook.ID+"/")
	require.Nil(t, a.Channels[1].Webhook)

	tb := `{"type":"DISCORD","teamId":"` + team + `"}`
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, 2, sandboxOf(t, srv, "discord").count(http.MethodPost, "/api/v10/oauth2/token"), "exchange, then refresh")
	require.Contains(t, string(b), `"webhook":{"avatar":null,"id":"`, "the webhook survives the token refresh and the channel refresh")

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/discord/_sandbox/fail", `{"status":429,"message":"You are being rate limited.","resetInSeconds":5,"path":"/channels"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "You are being rate limited.")

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
