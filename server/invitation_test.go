package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

type invitationAnswer struct {
	ID        string     `json:"id"`
	Email     string     `json:"email"`
	Role      string     `json:"role"`
	ExpiresAt *time.Time `json:"expiresAt"`
	CreatedAt *time.Time `json:"createdAt"`
}

func TestInvitationsOverTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	owner := []string{"x-api-key", key}

	// Contract and service validation: 400 with codes and paths.
	for body, want := range map[string]struct{ code, field string }{
		`{"email":"not-an-email","role":"MEMBER"}`:        {"invalid_string", "email"},
		`{"email":"a@example.com","role":"KING"}`:         {"invalid_enum_value", "role"},
		`{"role":"MEMBER"}`:                               {"invalid_type", "email"},
		`{"email":"a@example.com"}`:                       {"invalid_type", "role"},
		`{"email":"a@example.com","role":"MEMBER","x":1}`: {"unrecognized_keys", ""},
	} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", body, owner...)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, body)
		e := decodeError(t, b)
		require.Equal(t, want.code, e.Issues[0].Code, body)
		if want.field != "" {
			require.Equal(t, []any{want.field}, e.Issues[0].Path, body)
		}
	}
	// The owner's own address is already a member.
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/user/members", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var members struct{ Items []struct{ Email string } }
	require.NoError(t, json.Unmarshal(b, &members))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+members.Items[0].Email+`","role":"ADMIN"}`, owner...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"email"}, decodeError(t, b).Issues[0].Path)

	// Create: 201 Invitation.
	email := newEmail()
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+email+`","role":"MEMBER"}`, owner...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var inv invitationAnswer
	require.NoError(t, json.Unmarshal(b, &inv))
	require.NotEmpty(t, inv.ID)
	require.Equal(t, email, inv.Email)
	require.Equal(t, "MEMBER", inv.Role)
	require.WithinDuration(t, time.Now().Add(7*24*time.Hour), *inv.ExpiresAt, time.Minute)
	require.NotNil(t, inv.CreatedAt)

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/user/invitations", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var list struct {
		Items []invitationAnswer `json:"items"`
		Total int                `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	require.Equal(t, inv.ID, list.Items[0].ID)

	// Accept, as a new person: password and first name are required, then a session and its cookie.
	token := outboxToken(t, srv, email, app.MailInvitation)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	require.Len(t, e.Issues, 2)
	require.Equal(t, []any{"password"}, e.Issues[0].Path)
	require.Equal(t, []any{"firstName"}, e.Issues[1].Path)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"short","firstName":"Lin"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, "too_small", decodeError(t, b).Issues[0].Code)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"a-long-password","firstName":"Lin"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var sess struct {
		User                  struct{ Email string }
		Memberships           []struct{ Role, OrganizationName string }
		CurrentOrganizationID string `json:"currentOrganizationId"`
	}
	require.NoError(t, json.Unmarshal(b, &sess))
	require.Equal(t, email, sess.User.Email)
	require.Equal(t, "MEMBER", sess.Memberships[0].Role)
	require.Equal(t, "Acme", sess.Memberships[0].OrganizationName)
	memberCookie := sessionCookieOf(t, res)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", memberCookie)
	require.Equal(t, http.StatusOK, res.StatusCode)

	// Used: 400 on token.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"a-long-password","firstName":"Lin"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"token"}, decodeError(t, b).Issues[0].Path)

	// A MEMBER may not manage invitations: 403 with a message.
	member := []string{"Cookie", memberCookie, "Sec-Fetch-Site", "same-origin"}
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/user/invitations", "", member...)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Contains(t, decodeError(t, b).Message, "MEMBER")
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+newEmail()+`","role":"MEMBER"}`, member...)
	require.Equal(t, http.StatusForbidden, res.StatusCode)

	// Revoke: 200, then 404; the revoked link is a 400.
	email2 := newEmail()
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+email2+`","role":"OWNER"}`, owner...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &inv))
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/user/invitations/"+inv.ID, "", member...)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/user/invitations/"+inv.ID, "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/user/invitations/"+inv.ID, "", owner...)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+outboxToken(t, srv, email2, app.MailInvitation)+`","password":"a-long-password","firstName":"X"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, decodeError(t, b).Message, "revoked")

	// No credentials: 401 (accept needs none).
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/user/invitations"},
		{http.MethodPost, "/api/v1/user/invitations"},
		{http.MethodDelete, "/api/v1/user/invitations/" + inv.ID},
	} {
		res, _ := do(t, tc.method, srv.URL+tc.path, `{"email":"a@example.com","role":"MEMBER"}`)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, tc.path)
	}
}

// An existing user accepts without a password and lands in the inviting organization.
func TestAcceptInvitationAsExistingUser(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	email := newEmail()
	signup(t, srv, email, "0123456789")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+email+`","role":"ADMIN"}`, "x-api-key", key)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+outboxToken(t, srv, email, app.MailInvitation)+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var sess struct {
		Memberships []struct {
			OrganizationID string `json:"organizationId"`
			Role           string
		}
		CurrentOrganizationID string `json:"currentOrganizationId"`
	}
	require.NoError(t, json.Unmarshal(b, &sess))
	require.Len(t, sess.Memberships, 2)
	for _, m := range sess.Memberships {
		if m.OrganizationID == sess.CurrentOrganizationID {
			require.Equal(t, "ADMIN", m.Role)
		}
	}
	cookie := sessionCookieOf(t, res)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/user/invitations", "", "Cookie", cookie)
	require.Equal(t, http.StatusOK, res.StatusCode, "an ADMIN of the inviting organization: %s", b)
}
