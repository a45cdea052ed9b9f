package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// TikTok business detection: the user info's is_business_account is stored as
// isTiktokBusinessAccount (the twin's business users are logins starting with "biz_").
func TestConnectTikTokBusinessThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)

	personal := newTeam(t, srv, key, "Personal")
	done := approve(t, connectURL(t, srv, key, "TIKTOK", personal))
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a := byType(t, srv, key, "TIKTOK", personal)
	require.NotNil(t, a.IsTiktokBusinessAccount)
	require.False(t, *a.IsTiktokBusinessAccount)

	business := newTeam(t, srv, key, "Business")
	done = approve(t, connectURL(t, srv, key, "TIKTOK", business)+"&login=biz_studio")
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a = byType(t, srv, key, "TIKTOK", business)
	require.Equal(t, "biz_studio", *a.Username)
	require.NotNil(t, a.IsTiktokBusinessAccount)
	require.True(t, *a.IsTiktokBusinessAccount)

	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type=TIKTOK&teamId="+business, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"isTiktokBusinessAccount":true`)
}
