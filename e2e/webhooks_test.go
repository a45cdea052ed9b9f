package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// The webhooks pages in Chromium: create a webhook to a loopback receiver (the test server allows
// private URLs), send a test and see its answer, find the delivery in the log with its payload and
// response, resend it; then the bell counts a notification, and the notifications page marks it
// read. Screenshots land in e2e/screenshots/webhooks-*.png.
func TestWebhookJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	var hits atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"from":"receiver"}`))
	}))
	t.Cleanup(recv.Close)

	email := testEmail("hooks")
	signUpInBrowser(t, b, "Grace", email, "Hopper Hooks")

	_, err := p.Goto("/webhooks")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("webhooks")).ToContainText("No webhooks yet"))
	shot(t, b, "webhooks-empty")

	// A mistake first: no event chosen. The URL stays, the error sits beside the events.
	require.NoError(t, p.GetByTestId("new-webhook").Click())
	require.NoError(t, p.Locator("#webhook-url").Fill(recv.URL+"/crier"))
	require.NoError(t, p.GetByTestId("webhook-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("events-error")).ToContainText("Choose at least one event"))
	require.NoError(t, expect.Locator(p.Locator("#webhook-url")).ToHaveValue(recv.URL+"/crier"))
	shot(t, b, "webhooks-form-error")

	require.NoError(t, p.GetByTestId("event-team.created").Check())
	require.NoError(t, p.GetByTestId("event-post.published").Check())
	require.NoError(t, p.GetByTestId("webhook-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("webhook-summary")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("webhook-kinds").Locator("li")).ToHaveCount(2))

	// The secret, revealed, with its copy button.
	require.NoError(t, p.GetByTestId("secret-reveal").Locator("summary").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("secret-value")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("copy-secret")).ToBeVisible())

	// Send a test: the answer inline.
	require.NoError(t, p.GetByTestId("send-test").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("test-code")).ToHaveText("200"))
	require.NoError(t, expect.Locator(p.GetByTestId("test-body")).ToContainText(`"from": "receiver"`))
	require.Equal(t, int32(1), hits.Load())
	shot(t, b, "webhooks-detail-test")

	// The log: the delivery, its payload and the response.
	require.NoError(t, p.GetByTestId("webhook-deliveries").Click())
	require.NoError(t, p.WaitForURL("**/deliveries"))
	row := p.GetByTestId("delivery")
	require.NoError(t, expect.Locator(row).ToHaveCount(1))
	require.NoError(t, row.Locator("summary").Click())
	require.NoError(t, expect.Locator(row.GetByTestId("delivery-payload")).ToContainText(`"type": "webhook.test"`))
	require.NoError(t, expect.Locator(row.GetByTestId("delivery-response")).ToContainText(`"ok": true`))
	require.NoError(t, row.GetByTestId("resend").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("resend-flash")).ToContainText("HTTP 200"))
	require.Equal(t, int32(2), hits.Load())
	shot(t, b, "webhooks-deliveries")

	require.NoError(t, p.GetByTestId("filter-Failed").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("delivery")).ToHaveCount(0))
	require.NoError(t, p.GetByTestId("filter-Delivered").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("delivery")).ToHaveCount(1))

	// Rotate the secret: a dialog explains the 24-hour grace; the page then shows the new secret.
	require.NoError(t, p.GetByTestId("back-to-webhook").Click())
	require.NoError(t, p.GetByTestId("secret-reveal").Locator("summary").Click())
	oldSecret, err := p.GetByTestId("secret-value").InputValue()
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("webhook-rotate").Click())
	dialog := p.GetByTestId("confirm-dialog")
	require.NoError(t, expect.Locator(dialog).ToContainText("24 hours"))
	p.WaitForTimeout(400) // the dialog fades in
	shot(t, b, "webhooks-rotate-dialog", true)
	require.NoError(t, dialog.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("flashes")).ToContainText("New secret issued"))
	require.NoError(t, p.GetByTestId("secret-reveal").Locator("summary").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("secret-value")).Not().ToHaveValue(oldSecret))

	// The list shows the last delivery.
	_, err = p.Goto("/webhooks")
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("webhook-last")).ToContainText("HTTP 200"))
	shot(t, b, "webhooks-list")

	// A second webhook, deleted from the list through its confirmation.
	require.NoError(t, p.GetByTestId("new-webhook").Click())
	require.NoError(t, p.Locator("#webhook-url").Fill("https://hooks.example.com/old"))
	require.NoError(t, p.GetByTestId("event-credit.exhausted").Check())
	require.NoError(t, p.GetByTestId("webhook-active").Uncheck())
	require.NoError(t, p.GetByTestId("webhook-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("webhook-summary")).ToBeVisible())
	_, err = p.Goto("/webhooks")
	require.NoError(t, err)
	rows := p.GetByTestId("webhooks-table").Locator("tbody tr")
	require.NoError(t, expect.Locator(rows).ToHaveCount(2))
	old := rows.Filter(playwright.LocatorFilterOptions{HasText: "hooks.example.com/old"})
	require.NoError(t, expect.Locator(old).ToContainText("Inactive"))
	require.NoError(t, old.GetByTestId("webhook-delete").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("confirm-dialog")).ToContainText("hooks.example.com/old"))
	p.WaitForTimeout(400) // the dialog fades in
	shot(t, b, "webhooks-delete-dialog", true)
	require.NoError(t, p.GetByTestId("confirm-dialog").GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(rows).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.GetByTestId("flashes")).ToContainText("deleted"))

	// A notification for this organization: the bell counts it.
	ctx := context.Background()
	var orgID string
	require.NoError(t, b.srv.Pool.QueryRow(ctx, `SELECT m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1`, email).Scan(&orgID))
	tx, err := b.srv.Pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, b.srv.Service.Notify(ctx, tx, orgID, app.NotificationParams{Type: app.NotificationWebhookDeactivated, Title: "Webhook deactivated",
		Message: "Every delivery to https://old.example.com has failed for 72h0m0s, so Crier stopped sending to it.", Link: app.WebhooksPath}))
	require.NoError(t, tx.Commit(ctx))
	_, err = p.Reload()
	require.NoError(t, err)
	bell := p.GetByTestId("bell")
	require.NoError(t, expect.Locator(bell.GetByTestId("bell-count")).ToHaveText("1"))
	require.NoError(t, expect.Locator(bell).ToHaveAttribute("aria-label", "Notifications, 1 unread"))
	shot(t, b, "webhooks-bell", true)

	require.NoError(t, bell.Click())
	require.NoError(t, p.WaitForURL("**/notifications"))
	require.NoError(t, expect.Locator(p.GetByTestId("notification")).ToHaveCount(1))
	shot(t, b, "notifications")
	require.NoError(t, p.GetByTestId("mark-read").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("notification")).ToHaveAttribute("data-read", "true"))
	require.NoError(t, expect.Locator(p.GetByTestId("bell-count")).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("unread-summary")).ToContainText("caught up"))
	require.NoError(t, expect.Locator(p.GetByTestId("mark-all-read")).ToHaveCount(0))
	shot(t, b, "notifications-read")
}
