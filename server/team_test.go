package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// apiKeyFor signs up a new organization and returns an API key of its owner.
func apiKeyFor(t testing.TB, srv *servertest.Server) string {
	t.Helper()
	cookie := signupCookie(t, srv)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"tests"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var k keyAnswer
	require.NoError(t, json.Unmarshal(b, &k))
	return k.Key
}

func TestTeamsThroughTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team/", `{"name":"Launch"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var team struct {
		ID             string `json:"id"`
		Name           string `json:"name"`
		OrganizationID string `json:"organizationId"`
	}
	require.NoError(t, json.Unmarshal(b, &team))
	require.Equal(t, "Launch", team.Name)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"ab"}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	require.Equal(t, "too_small", e.Issues[0].Code)
	require.Equal(t, []any{"name"}, e.Issues[0].Path)

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/team?limit=5&search=laun", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var list struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	for _, f := range []string{"organization", "createdBy", "bots", "socialAccounts"} {
		require.Contains(t, list.Items[0], f)
	}

	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/team/"+team.ID, `{"name":"Relaunch"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"name":"Relaunch"`)

	// Another organization sees none of it.
	other := apiKeyFor(t, srv)
	for _, tc := range []struct{ method, body string }{{http.MethodGet, ""}, {http.MethodPatch, `{"name":"Taken"}`}, {http.MethodDelete, ""}} {
		res, b = do(t, tc.method, srv.URL+"/api/v1/team/"+team.ID, tc.body, "x-api-key", other)
		require.Equal(t, http.StatusNotFound, res.StatusCode, tc.method+" "+string(b))
	}

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/team/"+team.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"deletedAt":"`)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team/"+team.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}
