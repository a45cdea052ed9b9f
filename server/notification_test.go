package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
	"github.com/crier/crier/store"
)

type notificationAnswer struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	Title     string         `json:"title"`
	Message   string         `json:"message"`
	Link      *string        `json:"link"`
	Data      map[string]any `json:"data"`
	Read      bool           `json:"read"`
	ReadAt    *time.Time     `json:"readAt"`
	CreatedAt time.Time      `json:"createdAt"`
}

type notificationList struct {
	Items       []notificationAnswer `json:"items"`
	Total       int                  `json:"total"`
	UnreadCount int                  `json:"unreadCount"`
}

func listNotifications(t *testing.T, srv *servertest.Server, query string, creds ...string) notificationList {
	t.Helper()
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/notification"+query, "", creds...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var l notificationList
	require.NoError(t, json.Unmarshal(b, &l))
	return l
}

// Notifications are fed by events (through the same fan-out as webhooks) and by system conditions;
// each member has their own, with personal read state; list filters unread with offset, limit and
// total; one or all can be marked read.
func TestNotificationsOverTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	owner := []string{"x-api-key", key}
	member := []string{"Cookie", memberCookie(t, srv, key), "Sec-Fetch-Site", "same-origin"}
	orgID := organizationID(t, srv, key)
	ctx := context.Background()

	// Events: a failed post tells every member; low credit tells owners only; a published post no one.
	emit(t, srv, orgID, app.EventPostPublished, map[string]any{"id": "post-9", "status": "ERROR"})
	emit(t, srv, orgID, app.EventPostPublished, map[string]any{"id": "post-10", "status": "POSTED"})
	emit(t, srv, orgID, app.EventCreditLowBalance, map[string]any{"balanceMicros": 1000})
	eventually(t, "notifications", func() bool { return listNotifications(t, srv, "", owner...).Total == 2 })
	time.Sleep(200 * time.Millisecond)
	l := listNotifications(t, srv, "", owner...)
	require.Equal(t, 2, l.Total)
	require.Equal(t, 2, l.UnreadCount)
	byType := map[string]notificationAnswer{}
	for _, n := range l.Items {
		byType[n.Type] = n
	}
	require.Contains(t, byType, "CREDIT_LOW")
	failed := byType["POST_FAILED"]
	require.Equal(t, "/posts/post-9", *failed.Link)
	require.Equal(t, "post-9", failed.Data["postId"])
	require.NotEmpty(t, failed.Title)
	require.NotEmpty(t, failed.Message)
	require.False(t, failed.Read)
	require.Nil(t, failed.ReadAt)
	m := listNotifications(t, srv, "", member...)
	require.Equal(t, 1, m.Total)
	require.Equal(t, "POST_FAILED", m.Items[0].Type)
	require.NotEqual(t, failed.ID, m.Items[0].ID, "each member has their own")

	// A fan-out run again (River retrying it) writes nothing twice.
	var eventID string
	require.NoError(t, srv.Pool.QueryRow(ctx, "SELECT id FROM events WHERE kind = $1 AND organization_id = $2", app.EventCreditLowBalance, orgID).Scan(&eventID))
	require.NoError(t, srv.Service.FanOutEvent(ctx, eventID))
	require.Equal(t, 2, listNotifications(t, srv, "", owner...).Total)

	// A system condition, through Notify.
	require.NoError(t, store.InTx(ctx, srv.Pool, func(tx pgx.Tx) error {
		return srv.Service.Notify(ctx, tx, orgID, app.NotificationParams{Type: app.NotificationImportFinished, Title: "Import finished", Message: "42 posts imported."})
	}))
	l = listNotifications(t, srv, "?limit=1", owner...)
	require.Equal(t, 3, l.Total)
	require.Len(t, l.Items, 1)
	require.Equal(t, "IMPORT_FINISHED", l.Items[0].Type, "newest first")
	require.Equal(t, l.Items[0].ID, listNotifications(t, srv, "?offset=0&limit=3", owner...).Items[0].ID)
	require.Len(t, listNotifications(t, srv, "?offset=2&limit=3", owner...).Items, 1)
	require.Nil(t, l.Items[0].Link)

	// Mark one read: answered, idempotent, personal.
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/notification/"+failed.ID+"/read", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var read notificationAnswer
	require.NoError(t, json.Unmarshal(b, &read))
	require.True(t, read.Read)
	require.NotNil(t, read.ReadAt)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/notification/"+failed.ID+"/read", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var again notificationAnswer
	require.NoError(t, json.Unmarshal(b, &again))
	require.True(t, read.ReadAt.Equal(*again.ReadAt))
	l = listNotifications(t, srv, "?unread=true", owner...)
	require.Equal(t, 2, l.Total)
	require.Equal(t, 2, l.UnreadCount)
	for _, n := range l.Items {
		require.False(t, n.Read)
	}
	require.Equal(t, 2, listNotifications(t, srv, "", member...).UnreadCount)
	// Another member's notification is not yours: 404.
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/notification/"+failed.ID+"/read", "", member...)
	require.Equal(t, http.StatusNotFound, res.StatusCode)

	// Mark all read.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/notification/read-all", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true,"updated":2}`, string(b))
	l = listNotifications(t, srv, "?unread=true", owner...)
	require.Zero(t, l.Total)
	require.Zero(t, l.UnreadCount)
	require.Equal(t, 3, listNotifications(t, srv, "", owner...).Total)
	require.Equal(t, 2, listNotifications(t, srv, "?unread=true", member...).Total)

	// 400, 401, 404.
	for _, q := range []string{"?limit=0", "?offset=-1", "?unread=maybe", "?limit=101"} {
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/notification"+q, "", owner...)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, q+": "+string(b))
		require.NotEmpty(t, decodeError(t, b).Issues, q)
	}
	for _, op := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/notification"},
		{http.MethodPost, "/api/v1/notification/read-all"},
		{http.MethodPost, "/api/v1/notification/" + failed.ID + "/read"},
	} {
		res, _ := do(t, op.method, srv.URL+op.path, "")
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, op.path)
	}
	for _, id := range []string{"00000000-0000-4000-8000-000000000000", "nope"} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/notification/"+id+"/read", "", owner...)
		require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))
	}
}
