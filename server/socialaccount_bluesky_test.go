package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Bluesky: connect answers Crier's own page; an app password there opens a session (createSession
// once), the session is renewed with refreshSession when the access JWT expired.
func TestConnectBlueskyThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Sky")

	page := connectURL(t, srv, key, "BLUESKY", team)
	require.True(t, strings.HasPrefix(page, srv.URL+"/connect/bluesky?state="), page)
	res, b := do(t, http.MethodGet, page, "")
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `name="password"`)
	// In the organization's branding; the sandbox said in words, never its raw address.
	require.Contains(t, string(b), `data-testid="password-sandbox"`)
	require.Contains(t, string(b), "Acme")
	require.NotContains(t, string(b), "/sandbox/bluesky")
	state := mustQuery(t, page).Get("state")

	post := func(password string) (*http.Response, []byte) {
		form := url.Values{"state": {state}, "identifier": {"crier_sandbox.sandbox.bsky"}, "password": {password}}
		return do(t, http.MethodPost, srv.URL+"/connect/bluesky", form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin")
	}
	res, b = post("my-main-password")
	require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, string(b))
	require.Contains(t, string(b), "Invalid identifier or password")

	res, b = post("abcd-efgh-ijkl-mnop")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, string(b))
	done, _ := url.Parse(res.Header.Get("Location"))
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	_, a := byType(t, srv, key, "BLUESKY", team)
	require.Equal(t, "crier_sandbox.sandbox.bsky", *a.Username)
	require.True(t, strings.HasPrefix(*a.ExternalID, "did:plc:"))

	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/bluesky/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	tb := `{"type":"BLUESKY","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	st := sandboxOf(t, srv, "bluesky")
	require.Equal(t, 2, st.count(http.MethodPost, "/xrpc/com.atproto.server.createSession"), "one refused, one session — then reused")
	require.Equal(t, 1, st.count(http.MethodPost, "/xrpc/com.atproto.server.refreshSession"))

	// A forged state is refused on the page.
	res, _ = do(t, http.MethodGet, srv.URL+"/connect/bluesky?state=forged", "")
	require.Equal(t, http.StatusBadRequest, res.StatusCode)

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
