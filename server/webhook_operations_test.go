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

// memberCookie invites a MEMBER into the key's organization and answers their session cookie.
func memberCookie(t *testing.T, srv *servertest.Server, ownerKey string) string {
	t.Helper()
	email := newEmail()
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+email+`","role":"MEMBER"}`, "x-api-key", ownerKey)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	token := outboxToken(t, srv, email, app.MailInvitation)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations/accept", `{"token":"`+token+`","password":"a-long-password","firstName":"Lin"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	return sessionCookieOf(t, res)
}

// Every operation: status codes, shapes, 400 issues, 401, 403 (MEMBER), 404.
func TestWebhookOperations(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	owner := []string{"x-api-key", key}
	rcv := newReceiver(t)

	// 400: the contract and the service, with zod codes and paths.
	for body, want := range map[string]struct {
		code string
		path []any
	}{
		`{"events":["team.created"]}`:                                        {"invalid_type", []any{"url"}},
		`{"url":"` + rcv.URL + `"}`:                                          {"invalid_type", []any{"events"}},
		`{"url":"` + rcv.URL + `","events":[]}`:                              {"too_small", []any{"events"}},
		`{"url":"` + rcv.URL + `","events":["team.exploded"]}`:               {"invalid_enum_value", []any{"events", float64(0)}},
		`{"url":"not a url","events":["team.created"]}`:                      {"invalid_string", []any{"url"}},
		`{"url":"` + rcv.URL + `","events":["team.created"],"x":1}`:          {"unrecognized_keys", []any{}},
		`{"url":"` + rcv.URL + `","events":["team.created"],"active":"yes"}`: {"invalid_type", []any{"active"}},
	} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook", body, owner...)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, body+": "+string(b))
		e := decodeError(t, b)
		require.Equal(t, 400, e.StatusCode)
		require.Equal(t, want.code, e.Issues[0].Code, body)
		require.Equal(t, want.path, e.Issues[0].Path, body)
	}

	// Create: 201 with every field; inactive on request.
	hook := createWebhook(t, srv, key, rcv.URL, "team.created", "team.created", "post.published")
	require.Equal(t, []string{"team.created", "post.published"}, hook.Events, "duplicates dropped")
	require.NotEmpty(t, hook.ID)
	require.NotEmpty(t, hook.CreatedAt)
	require.NotEmpty(t, hook.UpdatedAt)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/", `{"url":"`+rcv.URL+`/2","events":["team.deleted"],"active":false}`, owner...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var second webhookAnswer
	require.NoError(t, json.Unmarshal(b, &second))
	require.False(t, second.Active)

	// List: items and total, paged.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/webhook?limit=1&offset=1", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var list struct {
		Items []webhookAnswer `json:"items"`
		Total int             `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 2, list.Total)
	require.Len(t, list.Items, 1)
	require.Equal(t, second.ID, list.Items[0].ID)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/webhook?limit=0", "", owner...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, "too_small", decodeError(t, b).Issues[0].Code)

	// Get and update.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID, "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var got webhookAnswer
	require.NoError(t, json.Unmarshal(b, &got))
	require.Equal(t, hook, got)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/webhook/"+hook.ID, `{"events":["team.updated"],"active":false}`, owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &got))
	require.Equal(t, []string{"team.updated"}, got.Events)
	require.False(t, got.Active)
	require.Equal(t, hook.URL, got.URL)
	require.Equal(t, hook.Secret, got.Secret)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/webhook/"+hook.ID, `{"url":"javascript:alert(1)"}`, owner...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, []any{"url"}, decodeError(t, b).Issues[0].Path)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/webhook/"+hook.ID, `{"events":[]}`, owner...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))

	// Inactive webhooks get no events.
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Quiet"}`, owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	time.Sleep(300 * time.Millisecond)
	require.Empty(t, rcv.requests())
	_, total := listDeliveries(t, srv, key, hook.ID, "")
	require.Zero(t, total)

	// Test: a signed test event now, answered with its Delivery, even while inactive.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/test", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var d deliveryAnswer
	require.NoError(t, json.Unmarshal(b, &d))
	require.Equal(t, "webhook.test", d.Event)
	require.Equal(t, "SUCCESS", d.Status)
	require.Equal(t, 1, d.Attempt)
	require.Equal(t, 200, *d.ResponseCode)
	require.Equal(t, "webhook.test", d.Payload["type"])
	require.Len(t, rcv.requests(), 1)
	require.True(t, standardOK(t, hook.Secret, rcv.requests()[0], false))
	// Deliveries: filter, bad status.
	items, total := listDeliveries(t, srv, key, hook.ID, "?status=SUCCESS")
	require.Equal(t, 1, total)
	require.Equal(t, d.ID, items[0].ID)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID+"/deliveries?status=LOST", "", owner...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, "invalid_enum_value", e.Issues[0].Code)
	require.Equal(t, []any{"status"}, e.Issues[0].Path)
	// Resend.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/deliveries/"+d.ID+"/resend", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var again deliveryAnswer
	require.NoError(t, json.Unmarshal(b, &again))
	require.Equal(t, d.ID, again.ID)
	require.Equal(t, 2, again.Attempt)
	require.Len(t, rcv.requests(), 2)
	require.Equal(t, rcv.requests()[0].header.Get("webhook-id"), rcv.requests()[1].header.Get("webhook-id"))

	// 404: unknown ids, ids that are not uuids, a delivery of another webhook.
	missing := "00000000-0000-4000-8000-000000000000"
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/webhook/" + missing, ""},
		{http.MethodGet, "/api/v1/webhook/nope", ""},
		{http.MethodPatch, "/api/v1/webhook/" + missing, `{"active":true}`},
		{http.MethodDelete, "/api/v1/webhook/" + missing, ""},
		{http.MethodPost, "/api/v1/webhook/" + missing + "/rotate-secret", ""},
		{http.MethodPost, "/api/v1/webhook/" + missing + "/test", ""},
		{http.MethodGet, "/api/v1/webhook/" + missing + "/deliveries", ""},
		{http.MethodPost, "/api/v1/webhook/" + hook.ID + "/deliveries/" + missing + "/resend", ""},
		{http.MethodPost, "/api/v1/webhook/" + second.ID + "/deliveries/" + d.ID + "/resend", ""},
	} {
		res, b := do(t, tc.method, srv.URL+tc.path, tc.body, owner...)
		require.Equal(t, http.StatusNotFound, res.StatusCode, tc.method+" "+tc.path+": "+string(b))
		require.Equal(t, 404, decodeError(t, b).StatusCode)
	}

	// 401 without credentials, 403 for a MEMBER, on all nine operations.
	member := []string{"Cookie", memberCookie(t, srv, key), "Sec-Fetch-Site", "same-origin"}
	ops := []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/webhook", ""},
		{http.MethodPost, "/api/v1/webhook", `{"url":"` + rcv.URL + `","events":["team.created"]}`},
		{http.MethodGet, "/api/v1/webhook/" + hook.ID, ""},
		{http.MethodPatch, "/api/v1/webhook/" + hook.ID, `{"active":true}`},
		{http.MethodDelete, "/api/v1/webhook/" + hook.ID, ""},
		{http.MethodPost, "/api/v1/webhook/" + hook.ID + "/rotate-secret", ""},
		{http.MethodPost, "/api/v1/webhook/" + hook.ID + "/test", ""},
		{http.MethodGet, "/api/v1/webhook/" + hook.ID + "/deliveries", ""},
		{http.MethodPost, "/api/v1/webhook/" + hook.ID + "/deliveries/" + d.ID + "/resend", ""},
	}
	for _, op := range ops {
		res, b := do(t, op.method, srv.URL+op.path, op.body)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, op.method+" "+op.path)
		require.Equal(t, 401, decodeError(t, b).StatusCode)
		res, b = do(t, op.method, srv.URL+op.path, op.body, member...)
		require.Equal(t, http.StatusForbidden, res.StatusCode, op.method+" "+op.path+": "+string(b))
		require.NotContains(t, string(b), hook.Secret)
	}
	require.Len(t, rcv.requests(), 2, "the refused calls sent nothing")

	// Delete: Success, then 404 and the deliveries are gone with it.
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/webhook/"+hook.ID, "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID, "", owner...)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID+"/deliveries", "", owner...)
	require.Equal(t, http.StatusNotFound, res.StatusCode)

	// The audit log recorded the changes.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/audit-log?limit=100", "", owner...)
	require.Equal(t, http.StatusOK, res.StatusCode)
	for _, action := range []string{"webhook.created", "webhook.updated", "webhook.tested", "webhook.delivery_resent", "webhook.deleted"} {
		require.Contains(t, string(b), `"`+action+`"`)
	}
}

