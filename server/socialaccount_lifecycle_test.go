package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Every network's whole life through the sandbox, over HTTP: connect, the profile stored, the
// access token expired and renewed by a connection check (or, for networks whose tokens cannot be
// renewed, the account flagged for reconnection), a channel chosen where the network needs one,
// disconnect, and the purge of the disconnected account.
func TestEveryNetworkLifecycle(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"deleteDisconnectedAfterHours":0}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	// renews: a connection check after the access token expired still succeeds (refresh token, a
	// new app-password session …). Mastodon issues tokens that cannot be renewed, and Meta's
	// long-lived tokens (Facebook, Instagram, Threads) are renewed only while still valid — the refresh job
	// does that ahead of expiry (asserted below) — so once expired they need a reconnect.
	cases := []struct {
		network, seg string
		renews       bool
		channel      bool // set-channel applies
	}{
		{"TIKTOK", "tiktok", true, false}, {"YOUTUBE", "youtube", true, true}, {"INSTAGRAM", "instagram", false, true},
		{"FACEBOOK", "facebook", false, true}, {"TWITTER", "x", true, false}, {"THREADS", "threads", false, false},
		{"LINKEDIN", "linkedin", true, true}, {"PINTEREST", "pinterest", true, false}, {"REDDIT", "reddit", true, false},
		{"MASTODON", "mastodon", false, false}, {"DISCORD", "discord", true, false}, {"SLACK", "slack", true, false},
		{"BLUESKY", "bluesky", true, false}, {"GOOGLE_BUSINESS", "google_business", true, true}, {"SNAPCHAT", "snapchat", true, false},
	}
	team := newTeam(t, srv, key, "Life")
	for _, c := range cases {
		t.Run(c.network, func(t *testing.T) {
			// Five-minute tokens: inside the refresh job's window as soon as they are issued.
			res, b := do(t, http.MethodPost, srv.URL+"/sandbox/"+c.seg+"/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			done := connectAny(t, srv, key, c.network, team)
			require.Equal(t, "true", done.Query().Get("success"), done.String())
			status, a := byType(t, srv, key, c.network, team)
			require.Equal(t, http.StatusOK, status)
			require.NotNil(t, a.ExternalID)
			require.NotEmpty(t, *a.ExternalID)

			if c.channel {
				res, b = do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type="+c.network+"&teamId="+team, "", "x-api-key", key)
				require.Equal(t, http.StatusOK, res.StatusCode)
				var acct struct{ Channels []struct{ ID string } }
				require.NoError(t, json.Unmarshal(b, &acct))
				require.NotEmpty(t, acct.Channels, "a %s account lists its channels", c.network)
				body := `{"type":"` + c.network + `","teamId":"` + team + `","channelId":"` + acct.Channels[0].ID + `"}`
				res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel", body, "x-api-key", key)
				require.Equal(t, http.StatusOK, res.StatusCode, string(b))
				require.Contains(t, string(b), `"providerPageId":"`+acct.Channels[0].ID+`"`)
			}

			refreshed, err := srv.Service.RefreshDueTokens(t.Context())
			require.NoError(t, err)
			if c.network == "MASTODON" {
				require.Zero(t, refreshed, "Mastodon tokens do not expire and cannot be refreshed")
			} else {
				require.Equal(t, 1, refreshed, "the refresh job renews the %s token before it expires", c.network)
			}

			res, b = do(t, http.MethodPost, srv.URL+"/sandbox/"+c.seg+"/_sandbox/expire-tokens", "")
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			tb := `{"type":"` + c.network + `","teamId":"` + team + `"}`
			res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			if c.renews {
				require.Contains(t, string(b), `"success":true`, "%s renews an expired access token", c.network)
			} else {
				require.Contains(t, string(b), `"success":false`, "%s cannot renew: reconnect", c.network)
			}

			res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			require.Contains(t, string(b), `"deleteOn":"`)
			status, _ = byType(t, srv, key, c.network, team)
			require.Equal(t, http.StatusNotFound, status)
		})
	}
	// River's periodic purge (run on start, which under load can come after the first disconnects)
	// may have purged some already: what counts is that none is left.
	_, err := srv.Service.PurgeDueSocialAccounts(t.Context())
	require.NoError(t, err)
	var left int
	require.NoError(t, srv.Pool.QueryRow(t.Context(), `SELECT count(*) FROM social_accounts WHERE team_id = $1`, team).Scan(&left))
	require.Zero(t, left, "every disconnected account is purged")
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/social-account/to-delete", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"total":0`)
}

// connectAny connects a network the way its users do: the consent page for OAuth networks,
// the server field for Mastodon, the app-password page for Bluesky; as the sandbox user login
// when given (its own accounts and limits).
func connectAny(t testing.TB, srv *servertest.Server, key, network, team string, login ...string) *url.URL {
	t.Helper()
	as := strings.Join(login, "")
	switch network {
	case "MASTODON":
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect",
			`{"type":"MASTODON","teamId":"`+team+`","redirectUrl":"https://app.example/","serverUrl":"`+srv.URL+`/sandbox/mastodon"}`, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var out struct{ URL string }
		require.NoError(t, json.Unmarshal(b, &out))
		return approveAs(t, out.URL, as)
	case "BLUESKY":
		page := connectURL(t, srv, key, network, team)
		if as == "" {
			as = "life"
		}
		form := url.Values{"state": {mustQuery(t, page).Get("state")}, "identifier": {as + ".sandbox.bsky"}, "password": {"abcd-efgh-ijkl-mnop"}}
		res, b := do(t, http.MethodPost, srv.URL+"/connect/bluesky", form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin")
		require.Equal(t, http.StatusSeeOther, res.StatusCode, string(b))
		u, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err)
		return u
	}
	u := connectURL(t, srv, key, network, team)
	require.False(t, strings.Contains(u, "/connect/"), u)
	return approveAs(t, u, as)
}
