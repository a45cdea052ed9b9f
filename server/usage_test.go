package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

func TestPerAccountUsageOverTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	auth := []string{"x-api-key", key}

	// No social account exists yet: any id is 404.
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits?socialAccountId=acc_1", "", auth...)
	require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))
	require.Equal(t, "Social account not found", decodeError(t, b).Message)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits?socialAccountId=acc_1&date=2026-11-01T00:00:00Z", "", auth...)
	require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits", "", auth...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"socialAccountId"}, decodeError(t, b).Issues[0].Path)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits?socialAccountId=acc_1&date=yesterday", "", auth...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/imports", "", auth...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"limitPerSocialAccount":100,"socialAccounts":[],"pagination":{"page":1,"pageSize":20,"total":0,"totalPages":0}}`, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/imports?page=3&pageSize=5&socialAccountType=TIKTOK&socialAccountId=x", "", auth...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"limitPerSocialAccount":100,"socialAccounts":[],"pagination":{"page":3,"pageSize":5,"total":0,"totalPages":0}}`, string(b))

	for query, want := range map[string]struct{ code, field string }{
		"page=0":                    {"too_small", "page"},
		"page=1.5":                  {"invalid_type", "page"},
		"pageSize=101":              {"too_big", "pageSize"},
		"socialAccountType=MYSPACE": {"invalid_enum_value", "socialAccountType"},
	} {
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/imports?"+query, "", auth...)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, query)
		e := decodeError(t, b)
		require.Equal(t, want.code, e.Issues[0].Code, query)
		require.Equal(t, []any{want.field}, e.Issues[0].Path, query)
	}

	// A team filter names one of the organization's teams.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Launch"}`, auth...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var team struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &team))
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/imports?teamId="+team.ID, "", auth...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	otherKey := apiKeyFor(t, srv)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/imports?teamId="+team.ID, "", "x-api-key", otherKey)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Equal(t, "Team not found", decodeError(t, b).Message)

	for _, path := range []string{"/api/v1/organization/usage/imports", "/api/v1/organization/usage/daily-limits?socialAccountId=x"} {
		res, _ := do(t, http.MethodGet, srv.URL+path, "")
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
	}
}
