package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// A post that posted on some networks and failed on others reads "Partly published" in the
// dashboard (posts list, post page, calendar entry), never "Failed" beside a posted time; the post
// page shows each network's state at a glance; the API status stays the spec's ERROR.
func TestPartlyPublishedPost(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	p := b.createPost(t, team.ID, app.PostScheduled, time.Now().Add(30*time.Second), "Partly there", app.Twitter, app.LinkedIn)
	failed := b.createPost(t, team.ID, app.PostScheduled, time.Now().Add(40*time.Second), "Nowhere", app.LinkedIn)
	ctx := context.Background()
	// As the pipeline settles them: X posted, LinkedIn failed; the post ERROR with X's posted time.
	for _, q := range []string{
		`UPDATE publish_targets SET status = 'POSTED', posted_at = now(), attempts = 1 WHERE post_id = $1 AND network = 'TWITTER'`,
		`UPDATE publish_targets SET status = 'ERROR', attempts = 1, error = 'duplicate content' WHERE post_id = $1 AND network = 'LINKEDIN'`,
		`UPDATE posts SET status = 'ERROR', error = 'Failed to publish on LinkedIn: duplicate content', posted_date = now() WHERE id = $1`,
	} {
		_, err := b.pool.Exec(ctx, q, p.ID)
		require.NoError(t, err)
	}
	for _, q := range []string{
		`UPDATE publish_targets SET status = 'ERROR', attempts = 1, error = 'duplicate content' WHERE post_id = $1`,
		`UPDATE posts SET status = 'ERROR', error = 'Failed to publish on LinkedIn: duplicate content' WHERE id = $1`,
	} {
		_, err := b.pool.Exec(ctx, q, failed.ID)
		require.NoError(t, err)
	}

	doc := parse(t, b.get(t, "/posts"))
	row := doc.Find(`[data-post-id="` + p.ID + `"]`)
	require.Equal(t, "Partly published", strings.TrimSpace(row.Find(`[data-testid="post-status"]`).Text()))
	require.Equal(t, "ERROR", row.AttrOr("data-status", ""))
	require.Equal(t, "Failed", strings.TrimSpace(doc.Find(`[data-post-id="`+failed.ID+`"] [data-testid="post-status"]`).Text()))

	doc = parse(t, b.get(t, "/posts/"+p.ID))
	require.Equal(t, "Partly published", strings.TrimSpace(doc.Find(`[data-testid="post-summary"] [data-testid="post-status"]`).First().Text()))
	require.Equal(t, "X: Posted", strings.TrimSpace(doc.Find(`[data-testid="net-state-TWITTER"] .net-state__label`).Text()))
	require.Equal(t, "LinkedIn: Failed", strings.TrimSpace(doc.Find(`[data-testid="net-state-LINKEDIN"] .net-state__label`).Text()))

	doc = parse(t, b.get(t, "/calendar?view=week&date="+time.Now().UTC().Format("2006-01-02")))
	var statuses []string
	entries := doc.Find(`[data-testid="calendar-entry"]`)
	for i := range entries.Length() {
		statuses = append(statuses, entries.Eq(i).AttrOr("data-status", ""))
	}
	require.ElementsMatch(t, []string{"PARTIAL", "ERROR"}, statuses)
	require.Contains(t, doc.Text(), "Partly published")

	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, app.PostError, got.Status) // the API's status is the spec's
}
