package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Mastodon: the app is registered on the server once and reused; the account carries its server.
func TestConnectMastodonThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Fedi")
	server := srv.URL + "/sandbox/mastodon"

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect", `{"type":"MASTODON","teamId":"`+team+`","redirectUrl":"https://app.example/"}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, []any{"serverUrl"}, decodeError(t, b).Issues[0].Path)

	connect := func() string {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect",
			`{"type":"MASTODON","teamId":"`+team+`","redirectUrl":"https://app.example/","serverUrl":"`+server+`/"}`, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var out struct{ URL string }
		require.NoError(t, json.Unmarshal(b, &out))
		require.True(t, strings.HasPrefix(out.URL, server+"/oauth/authorize?"), out.URL)
		return out.URL
	}
	done := approve(t, connect())
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	id := done.Query().Get("socialAccountId")

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=MASTODON&teamId="+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var a struct {
		Username         string `json:"username"`
		MastodonServerID string `json:"mastodonServerId"`
	}
	require.NoError(t, json.Unmarshal(b, &a))
	require.True(t, strings.HasPrefix(a.Username, "crier_sandbox@127.0.0.1:"), a.Username)
	require.NotEmpty(t, a.MastodonServerID)

	done = approve(t, connect())
	require.Equal(t, id, done.Query().Get("socialAccountId"))
	require.Equal(t, 1, sandboxOf(t, srv, "mastodon").count(http.MethodPost, "/api/v1/apps"), "registered once per server")

	tb := `{"type":"MASTODON","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	// Mastodon tokens cannot be refreshed: a revoked one means reconnecting.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":false`)

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}

// Issue 14, "Drop-in details": with SANDBOX=1 any Mastodon server is served by the twin (no real
// instance is reached) and stays the account's server; a server that forgot Crier's app gets a
// fresh registration at the next connect instead of refusing connects forever.
func TestMastodonAnyServerInTheSandboxAndReRegistration(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Fediverse")
	connect := func() string {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect",
			`{"type":"MASTODON","teamId":"`+team+`","redirectUrl":"https://app.example/","serverUrl":"https://mastodon.social"}`, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var out struct{ URL string }
		require.NoError(t, json.Unmarshal(b, &out))
		require.True(t, strings.HasPrefix(out.URL, srv.URL+"/sandbox/mastodon/oauth/authorize?"), out.URL)
		return out.URL
	}
	done := approve(t, connect())
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	id := done.Query().Get("socialAccountId")
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=MASTODON&teamId="+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var a struct {
		Username string `json:"username"`
	}
	require.NoError(t, json.Unmarshal(b, &a))
	require.Equal(t, "crier_sandbox@mastodon.social", a.Username, "the account keeps the server it named")
	require.Equal(t, 1, sandboxOf(t, srv, "mastodon").count(http.MethodPost, "/api/v1/apps"))

	// The server forgets every app: the kept registration is refused, Crier registers again.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/forget-apps", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	done = approve(t, connect())
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	require.Equal(t, id, done.Query().Get("socialAccountId"))
	require.Equal(t, 2, sandboxOf(t, srv, "mastodon").count(http.MethodPost, "/api/v1/apps"), "registered again once")

	// Known again: the next connect reuses it.
	done = approve(t, connect())
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	require.Equal(t, 2, sandboxOf(t, srv, "mastodon").count(http.MethodPost, "/api/v1/apps"))
}
