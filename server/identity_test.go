package server_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

func newEmail() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "api-" + hex.EncodeToString(b) + "@example.com"
}

// signupCookie signs up through the API and returns the session cookie header value.
func signupCookie(t testing.TB, srv *servertest.Server) string {
	t.Helper()
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+newEmail()+`","password":"0123456789","firstName":"Grace","organizationName":"Acme"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var sess struct {
		User                  struct{ Email string }
		Memberships           []struct{ Role, OrganizationName string }
		CurrentOrganizationID string `json:"currentOrganizationId"`
	}
	require.NoError(t, json.Unmarshal(b, &sess))
	require.Equal(t, "OWNER", sess.Memberships[0].Role)
	require.Equal(t, "Acme", sess.Memberships[0].OrganizationName)
	require.NotEmpty(t, sess.CurrentOrganizationID)
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			require.True(t, c.HttpOnly)
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("signup set no session cookie")
	return ""
}

type keyAnswer struct {
	ID  string `json:"id"`
	Key string `json:"key"`
}

// The first key is made with the session cookie (a same-origin write); then the key works alone.
func TestSignupCookieThenAPIKey(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	cookie := signupCookie(t, srv)

	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	// A cookie write without a same-origin signal or CSRF token is refused.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"CI"}`, "Cookie", cookie)
	require.Equal(t, http.StatusForbidden, res.StatusCode, string(b))
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"CI"}`, "Cookie", cookie, "Sec-Fetch-Site", "cross-site")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	// Double submit works for clients without Sec-Fetch-Site.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"CI"}`, "Cookie", cookie+"; _csrf=tok", "X-CSRF-Token", "tok")
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"Zapier"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var key keyAnswer
	require.NoError(t, json.Unmarshal(b, &key))
	require.NotEmpty(t, key.Key)

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/api-key?q=zap", "", "x-api-key", key.Key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var list struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	require.NotContains(t, list.Items[0], "key", "the secret is never listed")

	// Roll: the old key stops at once; the new one works.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/api-key/"+key.ID+"/roll", "", "x-api-key", key.Key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var rolled keyAnswer
	require.NoError(t, json.Unmarshal(b, &rolled))
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/api-key", "", "x-api-key", key.Key)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/api-key", "", "x-api-key", rolled.Key)
	require.Equal(t, http.StatusOK, res.StatusCode)

	// Logout expires the cookie.
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/auth/logout", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, -1, res.Cookies()[0].MaxAge)
}

func TestLoginAnswersSessionOr401(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	email := newEmail()
	res, _ := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+email+`","password":"0123456789","firstName":"Lin"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", `{"email":"`+email+`","password":"0123456789"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NotEmpty(t, res.Cookies())
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", `{"email":"`+email+`","password":"not-the-password"}`)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Equal(t, 401, decodeError(t, b).StatusCode)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+email+`","password":"0123456789","firstName":"Lin"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"email"}, decodeError(t, b).Issues[0].Path)
}

// Another organization's key id answers 404 through the API, never 403 and never data.
func TestAPIKeyTenantIsolation(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	keyOf := func() keyAnswer {
		cookie := signupCookie(t, srv)
		_, b := do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"k"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
		var k keyAnswer
		require.NoError(t, json.Unmarshal(b, &k))
		return k
	}
	a, b := keyOf(), keyOf()
	for _, tc := range []struct{ method, path string }{
		{http.MethodPost, "/api/v1/api-key/" + b.ID + "/roll"},
		{http.MethodDelete, "/api/v1/api-key/" + b.ID},
	} {
		res, body := do(t, tc.method, srv.URL+tc.path, "", "x-api-key", a.Key)
		require.Equal(t, http.StatusNotFound, res.StatusCode, tc.path+" "+string(body))
	}
	res, _ := do(t, http.MethodGet, srv.URL+"/api/v1/api-key", "", "x-api-key", b.Key)
	require.Equal(t, http.StatusOK, res.StatusCode, "B's key survived A's attempts")
}
