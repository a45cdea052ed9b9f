package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

func TestProfileOrganizationsAndAuditLog(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	cookie := signupCookie(t, srv)
	same := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}

	res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/user/me", `{"firstName":"Grace","lastName":"Hopper","timezone":"Europe/Paris"}`, same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"timezone":"Europe/Paris"`)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/user/me", `{"timezone":"Mars/Olympus"}`, same...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"timezone"}, decodeError(t, b).Issues[0].Path)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/me/onboarding", "", same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/user/me", "", same...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"onboardedAt":"`)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/create", `{"name":"Side project"}`, same...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var m struct {
		OrganizationID string `json:"organizationId"`
		Role           string `json:"role"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	require.Equal(t, "OWNER", m.Role)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/switch-organization", `{"organizationId":"`+m.OrganizationID+`"}`, same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"currentOrganizationId":"`+m.OrganizationID+`"`)
	switched := ""
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			switched = c.Name + "=" + c.Value
		}
	}
	require.NotEmpty(t, switched)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", switched)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"currentOrganizationId":"`+m.OrganizationID+`"`)

	// Switching to an organization the user is not in: 404.
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/auth/switch-organization", `{"organizationId":"00000000-0000-0000-0000-000000000000"}`, same...)
	require.Equal(t, http.StatusNotFound, res.StatusCode)

	// The first organization's audit log holds the signup and the profile change, newest first.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/audit-log?limit=10", "", same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var log struct {
		Items []struct{ Action, ActorType string } `json:"items"`
		Total int                                  `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &log))
	require.GreaterOrEqual(t, log.Total, 2)
	require.Equal(t, "user.updated", log.Items[0].Action)
	require.Equal(t, "USER", log.Items[0].ActorType)
}
