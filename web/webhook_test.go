package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// setupWebhooks is setup with webhooks configured as the server does, allowing private URLs (as
// servertest's ALLOW_PRIVATE_URLS=1) so a loopback receiver can answer.
func setupWebhooks(t *testing.T) *testBundle {
	t.Helper()
	return setupService(t, func(o *app.Options) { o.Webhooks.AllowPrivateURLs = true }, nil)
}

// receiver is a loopback endpoint that answers JSON and counts what it got.
func receiver(t *testing.T, status int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"received":true,"signature":"` + strconv.FormatBool(r.Header.Get("x-signature") != "") + `"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func (b *testBundle) createWebhook(t *testing.T, u string, events ...string) *app.Webhook {
	t.Helper()
	w, err := b.svc.CreateWebhook(b.ctx(t), app.WebhookParams{URL: &u, Events: &events})
	require.NoError(t, err)
	return w
}

func (b *testBundle) notify(t *testing.T, title, link string) {
	t.Helper()
	ctx := context.Background()
	tx, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, b.svc.Notify(ctx, tx, b.orgID(), app.NotificationParams{Type: app.NotificationWebhookDeactivated, Title: title,
		Message: "Something happened.", Link: link}))
	require.NoError(t, tx.Commit(ctx))
}

func TestWebhooksPageEmptyThenCreateWithErrorsKept(t *testing.T) {
	t.Parallel()
	b := setupWebhooks(t)

	rec := b.get(t, "/webhooks")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	require.Equal(t, "page", doc.Find(`[data-testid="nav-webhooks"]`).AttrOr("aria-current", ""))
	require.Contains(t, doc.Find(`[data-testid="webhooks"]`).Text(), "No webhooks yet")
	require.Equal(t, "/webhooks/new", doc.Find(`[data-testid="new-webhook"]`).AttrOr("href", ""))

	// The form groups the 16 kinds as the spec does.
	doc = parse(t, b.get(t, "/webhooks/new"))
	require.Equal(t, len(app.EventKinds), doc.Find(`input[type="checkbox"][name="events"]`).Length())
	require.Equal(t, 6, doc.Find(`.webhook-events__group`).Length())
	require.True(t, doc.Find(`[data-testid="webhook-active"]`).Is("[checked]"))

	// No events and a private address (webhooks here allow them; a plain word is not a URL): the
	// errors go beside their fields and what was typed stays.
	rec = b.post(t, "/webhooks", url.Values{"url": {"not a url"}, "active": {"on"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.NotEmpty(t, doc.Find(`[data-testid="field-url"] .field__error`).Text())
	require.Equal(t, "not a url", doc.Find(`input[name="url"]`).AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="events-error"]`).Text(), "Choose at least one event")

	// htmx: the form comes back in place (200), the checked kinds still checked.
	rec = b.post(t, "/webhooks", url.Values{"url": {"ftp://example.com/x"}, "events": {"team.created", "post.published"}}, hx("webhook-form-page")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parseBody(t, rec.Body.String())
	require.NotEmpty(t, doc.Find(`[data-testid="field-url"] .field__error`).Text())
	require.True(t, doc.Find(`[data-testid="event-team.created"]`).Is("[checked]"))
	require.True(t, doc.Find(`[data-testid="event-post.published"]`).Is("[checked]"))
	require.Equal(t, 0, doc.Find(`[data-testid="event-team.deleted"][checked]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="webhook-active"][checked]`).Length())

	// Success: to the webhook's page, which shows the secret.
	rec = b.post(t, "/webhooks", url.Values{"url": {"https://hooks.example.com/crier"}, "events": {"team.created", "post.published"}, "active": {"on"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	loc := rec.Header().Get("Location")
	require.True(t, strings.HasPrefix(loc, "/webhooks/"), loc)
	list, total, err := b.svc.ListWebhooks(b.ctx(t), app.Page{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, "/webhooks/"+list[0].ID, loc)
	require.ElementsMatch(t, []string{"team.created", "post.published"}, list[0].Events)
	require.True(t, list[0].Active)

	doc = parse(t, b.get(t, loc))
	require.Equal(t, list[0].Secret, doc.Find(`[data-testid="secret-value"]`).AttrOr("value", ""))
	require.Equal(t, 2, doc.Find(`[data-testid="webhook-kinds"] li`).Length())

	doc = parse(t, b.get(t, "/webhooks"))
	row := doc.Find(`[data-testid="webhook-` + list[0].ID + `"]`)
	require.Equal(t, "2", row.Find(`[data-testid="webhook-events"]`).Text())
	require.Contains(t, row.Text(), "Active")
	require.Contains(t, row.Find(`[data-testid="webhook-last"]`).Text(), "Never delivered")
}

func TestWebhookCreateRefusesHTTPInProductionAndPrivateAddresses(t *testing.T) {
	t.Parallel()
	b := setupService(t, func(o *app.Options) { o.Webhooks.RequireHTTPS = true }, nil)

	rec := b.post(t, "/webhooks", url.Values{"url": {"http://hooks.example.com/x"}, "events": {"team.created"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="field-url"] .field__error`).Text(), "https")

	rec = b.post(t, "/webhooks", url.Values{"url": {"https://127.0.0.1/x"}, "events": {"team.created"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.NotEmpty(t, doc.Find(`[data-testid="field-url"] .field__error`).Text())
	require.Equal(t, "https://127.0.0.1/x", doc.Find(`input[name="url"]`).AttrOr("value", ""))
}

func TestWebhookEditDeleteRotate(t *testing.T) {
	t.Parallel()
	b := setupWebhooks(t)
	w := b.createWebhook(t, "https://hooks.example.com/a", "team.created")

	doc := parse(t, b.get(t, "/webhooks/"+w.ID+"/edit"))
	require.Equal(t, "https://hooks.example.com/a", doc.Find(`input[name="url"]`).AttrOr("value", ""))
	require.True(t, doc.Find(`[data-testid="event-team.created"]`).Is("[checked]"))

	// No events left: refused beside the field.
	rec := b.post(t, "/webhooks/"+w.ID, url.Values{"url": {"https://hooks.example.com/b"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="events-error"]`).Text(), "Choose at least one event")

	rec = b.post(t, "/webhooks/"+w.ID, url.Values{"url": {"https://hooks.example.com/b"}, "events": {"team.deleted", "credit.exhausted"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	got, err := b.svc.GetWebhook(b.ctx(t), w.ID)
	require.NoError(t, err)
	require.Equal(t, "https://hooks.example.com/b", got.URL)
	require.ElementsMatch(t, []string{"team.deleted", "credit.exhausted"}, got.Events)
	require.False(t, got.Active)

	// Rotate: a confirmation explaining the grace, then a new secret.
	rec = b.get(t, "/webhooks/"+w.ID+"/rotate", "HX-Request", "true")
	require.Contains(t, parseBody(t, rec.Body.String()).Find(`[data-testid="confirm-dialog"]`).Text(), "24 hours")
	rec = b.post(t, "/webhooks/"+w.ID+"/rotate", nil, "HX-Request", "true")
	require.Equal(t, "/webhooks/"+w.ID, rec.Header().Get("HX-Redirect"))
	rotated, err := b.svc.GetWebhook(b.ctx(t), w.ID)
	require.NoError(t, err)
	require.NotEqual(t, w.Secret, rotated.Secret)

	// Delete from the list: the dialog, then the list reloads.
	rec = b.get(t, "/webhooks/"+w.ID+"/delete", "HX-Request", "true")
	require.Equal(t, 1, parseBody(t, rec.Body.String()).Find(`[data-testid="confirm-dialog"]`).Length())
	rec = b.post(t, "/webhooks/"+w.ID+"/delete", nil, "HX-Request", "true", "HX-Current-URL", "http://crier.test/webhooks")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "webhooksChanged")
	_, err = b.svc.GetWebhook(b.ctx(t), w.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	require.Equal(t, http.StatusNotFound, b.get(t, "/webhooks/"+w.ID).Code)
}

func TestWebhookTestAndDeliveriesLog(t *testing.T) {
	t.Parallel()
	b := setupWebhooks(t)
	ok, hits := receiver(t, http.StatusOK)
	w := b.createWebhook(t, ok.URL+"/hook", "team.created")

	// The test's answer inline: status code and duration.
	rec := b.post(t, "/webhooks/"+w.ID+"/test", nil, hx("test-result")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parseBody(t, rec.Body.String())
	require.Equal(t, "200", doc.Find(`[data-testid="test-code"]`).Text())
	require.Contains(t, doc.Find(`[data-testid="test-duration"]`).Text(), "ms")
	require.Contains(t, doc.Find(`[data-testid="test-body"]`).Text(), `"received": true`)
	require.Equal(t, int32(1), hits.Load())

	// A failing endpoint: a second (failed) delivery.
	_, err := b.pool.Exec(context.Background(), `UPDATE webhooks SET url = $1 WHERE id = $2`, receiverURL(t, http.StatusInternalServerError), w.ID)
	require.NoError(t, err)
	rec = b.post(t, "/webhooks/"+w.ID+"/test", nil, hx("test-result")...)
	require.Equal(t, "500", parseBody(t, rec.Body.String()).Find(`[data-testid="test-code"]`).Text())

	doc = parse(t, b.get(t, "/webhooks/"+w.ID+"/deliveries"))
	requireNoInlineStyleOrScript(t, doc)
	require.Equal(t, 2, doc.Find(`[data-testid="delivery"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "2 deliveries")

	doc = parse(t, b.get(t, "/webhooks/"+w.ID+"/deliveries?status=success"))
	require.Equal(t, 1, doc.Find(`[data-testid="delivery"]`).Length())
	require.Equal(t, "page", doc.Find(`[data-testid="filter-Delivered"]`).AttrOr("aria-current", ""))
	d := doc.Find(`[data-testid="delivery"]`)
	require.Equal(t, "webhook.test", d.Find(`[data-testid="delivery-event"]`).Text())
	require.Equal(t, "200", d.Find(`[data-testid="delivery-code"]`).Text())
	var payload map[string]any
	require.NoError(t, json.Unmarshal([]byte(d.Find(`[data-testid="delivery-payload"]`).Text()), &payload))
	require.Equal(t, "webhook.test", payload["type"])
	require.Contains(t, d.Find(`[data-testid="delivery-response"]`).Text(), `"received": true`)

	// The filter as a fragment.
	rec = b.get(t, "/webhooks/"+w.ID+"/deliveries?status=failed", hx("deliveries")...)
	require.NotContains(t, rec.Body.String(), "<html")
	failed := parseBody(t, rec.Body.String()).Find(`[data-testid="delivery"]`)
	require.Equal(t, 1, failed.Length())
	require.Equal(t, "500", failed.Find(`[data-testid="delivery-code"]`).Text())

	// Resend the failed one (the endpoint now answers 200 again): the row comes back open.
	_, err = b.pool.Exec(context.Background(), `UPDATE webhooks SET url = $1 WHERE id = $2`, ok.URL+"/hook", w.ID)
	require.NoError(t, err)
	resend := failed.Find(`[data-testid="resend"]`).Closest("form").AttrOr("action", "")
	require.NotEmpty(t, resend)
	rec = b.post(t, resend, nil, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	row := parseBody(t, rec.Body.String())
	require.Contains(t, row.Find(`[data-testid="resend-flash"]`).Text(), "HTTP 200")
	require.Equal(t, "200", row.Find(`[data-testid="delivery-code"]`).Text())

	doc = parse(t, b.get(t, "/webhooks"))
	require.Contains(t, doc.Find(`[data-testid="webhook-last"]`).Text(), "HTTP")
}

func receiverURL(t *testing.T, status int) string {
	srv, _ := receiver(t, status)
	return srv.URL + "/hook"
}

func TestWebhooksMemberSeesNoControlsAndIsRefused(t *testing.T) {
	t.Parallel()
	b := setupWebhooks(t)
	w := b.createWebhook(t, "https://hooks.example.com/a", "team.created")
	member, _ := b.addMember(t, app.RoleMember, "Mia")

	rec := b.getAs(t, member, "/webhooks")
	require.Equal(t, http.StatusForbidden, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find(`[data-testid="forbidden"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="new-webhook"], [data-testid="webhooks-table"]`).Length())
	for _, p := range []string{"/webhooks/new", "/webhooks/" + w.ID, "/webhooks/" + w.ID + "/edit", "/webhooks/" + w.ID + "/deliveries"} {
		require.Equal(t, http.StatusForbidden, b.getAs(t, member, p).Code, p)
	}
	for _, p := range []string{"/webhooks", "/webhooks/" + w.ID, "/webhooks/" + w.ID + "/delete", "/webhooks/" + w.ID + "/rotate", "/webhooks/" + w.ID + "/test"} {
		rec := b.postAs(t, member, p, url.Values{"url": {"https://x.example.com"}, "events": {"team.created"}})
		require.Equal(t, http.StatusForbidden, rec.Code, p)
		require.NotContains(t, rec.Body.String(), w.Secret)
	}
	_, err := b.svc.GetWebhook(b.ctx(t), w.ID)
	require.NoError(t, err)

	// An admin manages them.
	admin, _ := b.addMember(t, app.RoleAdmin, "Abe")
	require.Equal(t, http.StatusOK, b.getAs(t, admin, "/webhooks/"+w.ID).Code)
}

func TestWebhooksOfAnotherOrganizationAreNotFound(t *testing.T) {
	t.Parallel()
	a := setupWebhooks(t)
	ctx := context.Background()
	bSess, err := a.svc.Signup(ctx, app.SignupParams{Email: "bob-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.org", Password: "a long enough password", FirstName: "Bob"})
	require.NoError(t, err)
	bp, err := a.svc.AuthenticateSession(ctx, bSess.User.ID, *bSess.CurrentOrganizationID, bSess.Generation)
	require.NoError(t, err)
	u, events := "https://bob.example.com/hook", []string{"team.created"}
	bw, err := a.svc.CreateWebhook(app.WithPrincipal(ctx, bp), app.WebhookParams{URL: &u, Events: &events})
	require.NoError(t, err)

	for _, p := range []string{"/webhooks/" + bw.ID, "/webhooks/" + bw.ID + "/edit", "/webhooks/" + bw.ID + "/delete", "/webhooks/" + bw.ID + "/rotate",
		"/webhooks/" + bw.ID + "/deliveries", "/webhooks/not-a-uuid"} {
		rec := a.get(t, p)
		require.Equal(t, http.StatusNotFound, rec.Code, p)
		require.NotContains(t, rec.Body.String(), bw.Secret, p)
	}
	for _, p := range []string{"/webhooks/" + bw.ID, "/webhooks/" + bw.ID + "/delete", "/webhooks/" + bw.ID + "/rotate", "/webhooks/" + bw.ID + "/test"} {
		rec := a.post(t, p, url.Values{"url": {"https://evil.example.com"}, "events": {"team.created"}})
		require.Equal(t, http.StatusNotFound, rec.Code, p)
	}
	got, err := a.svc.GetWebhook(app.WithPrincipal(ctx, bp), bw.ID)
	require.NoError(t, err)
	require.Equal(t, bw.Secret, got.Secret)
	require.Equal(t, u, got.URL)
}

func TestNotificationsBellMarkReadAndAll(t *testing.T) {
	t.Parallel()
	b := setupWebhooks(t)

	doc := parse(t, b.get(t, "/"))
	bell := doc.Find(`[data-testid="bell"]`)
	require.Equal(t, "/notifications", bell.AttrOr("href", ""))
	require.Equal(t, "Notifications, none unread", bell.AttrOr("aria-label", ""))
	require.Equal(t, 0, bell.Find(`[data-testid="bell-count"]`).Length())

	b.notify(t, "Webhook deactivated", "/webhooks")
	b.notify(t, "A post failed to publish", "/posts/123")
	b.notify(t, "Import finished", "")

	doc = parse(t, b.get(t, "/webhooks"))
	require.Equal(t, "3", doc.Find(`[data-testid="bell-count"]`).Text())
	require.Equal(t, "Notifications, 3 unread", doc.Find(`[data-testid="bell"]`).AttrOr("aria-label", ""))

	rec := b.get(t, "/notifications")
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	items := doc.Find(`[data-testid="notification"]`)
	require.Equal(t, 3, items.Length())
	require.Equal(t, "Import finished", strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(items.First().Find(".notification__title").Text()), "Unread:")))
	require.Equal(t, "/webhooks", doc.Find(`[data-testid="notification-link"]`).Last().AttrOr("href", ""))

	// Mark one read: the list comes back with it read, the count and the bell say 2.
	mark := items.First().Find("form").AttrOr("action", "")
	rec = b.post(t, mark, nil, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	frag := parseBody(t, rec.Body.String())
	require.Equal(t, "true", frag.Find(`[data-testid="notification"]`).First().AttrOr("data-read", ""))
	require.Equal(t, 2, frag.Find(`[data-testid="mark-read"]`).Length())
	require.Contains(t, frag.Find(`[data-testid="unread-summary"]`).Text(), "2 unread")
	require.Equal(t, "2", frag.Find(`#bell-slot[hx-swap-oob] [data-testid="bell-count"]`).Text())
	// Without htmx: back to the page.
	rec = b.post(t, mark, nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)

	// The unread filter.
	doc = parse(t, b.get(t, "/notifications?filter=unread"))
	require.Equal(t, 2, doc.Find(`[data-testid="notification"]`).Length())
	require.Equal(t, "page", doc.Find(`[data-testid="filter-unread"]`).AttrOr("aria-current", ""))

	// Mark all read.
	rec = b.post(t, "/notifications/read-all?filter=unread", nil, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	frag = parseBody(t, rec.Body.String())
	require.Equal(t, 0, frag.Find(`[data-testid="notification"]`).Length())
	require.Contains(t, frag.Find(`[data-testid="unread-summary"]`).Text(), "caught up")
	require.Equal(t, 1, frag.Find(`#bell-slot[hx-swap-oob]`).Length())
	require.Equal(t, 0, frag.Find(`[data-testid="bell-count"]`).Length())
	n, err := b.svc.UnreadNotifications(b.ctx(t))
	require.NoError(t, err)
	require.Zero(t, n)

	// Another user's notification id is not found.
	other, _ := b.addMember(t, app.RoleMember, "Mo")
	require.Equal(t, http.StatusNotFound, b.postAs(t, other, mark, nil).Code)
}