// A webhook whose deliveries have all failed for longer than WEBHOOK_DEACTIVATE_AFTER is
// deactivated, with a notification to owners and admins and an email to the owners; a success
// in between resets the clock.
func TestWebhookDeactivatedAfterFailingForThePeriod(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"WEBHOOK_DEACTIVATE_AFTER": "2h"}})
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	hook := createWebhook(t, srv, key, rcv.URL, "team.created")
	ctx := context.Background()
	at := func(d time.Duration) { srv.Clock.Set(func() time.Time { return time.Now().Add(d) }) }
	defer srv.Clock.Set(time.Now)
	test := func() string {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/test", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var d deliveryAnswer
		require.NoError(t, json.Unmarshal(b, &d))
		return d.Status
	}

	rcv.down.Store(true)
	require.Equal(t, "FAILED", test())
	at(90 * time.Minute)
	rcv.down.Store(false)
	require.Equal(t, "SUCCESS", test()) // the streak ends
	rcv.down.Store(true)
	at(100 * time.Minute)
	require.Equal(t, "FAILED", test()) // a new streak starts here
	at(3 * time.Hour)
	off, err := srv.Service.DeactivateFailingWebhooks(ctx)
	require.NoError(t, err)
	require.Empty(t, off, "failing for 80 minutes only")

	at(4 * time.Hour)
	off, err = srv.Service.DeactivateFailingWebhooks(ctx)
	require.NoError(t, err)
	require.Len(t, off, 1)
	require.Equal(t, hook.ID, off[0].ID)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"active":false`)

	// The owner is told in the app and by email.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/notification?unread=true", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var notes notificationList
	require.NoError(t, json.Unmarshal(b, &notes))
	require.Equal(t, 1, notes.Total)
	require.Equal(t, 1, notes.UnreadCount)
	require.Equal(t, "WEBHOOK_DEACTIVATED", notes.Items[0].Type)
	require.Contains(t, notes.Items[0].Message, rcv.URL)
	require.Equal(t, hook.ID, notes.Items[0].Data["webhookId"])
	ms, err := srv.Service.Outbox(ctx, 100)
	require.NoError(t, err)
	found := false
	for _, m := range ms {
		if m.Kind == string(app.MailWebhookDeactivated) {
			found = true
			require.Contains(t, m.Text, rcv.URL)
			require.Contains(t, m.HTML, rcv.URL)
			require.Contains(t, m.Subject, "webhook")
		}
	}
	require.True(t, found, "deactivation email in the outbox")

	// Deactivated: a second run does nothing; reactivating starts afresh.
	off, err = srv.Service.DeactivateFailingWebhooks(ctx)
	require.NoError(t, err)
	require.Empty(t, off)
	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/webhook/"+hook.ID, `{"active":true}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	off, err = srv.Service.DeactivateFailingWebhooks(ctx)
	require.NoError(t, err)
	require.Empty(t, off)
}

// addWebhookTenantIDs gives a tenant of the isolation test a webhook, a delivery of it and a
// notification, so their ids can be tried by another organization.
func addWebhookTenantIDs(t *testing.T, srv *servertest.Server, tn *tenant) {
	t.Helper()
	// localhost passes creation whatever ALLOW_PRIVATE_URLS says; its test delivery fails fast either way.
	hook := createWebhook(t, srv, tn.key, "http://localhost:9/isolated", "team.created")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/test", "", "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var d deliveryAnswer
	require.NoError(t, json.Unmarshal(b, &d))
	tn.ids["webhook"] = hook.ID
	tn.ids["webhookDelivery"] = hook.ID + "/deliveries/" + d.ID
	ctx := context.Background()
	orgID := organizationID(t, srv, tn.key)
	require.NoError(t, store.InTx(ctx, srv.Pool, func(tx pgx.Tx) error {
		return srv.Service.Notify(ctx, tx, orgID, app.NotificationParams{Type: app.NotificationImportFinished, Title: "Isolated", Message: "Only mine."})
	}))
	l := listNotifications(t, srv, "", "x-api-key", tn.key)
	require.Equal(t, 1, l.Total)
	tn.ids["notification"] = l.Items[0].ID
}
