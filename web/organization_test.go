package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/session"
	"github.com/crier/crier/web"
)

// hx are the headers of an htmx request swapping the element with id target.
func hx(target string) []string {
	return []string{"HX-Request", "true", "HX-Target", target}
}

// post submits a form as the signed-in user. The browser's Sec-Fetch-Site stands in for the CSRF
// token (the CSRF middleware's own tests cover tokens).
func (b *testBundle) post(t *testing.T, path string, form url.Values, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	return b.postAs(t, b.cookie, path, form, header...)
}

func (b *testBundle) postAs(t *testing.T, cookie *http.Cookie, path string, form url.Values, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

func (b *testBundle) getAs(t *testing.T, cookie *http.Cookie, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.AddCookie(cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

// ctx is a context acting as the signed-in OWNER, for arranging data through the Service.
func (b *testBundle) ctx(t *testing.T) context.Context {
	t.Helper()
	p, err := b.svc.AuthenticateSession(context.Background(), b.session.User.ID, *b.session.CurrentOrganizationID, b.session.Generation)
	require.NoError(t, err)
	return app.WithPrincipal(context.Background(), p)
}

func (b *testBundle) orgID() string { return *b.session.CurrentOrganizationID }

// addMember signs another user up and makes them a member of this organization with role; it
// answers their cookie (current organization: this one) and their membership id.
func (b *testBundle) addMember(t *testing.T, role app.Role, firstName string) (*http.Cookie, string) {
	t.Helper()
	ctx := context.Background()
	sess, err := b.svc.Signup(ctx, app.SignupParams{Email: strings.ToLower(firstName) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com",
		Password: "a long enough password", FirstName: firstName})
	require.NoError(t, err)
	var membershipID string
	require.NoError(t, b.pool.QueryRow(ctx, `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3) RETURNING id`,
		b.orgID(), sess.User.ID, string(role)).Scan(&membershipID))
	cookie, err := session.NewCookie(web.NewSessionStore(testSecret, false), session.Data{UserID: sess.User.ID, OrganizationID: b.orgID(), Generation: sess.Generation})
	require.NoError(t, err)
	return cookie, membershipID
}

// setPlan changes the organization's plan (billing is a later capability).
func (b *testBundle) setPlan(t *testing.T, plan app.Plan) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `UPDATE organizations SET plan = $1 WHERE id = $2`, string(plan), b.orgID())
	require.NoError(t, err)
}

func (b *testBundle) createTeam(t *testing.T, name string) *app.Team {
	t.Helper()
	team, err := b.svc.CreateTeam(b.ctx(t), app.TeamParams{Name: &name})
	require.NoError(t, err)
	return team
}

func parseBody(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	require.NoError(t, err)
	return doc
}

// requireNoInlineStyleOrScript checks the CSP promise on a page.
func requireNoInlineStyleOrScript(t *testing.T, doc *goquery.Document) {
	t.Helper()
	require.Equal(t, 0, doc.Find("style, [style]").Length())
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		require.NotEmpty(t, s.AttrOr("src", ""))
	})
}

func hxTrigger(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if v := rec.Header().Get("HX-Trigger"); v != "" {
		require.NoError(t, json.Unmarshal([]byte(v), &m))
	}
	return m
}

// ------------------------------------------------------------------- teams

// --------------------------------------------------------- tenant isolation

