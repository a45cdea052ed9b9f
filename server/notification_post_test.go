package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// A failed publish's notification names the post and the network and links to the post; when a
// retry publishes it, the notification says it is resolved and no longer counts as unread.
func TestPostFailedNotificationNamesAndResolves(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	owner := []string{"x-api-key", key}
	team := newTeam(t, srv, key, "Launch")
	connectNetwork(t, srv, key, team, "MASTODON")
	res, b := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":422,"message":"Validation failed: Text character limit of 500 exceeded","path":"/api/v1/statuses","times":1}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Spring sale","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"hello"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	waitPost(t, srv, key, p.ID, "ERROR")

	eventually(t, "the failure's notification", func() bool { return listNotifications(t, srv, "", owner...).Total == 1 })
	n := listNotifications(t, srv, "", owner...).Items[0]
	require.Equal(t, "POST_FAILED", n.Type)
	require.Equal(t, "“Spring sale” failed on Mastodon", n.Title)
	require.Equal(t, "Mastodon said: Validation failed: Text character limit of 500 exceeded Open the post to retry.", n.Message)
	require.Equal(t, "/posts/"+p.ID, *n.Link)
	require.Equal(t, []any{"MASTODON"}, n.Data["networks"])
	require.Equal(t, "Spring sale", n.Data["postTitle"])
	require.NotContains(t, n.Data, "resolvedAt")
	require.False(t, n.Read)

	st, _, b = postJSON(t, srv, http.MethodPost, "/api/v1/post/"+p.ID+"/retry", key, "")
	require.Equal(t, http.StatusOK, st, string(b))
	waitPost(t, srv, key, p.ID, "POSTED")
	l := listNotifications(t, srv, "", owner...)
	require.Equal(t, 1, l.Total, "resolved in place: no second notification")
	require.Equal(t, 0, l.UnreadCount, "nothing is left to act on")
	require.Equal(t, n.ID, l.Items[0].ID)
	require.NotEmpty(t, l.Items[0].Data["resolvedAt"])
	require.True(t, l.Items[0].Read)
}

// A failed post that the user edits and reschedules (its account reconnected; not a retry) resolves
// its notification once it publishes, as a retry does.
func TestPostFailedNotificationResolvesAfterEdit(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	owner := []string{"x-api-key", key}
	team := newTeam(t, srv, key, "Launch")
	connectNetwork(t, srv, key, team, "MASTODON")
	res, b := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":422,"message":"Validation failed","path":"/api/v1/statuses","times":1}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Spring sale","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"hello"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	waitPost(t, srv, key, p.ID, "ERROR")
	eventually(t, "the failure's notification", func() bool { return listNotifications(t, srv, "", owner...).Total == 1 })

	// Back to SCHEDULED as reconnect-social-account leaves it (without racing its immediate job),
	// then edited and rescheduled.
	_, err := srv.Pool.Exec(context.Background(), `UPDATE posts SET status = 'SCHEDULED' WHERE id = $1`, p.ID)
	require.NoError(t, err)
	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, `{"postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"hello again"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	p = waitPost(t, srv, key, p.ID, "POSTED")
	require.Zero(t, p.RetryCount, "not a retry")
	l := listNotifications(t, srv, "", owner...)
	require.Equal(t, 1, l.Total)
	require.Equal(t, 0, l.UnreadCount, "nothing is left to act on")
	require.NotEmpty(t, l.Items[0].Data["resolvedAt"])
}
