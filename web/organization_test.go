package web_test

import (
	"context"
	"encoding/json"
	"fmt"
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

func TestTeamsPageEmptyThenCreate(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/teams")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Teams · Crier", doc.Find("title").Text())
	require.Equal(t, "Teams", doc.Find("h1").Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-teams"]`).AttrOr("aria-current", ""))
	require.Contains(t, doc.Find(`[data-testid="teams-results"] [data-testid="empty-state"]`).Text(), "No teams yet")
	require.Equal(t, 1, doc.Find(`[data-testid="team-create-form"] input[name="_csrf"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="teams-usage"]`).Text(), "0 teams · the FREE plan allows 3")
	require.Equal(t, 1, doc.Find(`script[src^="/static/js/organization.js"]`).Length())
	requireNoInlineStyleOrScript(t, doc)

	rec = b.post(t, "/teams", url.Values{"name": {"Acme Coffee"}, "avatarUrl": {"https://example.com/a.png"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams", rec.Header().Get("Location"))

	doc = parse(t, b.get(t, "/teams", "Cookie", cookieHeader(b.cookie, rec)))
	rows := doc.Find(`[data-testid="team-row"]`)
	require.Equal(t, 1, rows.Length())
	require.Contains(t, rows.Text(), "Acme Coffee")
	require.Contains(t, rows.Text(), "Ada")
	require.Equal(t, "AC", strings.TrimSpace(rows.Find(".team-avatar").Text()))
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Team “Acme Coffee” created.")
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "1 team")
}

// cookieHeader is the Cookie header carrying the session and what a response set (flashes).
func cookieHeader(sess *http.Cookie, rec *httptest.ResponseRecorder) string {
	parts := []string{}
	seen := map[string]bool{}
	for _, c := range rec.Result().Cookies() {
		parts = append(parts, c.Name+"="+c.Value)
		seen[c.Name] = true
	}
	if !seen[sess.Name] {
		parts = append(parts, sess.Name+"="+sess.Value)
	}
	return strings.Join(parts, "; ")
}

func TestTeamCreateErrorsBesideFieldsKeepValues(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/teams", url.Values{"name": {"ab"}, "avatarUrl": {"not a url"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "ab", doc.Find("#team-name").AttrOr("value", ""))
	require.Equal(t, "not a url", doc.Find("#team-avatarUrl").AttrOr("value", ""))
	require.Equal(t, "true", doc.Find("#team-name").AttrOr("aria-invalid", ""))
	require.Contains(t, doc.Find("#team-name-error").Text(), "Use at least 3 characters")
	require.Contains(t, doc.Find("#team-name").AttrOr("aria-describedby", ""), "team-name-error")
	require.Contains(t, doc.Find("#team-avatarUrl-error").Text(), "https://")
	_, focused := doc.Find("#team-name").Attr("autofocus")
	require.True(t, focused)

	// htmx: the card alone, 200 so htmx swaps it.
	rec = b.post(t, "/teams", url.Values{"name": {"ab"}}, hx("team-create")...)
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.NotContains(t, body, "<html")
	doc = parseBody(t, body)
	require.Equal(t, 1, doc.Find(`section#team-create`).Length())
	require.Contains(t, doc.Find("#team-name-error").Text(), "at least 3")

	// Nothing was created.
	_, total, err := b.svc.ListTeams(b.ctx(t), "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)
}

func TestTeamCreateHTMXSuccessReloadsList(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/teams", url.Values{"name": {"Northwind Studio"}}, hx("team-create")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "teamsChanged")
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="form-saved"]`).Text(), "Northwind Studio")
	require.Empty(t, doc.Find("#team-name").AttrOr("value", ""))

	// The list reloads itself (its own target) and updates the count out of band.
	rec = b.get(t, "/teams", hx("teams-results")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find(`#teams-results`).Length())
	require.Equal(t, 0, doc.Find(`#team-create`).Length())
	require.Contains(t, doc.Find(`#teams-results`).Text(), "Northwind Studio")
	require.Equal(t, "true", doc.Find(`#teams-usage`).AttrOr("hx-swap-oob", ""))
	require.Contains(t, doc.Find(`#teams-usage`).Text(), "1 team ·")
}

func TestTeamCreateFreePlanLimitShownInPlace(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first := b.createTeam(t, "Team one")
	for _, n := range []string{"Team two", "Team three"} {
		b.createTeam(t, n)
	}

	doc := parse(t, b.get(t, "/teams"))
	require.Contains(t, doc.Find(`[data-testid="team-limit"]`).Text(), "Your FREE plan allows 3 teams, and you have 3")

	for _, header := range [][]string{nil, hx("team-create")} {
		rec := b.post(t, "/teams", url.Values{"name": {"Team four"}}, header...)
		doc := parse(t, rec)
		if header == nil {
			require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
		} else {
			require.Equal(t, http.StatusOK, rec.Code)
		}
		require.Contains(t, doc.Find(`#team-create [data-testid="form-error"]`).Text(), "The FREE plan allows at most 3 teams")
		require.Equal(t, "Team four", doc.Find("#team-name").AttrOr("value", ""))
	}

	// A deletion elsewhere reloads the list, which lifts the note out of band.
	_, err := b.svc.DeleteTeam(b.ctx(t), first.ID)
	require.NoError(t, err)
	doc = parse(t, b.get(t, "/teams", hx("teams-results")...))
	require.Equal(t, "true", doc.Find("#team-limit-slot").AttrOr("hx-swap-oob", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="team-limit"]`).Length())
	require.Contains(t, doc.Find("#teams-usage").Text(), "2 teams · the FREE plan allows 3")
}

func TestTeamsSearchAndPaging(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.setPlan(t, app.PlanBusiness)
	for i := 1; i <= 12; i++ {
		b.createTeam(t, fmt.Sprintf("Brand %02d", i))
	}
	b.createTeam(t, "Coffee Roasters")

	doc := parse(t, b.get(t, "/teams"))
	require.Equal(t, 10, doc.Find(`[data-testid="team-row"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "Showing 1–10 of 13 teams")
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "Page 1 of 2")
	next := doc.Find(`[data-testid="pager-next"]`)
	require.Equal(t, "/teams?page=2", next.AttrOr("href", ""))
	require.Equal(t, "#teams-results", next.AttrOr("hx-target", ""))
	require.Equal(t, "true", next.AttrOr("hx-push-url", ""))

	doc = parse(t, b.get(t, "/teams?page=2"))
	require.Equal(t, 3, doc.Find(`[data-testid="team-row"]`).Length())
	require.Equal(t, "/teams", doc.Find(`[data-testid="pager-prev"]`).AttrOr("href", ""))

	// Past the end: the last page.
	doc = parse(t, b.get(t, "/teams?page=9"))
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "Showing 11–13 of 13 teams")

	// Search, as htmx does it: the results alone.
	rec := b.get(t, "/teams?q=coffee", hx("teams-results")...)
	doc = parse(t, rec)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, 1, doc.Find(`[data-testid="team-row"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="team-row"]`).Text(), "Coffee Roasters")
	require.Equal(t, "/teams?q=coffee", doc.Find("#teams-results").AttrOr("hx-get", ""))

	doc = parse(t, b.get(t, "/teams?q=zzz"))
	require.Equal(t, "zzz", doc.Find("#teams-q").AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="empty-state"]`).Text(), "No team matches “zzz”")
}

func TestTeamInlineRename(t *testing.T) {
	t.Parallel()
	b := setup(t)
	team := b.createTeam(t, "Acme Coffee")
	row := "team-" + team.ID

	rec := b.get(t, "/teams/"+team.ID+"/edit", hx(row)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Equal(t, "Acme Coffee", doc.Find(`[data-testid="rename-form"] input[name="name"]`).AttrOr("value", ""))
	require.Equal(t, "/teams/"+team.ID, doc.Find(`[data-testid="rename-form"]`).AttrOr("hx-post", ""))

	// Invalid: the form row again with the error and what was typed.
	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"x"}}, hx(row)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Equal(t, "x", doc.Find(`[data-testid="rename-form"] input[name="name"]`).AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="rename-error"]`).Text(), "Use at least 3 characters")

	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"Acme Roasters"}}, hx(row)...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `hx-swap-oob="beforeend:#flashes"`)
	doc = parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Contains(t, doc.Find(`[data-testid="team-link"]`).Text(), "Acme Roasters")
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Team renamed to “Acme Roasters”.")
	got, err := b.svc.GetTeam(b.ctx(t), team.ID)
	require.NoError(t, err)
	require.Equal(t, "Acme Roasters", got.Name)

	// Cancel answers the row.
	rec = b.get(t, "/teams/"+team.ID, hx(row)...)
	require.True(t, strings.HasPrefix(strings.TrimSpace(rec.Body.String()), "<tr"))

	// Without htmx, /edit is the team's page.
	rec = b.get(t, "/teams/"+team.ID+"/edit")
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams/"+team.ID, rec.Header().Get("Location"))
}

func TestTeamPageAndUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	team := b.createTeam(t, "Acme Coffee")

	rec := b.get(t, "/teams/"+team.ID)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Acme Coffee", doc.Find("h1").Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-teams"]`).AttrOr("aria-current", ""))
	require.Contains(t, doc.Find(`[data-testid="team-created-by"]`).Text(), "Ada")
	require.Contains(t, doc.Find(`[data-testid="team-accounts"] [data-testid="empty-state"]`).Text(), "No accounts connected yet")
	require.Equal(t, "/teams/"+team.ID+"/delete", doc.Find(`[data-testid="team-delete"]`).AttrOr("href", ""))
	requireNoInlineStyleOrScript(t, doc)

	// Invalid avatar: beside its field, both values kept.
	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"Acme Roasters"}, "avatarUrl": {"ftp://x"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Acme Roasters", doc.Find("#team-edit-name").AttrOr("value", ""))
	require.Equal(t, "ftp://x", doc.Find("#team-edit-avatarUrl").AttrOr("value", ""))
	require.NotEmpty(t, doc.Find("#team-edit-avatarUrl-error").Text())

	// htmx: the card alone.
	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"A"}, "avatarUrl": {""}}, hx("team-settings")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find("section#team-settings").Length())
	require.NotEmpty(t, doc.Find("#team-edit-name-error").Text())

	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"Acme Roasters"}, "avatarUrl": {"https://example.com/a.png"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams/"+team.ID, rec.Header().Get("Location"))
	doc = parse(t, b.get(t, "/teams/"+team.ID))
	require.Equal(t, "Acme Roasters", doc.Find("h1").Text())
	require.Contains(t, doc.Find(`[data-testid="team-avatar-url"]`).Text(), "https://example.com/a.png")

	// htmx success reloads the page (its heading changed).
	rec = b.post(t, "/teams/"+team.ID, url.Values{"name": {"Acme Three"}, "avatarUrl": {""}}, hx("team-settings")...)
	require.Equal(t, "/teams/"+team.ID, rec.Header().Get("HX-Redirect"))
}

func TestTeamDeleteWithConfirmation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	one := b.createTeam(t, "Acme Coffee")
	two := b.createTeam(t, "Blue Bottle")

	// Without JavaScript: a confirmation page.
	rec := b.get(t, "/teams/"+one.ID+"/delete")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find("h1").Text(), "Delete “Acme Coffee”?")
	require.Equal(t, "/teams/"+one.ID+"/delete", doc.Find(`[data-testid="confirm-page"] form`).AttrOr("action", ""))
	require.Equal(t, "/teams/"+one.ID, doc.Find(`[data-testid="confirm-page"] a`).AttrOr("href", ""))

	// htmx: a modal dialog.
	rec = b.get(t, "/teams/"+one.ID+"/delete", hx("org-dialog")...)
	doc = parse(t, rec)
	dialog := doc.Find(`dialog[data-testid="confirm-dialog"]`)
	require.Equal(t, 1, dialog.Length())
	_, modal := dialog.Attr("data-modal")
	require.True(t, modal)
	require.Equal(t, "confirm-delete-team-title", dialog.AttrOr("aria-labelledby", ""))
	require.Equal(t, "#org-dialog", dialog.Find("form").AttrOr("hx-target", ""))

	rec = b.post(t, "/teams/"+one.ID+"/delete", nil, append(hx("org-dialog"), "HX-Current-URL", "http://crier.test/teams")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "teamsChanged")
	require.NotContains(t, rec.Body.String(), "<dialog")
	require.Contains(t, rec.Body.String(), "Team “Acme Coffee” deleted.")
	_, err := b.svc.GetTeam(b.ctx(t), one.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))

	// From the team's own page, htmx goes back to the list.
	rec = b.post(t, "/teams/"+two.ID+"/delete", nil, append(hx("org-dialog"), "HX-Current-URL", "http://crier.test/teams/"+two.ID)...)
	require.Equal(t, "/teams", rec.Header().Get("HX-Redirect"))

	// The deleted team is gone: 404.
	require.Equal(t, http.StatusNotFound, b.get(t, "/teams/"+one.ID).Code)
	require.Equal(t, http.StatusNotFound, b.post(t, "/teams/"+one.ID+"/delete", nil).Code)
}

func TestTeamDeleteWithoutHTMXRedirects(t *testing.T) {
	t.Parallel()
	b := setup(t)
	team := b.createTeam(t, "Acme Coffee")
	rec := b.post(t, "/teams/"+team.ID+"/delete", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams", rec.Header().Get("Location"))
}

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

func TestSettingsPageShowsSettingsUsageAndTabs(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/settings")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Settings", doc.Find("h1").Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-settings"]`).AttrOr("aria-current", ""))
	require.Equal(t, "page", doc.Find(`[data-testid="tab-general"]`).AttrOr("aria-current", ""))
	require.Equal(t, "Settings sections", doc.Find(`[data-testid="settings-tabs"]`).AttrOr("aria-label", ""))
	for tab, href := range map[string]string{"general": "/settings", "members": "/settings/members", "api-keys": "/settings/api-keys", "audit-log": "/settings/audit-log"} {
		require.Equal(t, href, doc.Find(`[data-testid="tab-`+tab+`"]`).AttrOr("href", ""), tab)
	}
	require.Contains(t, doc.Find(`[data-testid="plan"]`).Text(), "FREE plan")
	require.Equal(t, "Ada's organization", doc.Find("#settings-name").AttrOr("value", ""))
	require.Equal(t, "number", doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("type", ""))
	require.Equal(t, "switch", doc.Find("#settings-verboseErrors").AttrOr("role", ""))
	for kind, text := range map[string]string{"posts": "0 of 20", "comments": "0 of 50", "uploads": "0 of 200"} {
		u := doc.Find(`[data-testid="usage-` + kind + `"]`)
		require.Contains(t, u.Text(), text, kind)
		require.Equal(t, "progress", goquery.NodeName(u.Find("progress")), kind)
	}
	require.Equal(t, 1, doc.Find(`[data-testid="danger-zone"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="portal-preview"] [data-brand-preview]`).Length())
	requireNoInlineStyleOrScript(t, doc)

	for path, tab := range map[string]string{"/settings/members": "members", "/settings/api-keys": "api-keys", "/settings/audit-log": "audit-log"} {
		doc := parse(t, b.get(t, path))
		require.Equal(t, "page", doc.Find(`[data-testid="tab-`+tab+`"]`).AttrOr("aria-current", ""), path)
		require.Equal(t, 1, doc.Find(`[aria-current="page"][data-testid^="tab-"]`).Length(), path)
		require.Equal(t, "page", doc.Find(`[data-testid="nav-settings"]`).AttrOr("aria-current", ""), path)
		require.Equal(t, 1, doc.Find("h1").Length(), path)
		requireNoInlineStyleOrScript(t, doc)
	}
}

