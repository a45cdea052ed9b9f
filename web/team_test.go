package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

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
