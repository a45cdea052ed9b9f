package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// The periodic jobs' work: tokens expiring soon are refreshed ahead of use; disconnected accounts
// past deleteOn are purged.
func TestSocialAccountRefreshAndPurge(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Jobs")
	// 5-minute X tokens: within the refresh window as soon as they are issued.
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/x/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	done := approve(t, connectURL(t, srv, key, "TWITTER", team))
	require.Equal(t, "true", done.Query().Get("success"))

	n, err := srv.Service.RefreshDueTokens(t.Context())
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	require.GreaterOrEqual(t, sandboxOf(t, srv, "x").count(http.MethodPost, "/2/oauth2/token"), 2)

	// With deleteDisconnectedAfterHours 0, a disconnected account is due at once.
	res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"deleteDisconnectedAfterHours":0}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	// A post that targets the account keeps its history when the account is purged.
	st, post, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Kept","postDate":"`+soon(time.Hour)+`",
		"status":"DRAFT","socialAccountTypes":["TWITTER"],"data":{"TWITTER":{"text":"still here after the purge"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	tb := `{"type":"TWITTER","teamId":"` + team + `"}`
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	purged, err := srv.Service.PurgeDueSocialAccounts(t.Context())
	require.NoError(t, err)
	require.GreaterOrEqual(t, purged, 1)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/social-account/to-delete", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"total":0`)
	require.Equal(t, "Kept", getPost(t, srv, key, post.ID).Title)
}
