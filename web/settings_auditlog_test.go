package web_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

func auditSentences(doc *goquery.Document) []string {
	var out []string
	doc.Find(`[data-testid="audit-sentence"]`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.Join(strings.Fields(s.Text()), " "))
	})
	return out
}

// The audit log reads as sentences naming people and things (a team by the name the line recorded), and filters by who acted and by the kind of action, keeping the filters when paging.
func TestAuditLogSentencesAndFilters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := b.ctx(t)
	spring := "Spring"
	team, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: &spring})
	require.NoError(t, err)
	summer := "Summer"
	_, err = b.svc.UpdateTeam(ctx, team.ID, app.TeamParams{Name: &summer})
	require.NoError(t, err)
	_, err = b.svc.DeleteTeam(ctx, team.ID)
	require.NoError(t, err)
	_, err = b.svc.CreateInvitation(ctx, "maya@example.com", app.RoleAdmin)
	require.NoError(t, err)
	key, err := b.svc.CreateAPIKey(ctx, "CI")
	require.NoError(t, err)

	doc := parse(t, b.get(t, "/settings/audit-log"))
	got := auditSentences(doc)
	require.Equal(t, []string{
		"Ada created the API key “CI”",
		"Ada invited maya@example.com as admin",
		"Ada deleted the team “Summer”",
		"Ada renamed the team to “Summer”",
		"Ada created the team “Spring”",
	}, got[:5])
	require.Equal(t, "Ada signed up", got[len(got)-1])
	// The filters offer the kinds and the people who appear.
	require.Equal(t, 1, doc.Find(`[data-testid="audit-filter-actor"] option[value="`+b.session.User.ID+`"]`).Length())
	require.Equal(t, "Ada", doc.Find(`[data-testid="audit-filter-actor"] option[value="`+b.session.User.ID+`"]`).Text())
	require.Equal(t, 1, doc.Find(`[data-testid="audit-filter-kind"] option[value="team."]`).Length())

	// By kind: the team's three lines only, the card alone for htmx.
	rec := b.get(t, "/settings/audit-log?kind=team.", hx("audit-log")...)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, []string{"Ada deleted the team “Summer”", "Ada renamed the team to “Summer”", "Ada created the team “Spring”"}, auditSentences(parse(t, rec)))

	// By an actor who did nothing here: said so.
	doc = parse(t, b.get(t, "/settings/audit-log?actor="+key.ID))
	require.Empty(t, auditSentences(doc))
	require.Contains(t, doc.Find(`[data-testid="empty-state"]`).Text(), "Nothing matches")

	// An unknown kind is no filter at all.
	require.Len(t, auditSentences(parse(t, b.get(t, "/settings/audit-log?kind=nope."))), len(got))
}