func TestSettingsSave(t *testing.T) {
	t.Parallel()
	b := setup(t)

	form := url.Values{"name": {"Hopper & Co"}, "verboseErrors": {"on"}, "deleteDisconnectedAfterHours": {"48"}}
	rec := b.post(t, "/settings", form)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/settings", rec.Header().Get("Location"))
	doc := parse(t, b.get(t, "/settings", "Cookie", cookieHeader(b.cookie, rec)))
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Settings saved.")
	require.Equal(t, "Hopper & Co", doc.Find("#settings-name").AttrOr("value", ""))
	require.Equal(t, "48", doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("value", ""))
	_, on := doc.Find("#settings-verboseErrors").Attr("checked")
	require.True(t, on)
	_, on = doc.Find("#settings-uploadsCompression").Attr("checked")
	require.False(t, on)
	org, err := b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.True(t, org.ShowVerboseErrors)
	require.False(t, org.UploadsCompressionEnabled)
	require.Equal(t, 48, org.DeleteAccountAfter)

	// Out of range and not a number: beside the field, the rest kept.
	for _, hours := range []string{"500", "soon"} {
		rec := b.post(t, "/settings", url.Values{"name": {"Renamed"}, "uploadsCompression": {"on"}, "deleteDisconnectedAfterHours": {hours}})
		require.Equal(t, http.StatusUnprocessableEntity, rec.Code, hours)
		doc := parse(t, rec)
		require.NotEmpty(t, doc.Find("#settings-deleteDisconnectedAfterHours-error").Text(), hours)
		require.Equal(t, hours, doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("value", ""), hours)
		require.Equal(t, "Renamed", doc.Find("#settings-name").AttrOr("value", ""), hours)
		_, on := doc.Find("#settings-uploadsCompression").Attr("checked")
		require.True(t, on, hours)
	}
	rec = b.post(t, "/settings", url.Values{"name": {""}, "deleteDisconnectedAfterHours": {"1"}})
	require.Contains(t, parse(t, rec).Find("#settings-name-error").Text(), "Enter a value")
	org, err = b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Equal(t, "Hopper & Co", org.Name)

	// htmx: the card with a confirmation.
	rec = b.post(t, "/settings", url.Values{"name": {"Hopper Media"}, "deleteDisconnectedAfterHours": {"0"}}, hx("settings-general")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, 1, doc.Find("section#settings-general").Length())
	require.Contains(t, doc.Find(`[data-testid="form-saved"]`).Text(), "Settings saved.")
}

