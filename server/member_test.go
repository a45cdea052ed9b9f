package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

func TestMembersAndPasswordChange(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	cookie := signupCookie(t, srv)
	same := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}

	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/user/members", "", same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var list struct {
		Items []struct{ ID, Role string } `json:"items"`
		Total int                         `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	owner := list.Items[0].ID

	// The last OWNER can be neither demoted nor removed.
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/user/members/"+owner, `{"role":"ADMIN"}`, same...)
	require.Equal(t, http.StatusForbidden, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "last OWNER")
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/user/members/"+owner, "", same...)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	res, _ = do(t, http.MethodPatch, srv.URL+"/api/v1/user/members/"+owner, `{"role":"KING"}`, same...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)

	// Password change: wrong current password is a 400 on its field; then this session continues
	// with its fresh cookie and the old cookie stops working.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/me/password", `{"currentPassword":"nope-nope-nope","newPassword":"a-new-password"}`, same...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"currentPassword"}, decodeError(t, b).Issues[0].Path)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/me/password", `{"currentPassword":"0123456789","newPassword":"a-new-password"}`, same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	fresh := ""
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			fresh = c.Name + "=" + c.Value
		}
	}
	require.NotEmpty(t, fresh)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", fresh)
	require.Equal(t, http.StatusOK, res.StatusCode)
}

func TestMemberIDsOfAnotherOrganizationAre404(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	keyA := apiKeyFor(t, srv)
	keyB := apiKeyFor(t, srv)
	_, b := do(t, http.MethodGet, srv.URL+"/api/v1/user/members", "", "x-api-key", keyB)
	var list struct {
		Items []struct{ ID string } `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	memberB := list.Items[0].ID
	res, _ := do(t, http.MethodPatch, srv.URL+"/api/v1/user/members/"+memberB, `{"role":"MEMBER"}`, "x-api-key", keyA)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/user/members/"+memberB, "", "x-api-key", keyA)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}
