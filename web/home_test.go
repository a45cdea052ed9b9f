package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"
)

// The home page counts the organization's own posts (scheduled; posted and failed within 30 days)
// and ticks the checklist's steps the organization has taken; another organization's rows count for
// nothing.
func TestHomeCountsTheOrganizationsPostsAndSteps(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	orgID, userID := *b.session.CurrentOrganizationID, b.session.User.ID
	now := b.clock.Now()

	team := func(org string) string {
		var id string
		require.NoError(t, b.pool.QueryRow(ctx, `INSERT INTO teams (organization_id, created_by_id, name) VALUES ($1, $2, 'T') RETURNING id`, org, userID).Scan(&id))
		return id
	}
	n := 0
	post := func(teamID, org, status string, at time.Time, deleted bool) {
		n++
		_, err := b.pool.Exec(ctx, `INSERT INTO posts (organization_id, team_id, title, post_date, status, social_account_types, data, deleted_at, error)
			VALUES ($1, $2, $6, $3, $4, '{DISCORD,MASTODON}', '{}', CASE WHEN $5 THEN now() END, CASE WHEN $4 = 'ERROR' THEN 'The network refused it' END)`,
			org, teamID, at, status, deleted, fmt.Sprintf("%s %d", status, n))
		require.NoError(t, err)
	}
	var otherOrg string
	require.NoError(t, b.pool.QueryRow(ctx, `INSERT INTO organizations (created_by_id, name) VALUES ($1, 'Other') RETURNING id`, userID).Scan(&otherOrg))
	mine, theirs := team(orgID), team(otherOrg)

	// Before anything: zeros, empty lists said in words, nothing done.
	doc := parse(t, b.get(t, "/"))
	require.Equal(t, "0", doc.Find(`[data-testid="progress"] progress`).AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="upcoming-empty"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="failing-empty"]`).Length())

	post(mine, orgID, "SCHEDULED", now.Add(time.Hour), false)
	post(mine, orgID, "SCHEDULED", now.Add(48*time.Hour), false)
	post(mine, orgID, "SCHEDULED", now.Add(9*24*time.Hour), false) // beyond the week: counted, not listed
	post(mine, orgID, "SCHEDULED", now.Add(time.Hour), true)       // deleted
	post(mine, orgID, "POSTED", now.Add(-24*time.Hour), false)
	post(mine, orgID, "POSTED", now.Add(-40*24*time.Hour), false) // before the window
	post(mine, orgID, "ERROR", now.Add(-2*time.Hour), false)
	post(mine, orgID, "DRAFT", now, false)
	for _, s := range []string{"SCHEDULED", "POSTED", "ERROR"} {
		post(theirs, otherOrg, s, now, false)
	}
	_, err := b.pool.Exec(ctx, `INSERT INTO social_accounts (organization_id, team_id, type) VALUES ($1, $2, 'DISCORD')`, otherOrg, theirs)
	require.NoError(t, err)

	doc = parse(t, b.get(t, "/"))
	for id, want := range map[string]string{"stat-scheduled": "3", "stat-published": "1", "stat-failed": "1"} {
		require.Equal(t, want, doc.Find(`[data-testid="`+id+`-value"]`).Text(), id)
	}
	// The week ahead, soonest first, and the failure with its error, each a link to its post.
	var titles []string
	doc.Find(`[data-testid="upcoming-post"]`).Each(func(_ int, s *goquery.Selection) {
		titles = append(titles, strings.TrimSpace(s.Find(".post-brief__title").Text()))
		require.True(t, strings.HasPrefix(s.Find("a").AttrOr("href", ""), "/posts/"))
		require.Equal(t, 2, s.Find("[data-network-icon]").Length())
	})
	require.Equal(t, []string{"SCHEDULED 1", "SCHEDULED 2"}, titles)
	failing := doc.Find(`[data-testid="failing-post"]`)
	require.Equal(t, 1, failing.Length())
	require.Equal(t, "ERROR 7", strings.TrimSpace(failing.Find(".post-brief__title").Text()))
	require.Equal(t, "The network refused it", failing.Find(".post-brief__error").Text())

	// A post exists; no account, upload or key of this organization yet.
	require.Equal(t, "1", doc.Find(`[data-testid="progress"] progress`).AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="step-compose"].checklist__item--done`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="step-connect"].checklist__item--done`).Length())

	_, err = b.pool.Exec(ctx, `INSERT INTO social_accounts (organization_id, team_id, type) VALUES ($1, $2, 'DISCORD')`, orgID, mine)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `INSERT INTO uploads (organization_id, team_id, type, mime, ext, path, file_size) VALUES ($1, $2, 'image', 'image/png', 'png', 'k', 1)`, orgID, mine)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `INSERT INTO api_keys (organization_id, membership_id, name, prefix, secret_hash)
		SELECT organization_id, id, 'k', 'pfx', '\x00' FROM memberships WHERE organization_id = $1`, orgID)
	require.NoError(t, err)

	doc = parse(t, b.get(t, "/"))
	require.Equal(t, "4", doc.Find(`[data-testid="progress"] progress`).AttrOr("value", ""))
	for _, id := range []string{"connect", "upload", "compose", "api-key"} {
		require.Equal(t, 1, doc.Find(`[data-testid="step-`+id+`"].checklist__item--done`).Length(), id)
	}
}