func TestBrandingSave(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/settings/branding", url.Values{"portalBrandName": {"Hopper Media"}, "portalLogoUrl": {"http://insecure.example.com/l.png"}, "portalAccentColor": {"teal"}}, hx("settings-branding")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find("section#settings-branding").Length())
	require.Contains(t, doc.Find("#branding-portalLogoUrl-error").Text(), "https")
	require.Contains(t, doc.Find("#branding-portalAccentColor-error").Text(), "#RRGGBB")
	require.Equal(t, "true", doc.Find("#branding-portalAccentColor").AttrOr("aria-invalid", ""))
	require.Equal(t, "teal", doc.Find("#branding-portalAccentColor").AttrOr("value", ""))
	require.Equal(t, "Hopper Media", doc.Find("#branding-portalBrandName").AttrOr("value", ""))
	// The preview shows what was typed; the script applies the accent.
	require.Contains(t, doc.Find(`[data-brand-preview-name]`).First().Text(), "Hopper Media")

	rec = b.post(t, "/settings/branding", url.Values{"portalBrandName": {"Hopper Media"}, "portalLogoUrl": {"https://cdn.example.com/l.png"}, "portalAccentColor": {"#0f766e"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	doc = parse(t, b.get(t, "/settings"))
	require.Equal(t, "#0f766e", doc.Find("#branding-portalAccentColor").AttrOr("value", ""))
	require.Equal(t, "#0f766e", doc.Find("[data-brand-preview]").AttrOr("data-accent", ""))
	require.Equal(t, "#0f766e", doc.Find("[data-brand-swatch]").AttrOr("value", ""))
	require.Contains(t, doc.Find("[data-brand-preview-logo-url]").Text(), "https://cdn.example.com/l.png")
	require.Equal(t, "HM", strings.TrimSpace(doc.Find("[data-brand-preview-logo]").Text()))
	org, err := b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Equal(t, "#0f766e", *org.PortalAccentColor)

	// Emptying a field clears it; the preview falls back to the organization's name.
	rec = b.post(t, "/settings/branding", url.Values{"portalBrandName": {""}, "portalLogoUrl": {""}, "portalAccentColor": {""}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	org, err = b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Nil(t, org.PortalAccentColor)
	doc = parse(t, b.get(t, "/settings"))
	require.Contains(t, doc.Find(`[data-brand-preview-name]`).First().Text(), "Ada's organization")
}

func TestDeleteOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/settings/delete", url.Values{"confirmName": {"wrong name"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find("#delete-confirmName-error").Text(), "Type the organization's name exactly")
	require.Equal(t, "wrong name", doc.Find("#delete-confirmName").AttrOr("value", ""))

	rec = b.post(t, "/settings/delete", url.Values{"confirmName": {"Ada's organization"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/login", rec.Header().Get("Location")) // no other organization: signed out
	var deleted bool
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT deleted_at IS NOT NULL FROM organizations WHERE id = $1`, b.orgID()).Scan(&deleted))
	require.True(t, deleted)
}

func TestDeleteOrganizationMovesToAnotherOne(t *testing.T) {
	t.Parallel()
	b := setup(t)
	other, err := b.svc.CreateOrganization(b.ctx(t), "Second org")
	require.NoError(t, err)

	rec := b.post(t, "/settings/delete", url.Values{"confirmName": {"Ada's organization"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/", rec.Header().Get("Location"))
	// The new session cookie points at the remaining organization.
	doc := parse(t, b.get(t, "/settings", "Cookie", cookieHeader(b.cookie, rec)))
	require.Equal(t, other.OrganizationName, doc.Find("#settings-name").AttrOr("value", ""))
}

// ------------------------------------------------------------------ members

func TestMembersAndInvitations(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, memberID := b.addMember(t, app.RoleMember, "Mia")

	doc := parse(t, b.get(t, "/settings/members"))
	require.Equal(t, 2, doc.Find(`[data-testid="member-row"]`).Length())
	me := doc.Find(`[data-testid="member-row"]`).First()
	require.Contains(t, me.Text(), "You")
	require.Equal(t, 0, me.Find(`[data-testid="member-remove"]`).Length())
	var roles []string
	me.Find("option").Each(func(_ int, s *goquery.Selection) { roles = append(roles, s.AttrOr("value", "")) })
	require.Equal(t, []string{"OWNER", "ADMIN", "MEMBER"}, roles)
	require.Equal(t, "OWNER", me.Find("option[selected]").AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="invitations-empty"]`).Text(), "No pending invitations")

	// Invalid email: beside the field, kept.
	rec := b.post(t, "/settings/invitations", url.Values{"email": {"not-an-email"}, "role": {"ADMIN"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "not-an-email", doc.Find("#invite-email").AttrOr("value", ""))
	require.NotEmpty(t, doc.Find("#invite-email-error").Text())
	require.Equal(t, "ADMIN", doc.Find("#invite-role option[selected]").AttrOr("value", ""))

	// htmx invite: the card with the new invitation.
	rec = b.post(t, "/settings/invitations", url.Values{"email": {"grace@example.com"}, "role": {"ADMIN"}}, hx("invitations")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find("section#invitations").Length())
	require.Contains(t, doc.Find(`[data-testid="form-saved"]`).Text(), "Invitation sent to grace@example.com.")
	row := doc.Find(`[data-testid="invitation-row"]`)
	require.Contains(t, row.Text(), "grace@example.com")
	require.Contains(t, row.Text(), "Admin")
	invID := strings.TrimPrefix(row.AttrOr("id", ""), "invitation-")

	// Revoke through the dialog.
	doc = parse(t, b.get(t, "/settings/invitations/"+invID+"/revoke", hx("org-dialog")...))
	require.Contains(t, doc.Find("dialog h2").Text(), "Revoke the invitation to grace@example.com?")
	rec = b.post(t, "/settings/invitations/"+invID+"/revoke", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "invitationsChanged")
	doc = parse(t, b.get(t, "/settings/members", hx("invitations")...))
	require.Equal(t, 0, doc.Find(`[data-testid="invitation-row"]`).Length())

	// Change Mia's role (htmx: the row, saved).
	rec = b.post(t, "/settings/members/"+memberID+"/role", url.Values{"role": {"ADMIN"}}, hx("member-"+memberID)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Equal(t, "ADMIN", doc.Find("option[selected]").AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="role-saved"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="role-error"]`).Length())

	// Remove Mia (full page flow).
	doc = parse(t, b.get(t, "/settings/members/"+memberID+"/remove"))
	require.Contains(t, doc.Find("h1").Text(), "Remove Mia?")
	rec = b.post(t, "/settings/members/"+memberID+"/remove", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, 1, parse(t, b.get(t, "/settings/members")).Find(`[data-testid="member-row"]`).Length())
}

func TestLastOwnerErrorsShown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	members, _, err := b.svc.ListMembers(b.ctx(t), app.Page{Limit: 10})
	require.NoError(t, err)
	me := members[0].ID

	rec := b.post(t, "/settings/members/"+me+"/role", url.Values{"role": {"ADMIN"}}, hx("member-"+me)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Contains(t, doc.Find(`[data-testid="role-error"]`).Text(), "The last OWNER cannot be removed or demoted")
	require.Equal(t, "OWNER", doc.Find("option[selected]").AttrOr("value", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="role-saved"]`).Length())

	rec = b.post(t, "/settings/members/"+me+"/role", url.Values{"role": {"MEMBER"}})
	require.Equal(t, http.StatusForbidden, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`#member-`+me+` [data-testid="role-error"]`).Text(), "last OWNER")

	rec = b.post(t, "/settings/members/"+me+"/remove", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-error"]`).Text(), "last OWNER")
}

// ----------------------------------------------------------------- API keys

func TestAPIKeysSecretShownOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)

	doc := parse(t, b.get(t, "/settings/api-keys"))
	require.Contains(t, doc.Find(`[data-testid="api-keys"] [data-testid="empty-state"]`).Text(), "No API keys yet")

	rec := b.post(t, "/settings/api-keys", url.Values{"name": {""}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, parse(t, rec).Find("#key-name-error").Text(), "Enter a value")

	rec = b.post(t, "/settings/api-keys", url.Values{"name": {"Production server"}})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	doc = parse(t, rec)
	secret := doc.Find(`[data-testid="new-secret"] [data-testid="secret-value"]`).AttrOr("value", "")
	require.True(t, strings.HasPrefix(secret, "crier_"), secret)
	require.Equal(t, "#new-secret-value", doc.Find(`[data-testid="copy-secret"]`).AttrOr("data-copy", ""))
	p, err := b.svc.AuthenticateAPIKey(context.Background(), secret)
	require.NoError(t, err)
	require.Equal(t, b.orgID(), p.OrganizationID)
	row := doc.Find(`[data-testid="key-row"]`)
	require.Equal(t, 1, row.Length())
	require.Contains(t, row.Text(), "Production server")
	require.Equal(t, "crier_"+secret[6:14]+"_…", row.Find(`[data-testid="key-prefix"]`).Text())
	require.Equal(t, "Never", row.Find(`[data-testid="key-last-used"]`).Text())

	// Never again: not on reload.
	page := b.get(t, "/settings/api-keys")
	require.NotContains(t, page.Body.String(), secret)
	require.NotContains(t, page.Body.String(), secret[15:])
	doc = parse(t, page)
	require.Equal(t, 0, doc.Find(`[data-testid="new-secret"]`).Length())
	require.NotContains(t, doc.Find(`[data-testid="key-last-used"]`).Text(), "Never") // AuthenticateAPIKey used it

	// htmx create answers the stack alone.
	rec = b.post(t, "/settings/api-keys", url.Values{"name": {"CI"}}, hx("api-keys")...)
	require.NotContains(t, rec.Body.String(), "<html")
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find("div#api-keys").Length())
	require.Equal(t, 1, doc.Find(`[data-testid="new-secret"]`).Length())
}

func TestAPIKeyRollAndDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := b.svc.CreateAPIKey(b.ctx(t), "Production server")
	require.NoError(t, err)

	doc := parse(t, b.get(t, "/settings/api-keys/"+key.ID+"/roll", hx("org-dialog")...))
	require.Contains(t, doc.Find("dialog h2").Text(), "Roll “Production server”?")

	rec := b.post(t, "/settings/api-keys/"+key.ID+"/roll", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "apiKeysChanged")
	doc = parse(t, rec)
	rolled := doc.Find(`[data-testid="rolled-dialog"] [data-testid="secret-value"]`).AttrOr("value", "")
	require.True(t, strings.HasPrefix(rolled, "crier_"))
	require.NotEqual(t, key.Key, rolled)
	_, err = b.svc.AuthenticateAPIKey(context.Background(), key.Key)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	_, err = b.svc.AuthenticateAPIKey(context.Background(), rolled)
	require.NoError(t, err)
	// The list reloads (its own target) without the secret.
	rec = b.get(t, "/settings/api-keys", hx("api-keys-list")...)
	require.Equal(t, 1, parse(t, rec).Find("section#api-keys-list").Length())
	require.NotContains(t, rec.Body.String(), rolled)

	// Without htmx the roll answers the page with the new secret.
	rec = b.post(t, "/settings/api-keys/"+key.ID+"/roll", nil)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="new-secret"]`).Text(), "New secret for “Production server”")

	rec = b.post(t, "/settings/api-keys/"+key.ID+"/delete", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "apiKeysChanged")
	require.Contains(t, rec.Body.String(), "API key “Production server” deleted.")
	_, total, err := b.svc.ListAPIKeys(b.ctx(t), "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)
}

// ---------------------------------------------------------------- audit log

func TestAuditLogPagedInViewersTimezone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	zone := "Asia/Tokyo"
	_, err := b.svc.UpdateMe(b.ctx(t), app.UpdateMeParams{Timezone: &zone})
	require.NoError(t, err)
	for i := range 22 {
		_, err := b.svc.CreateAPIKey(b.ctx(t), fmt.Sprintf("Key %02d", i))
		require.NoError(t, err)
	}

	doc := parse(t, b.get(t, "/settings/audit-log"))
	require.Contains(t, doc.Find(`[data-testid="audit-log"]`).Text(), "Times are in Asia/Tokyo")
	rows := doc.Find(`[data-testid="audit-row"]`)
	require.Equal(t, app.DefaultAuditLogLimit, rows.Length())
	first := rows.First()
	require.Equal(t, "api_key.created", first.Find(`[data-testid="audit-action"]`).Text())
	require.Contains(t, first.Text(), "name")
	require.Contains(t, first.Text(), "Key 21")
	require.Contains(t, first.Text(), b.session.User.Email)
	when, err := time.Parse(time.RFC3339, first.Find("time").AttrOr("datetime", ""))
	require.NoError(t, err)
	tokyo, err := time.LoadLocation(zone)
	require.NoError(t, err)
	require.Equal(t, when.In(tokyo).Format("Jan 2, 2006, 15:04:05"), first.Find("time").Text())
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "Showing 1–20 of")

	rec := b.get(t, "/settings/audit-log?page=2", hx("audit-log")...)
	doc = parse(t, rec)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, 1, doc.Find("section#audit-log").Length())
	require.Positive(t, doc.Find(`[data-testid="audit-row"]`).Length())
	require.Equal(t, "user.signed_up", doc.Find(`[data-testid="audit-action"]`).Last().Text())
}
