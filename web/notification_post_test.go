package web_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// A failed publish's notification links to its post; once a retry resolves it, the page says so.
func TestNotificationsSayResolved(t *testing.T) {
	t.Parallel()
	b := setupService(t, nil, nil)
	ctx := context.Background()
	tx, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, b.svc.Notify(ctx, tx, b.orgID(), app.NotificationParams{Type: app.NotificationPostFailed,
		Title: "“Spring sale” failed on Mastodon", Message: "Mastodon said: Text too long.", Link: "/posts/p-1",
		Data: map[string]any{"postId": "p-1"}}))
	require.NoError(t, tx.Commit(ctx))

	doc := parse(t, b.get(t, "/notifications"))
	item := doc.Find(`[data-testid="notification"]`)
	require.Equal(t, "/posts/p-1", item.Find(`[data-testid="notification-link"]`).AttrOr("href", ""))
	require.Equal(t, "“Spring sale” failed on Mastodon", item.Find(`[data-testid="notification-link"]`).Text())
	require.Equal(t, 0, item.Find(`[data-testid="notification-resolved"]`).Length())

	_, err = b.pool.Exec(ctx, `UPDATE notifications SET data = data || '{"resolvedAt":"2026-11-20T10:04:00Z"}', read_at = now()`)
	require.NoError(t, err)
	doc = parse(t, b.get(t, "/notifications"))
	resolved := doc.Find(`[data-testid="notification-resolved"]`)
	require.Contains(t, resolved.Text(), "Resolved")
	require.Contains(t, resolved.Text(), "Published later, ")
	require.Equal(t, "true", doc.Find(`[data-testid="notification"]`).AttrOr("data-read", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="mark-read"]`).Length())
}
