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

// A failed post published later resolves its notification whether it was retried or edited and
// rescheduled (its failed network's attempts add up); a first-attempt post costs no statement.
func TestFailedBefore(t *testing.T) {
	posted := func(retries int, attempts ...int) *Post {
		p := &Post{Status: PostPosted, RetryCount: retries}
		for _, a := range attempts {
			p.Targets = append(p.Targets, PostTarget{Kind: TargetPost, Status: PostPosted, Attempts: a})
		}
		return p
	}
	require.False(t, failedBefore(posted(0, 1, 1)))
	require.True(t, failedBefore(posted(1, 1)), "retried")
	require.True(t, failedBefore(posted(0, 1, 2)), "edited and rescheduled: its failed network's second attempt")
	require.False(t, failedBefore(&Post{Status: PostPosted, Targets: []PostTarget{{Kind: TargetFirstComment, Attempts: 3}, {Kind: TargetPost, Attempts: 1}}}))
}
