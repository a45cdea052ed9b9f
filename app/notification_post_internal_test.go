package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPostFailedNotificationWording(t *testing.T) {
	n := postFailedNotification([]byte(`{"id":"p1","title":"` + strings.Repeat("Long title ", 10) + `","status":"ERROR",
		"socialAccountTypes":["BLUESKY","TWITTER","MASTODON","THREADS"],
		"errors":{"TWITTER":"Duplicate content","MASTODON":"Text too long","THREADS":"Token expired","BLUESKY":null}}`))
	require.NotNil(t, n)
	require.Equal(t, NotificationPostFailed, n.Type)
	require.Equal(t, "“"+strings.TrimSpace(strings.Repeat("Long title ", 6)[:59])+"…” failed on X, Mastodon and Threads", n.Title)
	require.Equal(t, "Posted on Bluesky. Open the post to see each network's error and retry.", n.Message)
	require.Equal(t, "/posts/p1", n.Link)
	require.Equal(t, []string{"TWITTER", "MASTODON", "THREADS"}, n.Data["networks"])

	require.Nil(t, postFailedNotification([]byte(`{"id":"p2","status":"POSTED"}`)))
	require.Nil(t, postFailedNotification([]byte(`not json`)))
	n = postFailedNotification([]byte(`{"id":"p3","status":"ERROR"}`))
	require.Equal(t, "A post failed to publish", n.Title)
}
