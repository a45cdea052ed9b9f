package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Issue 14, "Secrets and sessions": signed-in dashboard pages and every API answer that carries a
// key or a webhook secret are Cache-Control: no-store; the rest is left alone.
func TestNoStoreOnSignedInPagesAndSecrets(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	cookie := signupCookie(t, srv)
	session := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"cache"}`, session...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"), "key creation")
	var k keyAnswer
	require.NoError(t, json.Unmarshal(b, &k))

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/api-key/"+k.ID+"/roll", "", "x-api-key", k.Key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"), "key roll")
	require.NoError(t, json.Unmarshal(b, &k))
	key := []string{"x-api-key", k.Key}

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/webhook", `{"url":"http://127.0.0.1:9/hook","events":["team.created"]}`, key...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"), "webhook creation")
	var hook struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &hook))
	for _, call := range [][2]string{
		{http.MethodGet, "/api/v1/webhook"},
		{http.MethodGet, "/api/v1/webhook/" + hook.ID},
		{http.MethodPost, "/api/v1/webhook/" + hook.ID + "/rotate-secret"},
	} {
		res, b = do(t, call[0], srv.URL+call[1], "", key...)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		require.Contains(t, string(b), `"secret"`)
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"), call)
	}

	// No secret, no header: the API's other answers are for READ-PATH caching to decide.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", key...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Empty(t, res.Header.Get("Cache-Control"))

	// Every signed-in page; the public ones keep their headers.
	for _, path := range []string{"/", "/profile", "/settings/api-keys", "/teams"} {
		res, b = do(t, http.MethodGet, srv.URL+path, "", "Cookie", cookie)
		require.Equal(t, http.StatusOK, res.StatusCode, path+": "+string(b[:min(len(b), 200)]))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"), path)
	}
	res, _ = do(t, http.MethodGet, srv.URL+"/login", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotEqual(t, "no-store", res.Header.Get("Cache-Control"))
}

// HSTS: a production instance at an https BASE_URL, reached through TLS (here a proxy's
// X-Forwarded-Proto), tells browsers to stay on https for a year; plain http never says so.
func TestHSTSInProductionOverHTTPS(t *testing.T) {
	t.Parallel()
	prod := servertest.Start(t, servertest.Options{Env: map[string]string{
		"CRIER_ENV": "production", "CRIER_SECRET": strings.Repeat("s", 40), "BASE_URL": "https://crier.example"}})
	res, _ := do(t, http.MethodGet, prod.URL+"/login", "", "X-Forwarded-Proto", "https")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "max-age=31536000; includeSubdomains", res.Header.Get("Strict-Transport-Security"))
	res, _ = do(t, http.MethodGet, prod.URL+"/api/v1/openapi.json", "", "X-Forwarded-Proto", "https")
	require.Equal(t, "max-age=31536000; includeSubdomains", res.Header.Get("Strict-Transport-Security"))

	dev := servertest.Start(t)
	res, _ = do(t, http.MethodGet, dev.URL+"/login", "", "X-Forwarded-Proto", "https")
	require.Empty(t, res.Header.Get("Strict-Transport-Security"), "an http BASE_URL")
}
