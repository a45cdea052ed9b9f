package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

func TestOrganizationRecordSettingsUsageAndDelete(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Launch"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var org map[string]any
	require.NoError(t, json.Unmarshal(b, &org))
	require.Equal(t, "Acme", org["name"])
	require.Len(t, org["teams"], 1)
	require.Equal(t, "CUSTOMER", org["createdBy"].(map[string]any)["role"])
	for _, f := range []string{"apiAccess", "analyticsDisabled", "showVerboseErrors", "deleteAccountAfter", "createdAt", "updatedAt"} {
		require.Contains(t, org, f)
	}

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/posts", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"used":0,"limit":20,"remaining":20}`, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", key)
	require.JSONEq(t, `{"used":0,"limit":200,"remaining":200}`, string(b))

	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"deleteDisconnectedAfterHours":169}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"deleteDisconnectedAfterHours"}, decodeError(t, b).Issues[0].Path)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"portalAccentColor":"red"}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings",
		`{"verboseErrors":true,"deleteDisconnectedAfterHours":24,"portalBrandName":"Acme Agency","portalAccentColor":"#4F46E5","portalLogoUrl":"https://acme.example/logo.png"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var settings map[string]any
	require.NoError(t, json.Unmarshal(b, &settings))
	require.Equal(t, true, settings["verboseErrors"])
	require.EqualValues(t, 24, settings["deleteDisconnectedAfterHours"])
	require.Equal(t, "#4F46E5", settings["portalAccentColor"])

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/delete", `{"confirmName":"acme"}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/delete", `{"confirmName":"Acme"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	// Its keys are revoked with it.
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", key)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
}