func TestOrganizationPagesTenantIsolation(t *testing.T) {
	t.Parallel()
	a := setup(t)

	// Organization B: a second sign-up on the same database.
	ctx := context.Background()
	bSess, err := a.svc.Signup(ctx, app.SignupParams{Email: "bob-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com", Password: "a long enough password", FirstName: "Bob"})
	require.NoError(t, err)
	bp, err := a.svc.AuthenticateSession(ctx, bSess.User.ID, *bSess.CurrentOrganizationID, bSess.Generation)
	require.NoError(t, err)
	bctx := app.WithPrincipal(ctx, bp)
	name := "Bob's team"
	bTeam, err := a.svc.CreateTeam(bctx, app.TeamParams{Name: &name})
	require.NoError(t, err)
	bKey, err := a.svc.CreateAPIKey(bctx, "Bob's key")
	require.NoError(t, err)
	bInv, err := a.svc.CreateInvitation(bctx, "carol@example.com", app.RoleMember)
	require.NoError(t, err)
	bMembers, _, err := a.svc.ListMembers(bctx, app.Page{Limit: 10})
	require.NoError(t, err)
	bMember := bMembers[0].ID

	for _, tc := range []struct {
		method, path string
	}{
		{http.MethodGet, "/teams/" + bTeam.ID},
		{http.MethodGet, "/teams/" + bTeam.ID + "/edit"},
		{http.MethodGet, "/teams/" + bTeam.ID + "/delete"},
		{http.MethodPost, "/teams/" + bTeam.ID},
		{http.MethodPost, "/teams/" + bTeam.ID + "/delete"},
		{http.MethodGet, "/teams/not-a-uuid"},
		{http.MethodPost, "/settings/members/" + bMember + "/role"},
		{http.MethodGet, "/settings/members/" + bMember + "/remove"},
		{http.MethodPost, "/settings/members/" + bMember + "/remove"},
		{http.MethodGet, "/settings/invitations/" + bInv.ID + "/revoke"},
		{http.MethodPost, "/settings/invitations/" + bInv.ID + "/revoke"},
		{http.MethodGet, "/settings/api-keys/" + bKey.ID + "/roll"},
		{http.MethodPost, "/settings/api-keys/" + bKey.ID + "/roll"},
		{http.MethodGet, "/settings/api-keys/" + bKey.ID + "/delete"},
		{http.MethodPost, "/settings/api-keys/" + bKey.ID + "/delete"},
	} {
		var rec *httptest.ResponseRecorder
		if tc.method == http.MethodGet {
			rec = a.get(t, tc.path)
		} else {
			rec = a.post(t, tc.path, url.Values{"name": {"Taken over"}, "role": {"ADMIN"}})
		}
		require.Equal(t, http.StatusNotFound, rec.Code, tc.method+" "+tc.path)
		doc := parse(t, rec)
		require.Equal(t, 1, doc.Find(`[data-testid="not-found"]`).Length(), tc.path)
		require.NotContains(t, rec.Body.String(), "Bob", tc.path)
	}

	// Nothing of B changed.
	got, err := a.svc.GetTeam(bctx, bTeam.ID)
	require.NoError(t, err)
	require.Equal(t, name, got.Name)
	_, err = a.svc.AuthenticateAPIKey(ctx, bKey.Key)
	require.NoError(t, err)
	// And A's lists hold nothing of B.
	require.NotContains(t, a.get(t, "/teams").Body.String(), "Bob")
	require.NotContains(t, a.get(t, "/settings/members").Body.String(), "Bob")
	require.NotContains(t, a.get(t, "/settings/api-keys").Body.String(), "Bob")
}

// ------------------------------------------------------------ MEMBER role

func TestMemberSeesNoControlsAndIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	team := b.createTeam(t, "Acme Coffee")
	member, _ := b.addMember(t, app.RoleMember, "Mia")

	// Teams: read, but no create, rename or delete.
	doc := parse(t, b.getAs(t, member, "/teams"))
	require.Equal(t, 0, doc.Find(`[data-testid="team-create"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="teams-readonly"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="team-row"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="team-rename"], [data-testid="team-delete"]`).Length())
	doc = parse(t, b.getAs(t, member, "/teams/"+team.ID))
	require.Equal(t, 0, doc.Find(`[data-testid="team-settings"], [data-testid="team-danger"]`).Length())

	// The Service's 403 still shows gracefully.
	rec := b.postAs(t, member, "/teams", url.Values{"name": {"Sneaky team"}}, hx("team-create")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="form-error"]`).Text(), "Your role (MEMBER) cannot")
	rec = b.postAs(t, member, "/teams/"+team.ID+"/delete", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-error"]`).Text(), "cannot")
	rec = b.postAs(t, member, "/teams/"+team.ID+"/delete", nil)
	require.Equal(t, http.StatusForbidden, rec.Code)

	// Settings: read-only, no danger zone, no API keys or audit log tabs.
	doc = parse(t, b.getAs(t, member, "/settings"))
	require.Equal(t, 1, doc.Find(`[data-testid="read-only-note"]`).Length())
	_, disabled := doc.Find(`[data-testid="settings-form"] fieldset`).Attr("disabled")
	require.True(t, disabled)
	require.Equal(t, 0, doc.Find(`[data-testid="settings-save"], [data-testid="branding-save"], [data-testid="danger-zone"]`).Length())
	require.Equal(t, 2, doc.Find(`[data-testid="settings-tabs"] a`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="tab-api-keys"], [data-testid="tab-audit-log"]`).Length())
	rec = b.postAs(t, member, "/settings", url.Values{"name": {"Mine now"}, "deleteDisconnectedAfterHours": {"1"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, parse(t, rec).Find(`#settings-general [data-testid="form-error"]`).Text(), "cannot change organization settings")
	rec = b.postAs(t, member, "/settings/delete", url.Values{"confirmName": {"x"}})
	require.Equal(t, http.StatusForbidden, rec.Code)

	// API keys and audit log: a 403 page in the settings frame.
	for _, path := range []string{"/settings/api-keys", "/settings/audit-log"} {
		rec := b.getAs(t, member, path)
		require.Equal(t, http.StatusForbidden, rec.Code, path)
		doc := parse(t, rec)
		require.Contains(t, doc.Find(`[data-testid="forbidden"]`).Text(), "You don’t have access to this page", path)
		require.Equal(t, 1, doc.Find(`[data-testid="settings-tabs"]`).Length(), path)
	}
	rec = b.postAs(t, member, "/settings/api-keys", url.Values{"name": {"k"}})
	require.Equal(t, http.StatusForbidden, rec.Code)

	// Members: the list, without role selects, removal or invitations.
	doc = parse(t, b.getAs(t, member, "/settings/members"))
	require.Equal(t, 2, doc.Find(`[data-testid="member-row"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="role-select"], [data-testid="member-remove"], [data-testid="invitations"]`).Length())
	require.Equal(t, 2, doc.Find(`[data-testid="member-role"]`).Length())
}

func TestAdminCannotTouchOwners(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin, _ := b.addMember(t, app.RoleAdmin, "Alan")
	_, memberID := b.addMember(t, app.RoleMember, "Mia")

	doc := parse(t, b.getAs(t, admin, "/settings/members"))
	owner := doc.Find(`[data-testid="member-row"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.Contains(s.Text(), "Ada")
	})
	require.Equal(t, 0, owner.Find(`[data-testid="role-select"], [data-testid="member-remove"]`).Length())
	require.Contains(t, owner.Find(`[data-testid="member-role"]`).Text(), "Owner")
	mia := doc.Find(`#member-` + memberID)
	require.Equal(t, 1, mia.Find(`[data-testid="role-select"]`).Length())
	var roles []string
	mia.Find("option").Each(func(_ int, s *goquery.Selection) { roles = append(roles, s.AttrOr("value", "")) })
	require.Equal(t, []string{"ADMIN", "MEMBER"}, roles)
	// Admins see API keys and the audit log, not the danger zone.
	doc = parse(t, b.getAs(t, admin, "/settings"))
	require.Equal(t, 4, doc.Find(`[data-testid="settings-tabs"] a`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="danger-zone"]`).Length())
}

// ----------------------------------------------------------------- settings

// ------------------------------------------------------------------ members

// ----------------------------------------------------------------- API keys

// ---------------------------------------------------------------- audit log
