package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

// Names people type have a maximum (person names 100 characters, organization names 100): one
// character more is the spec's 400 with a too_big issue at the field, on sign-up, the profile, an
// invitation's acceptance and a new organization; exactly the maximum is accepted.
func TestNamesLongerThanTheirMaximumAre400(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	long, max := strings.Repeat("n", 101), strings.Repeat("n", 100)
	tooBig := func(t *testing.T, res *http.Response, b []byte, field string) {
		t.Helper()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
		e := decodeError(t, b)
		require.Len(t, e.Issues, 1, string(b))
		require.Equal(t, "too_big", e.Issues[0].Code)
		require.Equal(t, []any{field}, e.Issues[0].Path)
		require.Equal(t, "String must contain at most 100 character(s)", e.Issues[0].Message)
	}

	// Sign-up.
	signupBody := func(first, last, org string) string {
		b, _ := json.Marshal(map[string]string{"email": newEmail(), "password": "0123456789", "firstName": first, "lastName": last, "organizationName": org})
		return string(b)
	}
	for field, body := range map[string]string{
		"firstName": signupBody(long, "Hopper", "Acme"), "lastName": signupBody("Grace", long, "Acme"), "organizationName": signupBody("Grace", "Hopper", long),
	} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", body)
		tooBig(t, res, b, field)
	}
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", signupBody("  "+max+"  ", max, max))
	require.Equal(t, http.StatusCreated, res.StatusCode, "exactly 100 (spaces around are trimmed): %s", b)

	// The profile.
	cookie := signupCookie(t, srv)
	same := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}
	for _, field := range []string{"firstName", "lastName"} {
		res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/user/me", `{"`+field+`":"`+long+`"}`, same...)
		tooBig(t, res, b, field)
	}
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/user/me", `{"firstName":"`+max+`","lastName":"`+max+`"}`, same...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"firstName":"`+max+`"`)

	// A new organization.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/create", `{"name":"`+long+`"}`, same...)
	tooBig(t, res, b, "name")
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/create", `{"name":"`+max+`"}`, same...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))

	// An invitation accepted by a new person.
	key := apiKeyFor(t, srv)
	email := newEmail()
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+email+`","role":"MEMBER"}`, "x-api-key", key)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	token := outboxToken(t, srv, email, app.MailInvitation)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"a-long-password","firstName":"`+long+`"}`)
	tooBig(t, res, b, "firstName")
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"a-long-password","firstName":"`+max+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "the refused attempt left the token usable: %s", b)
}
