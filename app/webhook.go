package app

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/netguard"
	"github.com/crier/crier/store"
)

// Webhook settings and their defaults.
const (
	// DefaultWebhookDeactivateAfter: a webhook whose deliveries have all failed for this long is
	// deactivated. Longer than the retry schedule, so an event gets its whole day of retries first.
	DefaultWebhookDeactivateAfter = 72 * time.Hour
	// WebhookTimeout bounds one delivery attempt, connection to last response byte.
	WebhookTimeout = 15 * time.Second
	// DefaultWebhookPerEndpoint is how many deliveries may be in flight to one endpoint (scheme, host
	// and port) from one instance; more wait (jobs snooze, freeing their worker).
	DefaultWebhookPerEndpoint = 4
	// WebhookSecretGrace is how long a rotated-out secret keeps signing.
	WebhookSecretGrace = 24 * time.Hour
	// DefaultWebhookListLimit is the page size of the webhook and delivery lists.
	DefaultWebhookListLimit = 20
)

// WebhookOptions configure outgoing webhooks (from config: ALLOW_PRIVATE_URLS, CRIER_ENV,
// WEBHOOK_DEACTIVATE_AFTER); the key that encrypts webhook secrets at rest derives from
// Options.Secret.
type WebhookOptions struct {
	// AllowPrivateURLs lets webhooks reach private, loopback and link-local addresses.
	AllowPrivateURLs bool
	// RequireHTTPS refuses http:// endpoints (production).
	RequireHTTPS bool
	// DeactivateAfter; zero means DefaultWebhookDeactivateAfter.
	DeactivateAfter time.Duration
	// PerEndpoint; zero means DefaultWebhookPerEndpoint.
	PerEndpoint int
}

// webhookRuntime is what delivering needs besides the database.
type webhookRuntime struct {
	opts    WebhookOptions
	box     *secretBox
	client  *http.Client
	limiter *endpointLimiter
}

func newWebhookRuntime(secret []byte, o WebhookOptions) (*webhookRuntime, error) {
	if o.DeactivateAfter <= 0 {
		o.DeactivateAfter = DefaultWebhookDeactivateAfter
	}
	if o.PerEndpoint <= 0 {
		o.PerEndpoint = DefaultWebhookPerEndpoint
	}
	box, err := newSecretBox(secret)
	if err != nil {
		return nil, err
	}
	client := netguard.Client(netguard.Options{AllowPrivate: o.AllowPrivateURLs, Timeout: WebhookTimeout})
	// Redirects are not followed: a receiver answers where it was registered.
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &webhookRuntime{opts: o, box: box, client: client, limiter: newEndpointLimiter(o.PerEndpoint)}, nil
}

// Webhook is an outgoing webhook. Secret is shown to its organization only (every operation is
// scoped to it); it signs the deliveries.
type Webhook struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	Active    bool      `json:"active"`
	Secret    string    `json:"secret"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Delivery statuses.
const (
	DeliveryPending = "PENDING"
	DeliverySuccess = "SUCCESS"
	DeliveryFailed  = "FAILED"
)

// WebhookDelivery is one event sent (or being sent) to one webhook; retries update it.
type WebhookDelivery struct {
	ID            string         `json:"id"`
	WebhookID     string         `json:"webhookId"`
	Event         string         `json:"event"`
	EventID       string         `json:"eventId"`
	Attempt       int            `json:"attempt"`
	Status        string         `json:"status"`
	ResponseCode  *int           `json:"responseCode"`
	ResponseBody  *string        `json:"responseBody"`
	DurationMs    *int           `json:"durationMs"`
	NextAttemptAt *time.Time     `json:"nextAttemptAt"`
	CreatedAt     time.Time      `json:"createdAt"`
	Payload       map[string]any `json:"payload"`
}

// WebhookParams is the body of webhook creation (URL and Events required) and update.
type WebhookParams struct {
	URL    *string
	Events *[]string
	Active *bool
}

func (s *Service) validateWebhook(h *webhookRuntime, p WebhookParams, creating bool) ([]string, error) {
	var issues []Issue
	if p.URL != nil || creating {
		raw := ""
		if p.URL != nil {
			raw = strings.TrimSpace(*p.URL)
		}
		if msg := checkWebhookURL(raw, h.opts); msg != "" {
			is := Issue{Code: IssueInvalidString, Message: msg, Path: []any{"url"}}
			if msg == "Invalid url" {
				is = InvalidString("url", "url")
			}
			issues = append(issues, is)
		}
	}
	var events []string
	if p.Events != nil || creating {
		if p.Events == nil || len(*p.Events) == 0 {
			issues = append(issues, Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"events"}})
		} else {
			seen := map[string]bool{}
			for i, e := range *p.Events {
				if !IsEventKind(e) {
					issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: fmt.Sprintf("Invalid enum value. Expected one of the 16 event kinds, received '%s'", e), Path: []any{"events", i}})
					continue
				}
				if !seen[e] {
					seen[e] = true
					events = append(events, e)
				}
			}
		}
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	return events, nil
}

// checkWebhookURL answers why raw cannot be a webhook endpoint, or "".
func checkWebhookURL(raw string, o WebhookOptions) string {
	if raw == "" {
		return "Invalid url"
	}
	if len(raw) > 2048 {
		return "URL must be at most 2048 characters"
	}
	u, err := netguard.CheckURL(raw, o.AllowPrivateURLs)
	if err != nil {
		if netguard.IsBlocked(err) {
			return "Invalid url: " + strings.TrimPrefix(err.Error(), "netguard: ")
		}
		return "Invalid url"
	}
	if o.RequireHTTPS && u.Scheme != "https" {
		return "Invalid url: webhooks must use https"
	}
	return ""
}

// CreateWebhook registers a webhook with a fresh signing secret.
func (s *Service) CreateWebhook(ctx context.Context, p WebhookParams) (*Webhook, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	h := s.hooks
	events, err := s.validateWebhook(h, p, true)
	if err != nil {
		return nil, err
	}
	secret, err := newWebhookSecret()
	if err != nil {
		return nil, err
	}
	enc, err := h.box.seal(pr.OrganizationID, secret)
	if err != nil {
		return nil, err
	}
	active := true
	if p.Active != nil {
		active = *p.Active
	}
	var out *Webhook
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).CreateWebhook(ctx, store.CreateWebhookParams{OrganizationID: pr.OrganizationID,
			Url: strings.TrimSpace(*p.URL), Events: events, Active: active, SecretEnc: enc})
		if err != nil {
			return fmt.Errorf("app: create webhook: %w", err)
		}
		if out, err = s.webhookFromRow(h, row); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.created", TargetType: "webhook", TargetID: row.ID,
			Metadata: map[string]any{"url": row.Url, "events": row.Events}}))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListWebhooks answers the organization's webhooks, oldest first, and their total.
func (s *Service) ListWebhooks(ctx context.Context, page Page) ([]Webhook, int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, 0, err
	}
	h := s.hooks
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	total, err := s.q.CountWebhooks(ctx, pr.OrganizationID)
	if err != nil {
		return nil, 0, fmt.Errorf("app: list webhooks: %w", err)
	}
	rows, err := s.q.ListWebhooks(ctx, store.ListWebhooksParams{OrganizationID: pr.OrganizationID, Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list webhooks: %w", err)
	}
	out := make([]Webhook, 0, len(rows))
	for _, r := range rows {
		w, err := s.webhookFromRow(h, r)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, *w)
	}
	return out, int(total), nil
}

// GetWebhook answers one webhook of the caller's organization.
func (s *Service) GetWebhook(ctx context.Context, id string) (*Webhook, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	h := s.hooks
	row, err := s.q.GetWebhook(ctx, store.GetWebhookParams{ID: id, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Webhook", "app: get webhook")
	}
	return s.webhookFromRow(h, row)
}

// UpdateWebhook changes a webhook's URL, events or active flag. Reactivating a deactivated webhook
// starts its failure clock afresh.
func (s *Service) UpdateWebhook(ctx context.Context, id string, p WebhookParams) (*Webhook, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	h := s.hooks
	events, err := s.validateWebhook(h, p, false)
	if err != nil {
		return nil, err
	}
	var out *Webhook
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		cur, err := q.GetWebhookForUpdate(ctx, store.GetWebhookForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Webhook", "app: update webhook")
		}
		upd := store.UpdateWebhookParams{ID: id, OrganizationID: pr.OrganizationID, Url: cur.Url, Events: cur.Events, Active: cur.Active}
		if p.URL != nil {
			upd.Url = strings.TrimSpace(*p.URL)
		}
		if p.Events != nil {
			upd.Events = events
		}
		if p.Active != nil {
			upd.Active = *p.Active
		}
		row, err := q.UpdateWebhook(ctx, upd)
		if err != nil {
			return NotFoundOr(err, "Webhook", "app: update webhook")
		}
		if out, err = s.webhookFromRow(h, row); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.updated", TargetType: "webhook", TargetID: row.ID,
			Metadata: map[string]any{"url": row.Url, "events": row.Events, "active": row.Active}}))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteWebhook removes a webhook and its delivery log; pending deliveries are dropped.
func (s *Service) DeleteWebhook(ctx context.Context, id string) error {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return err
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).DeleteWebhook(ctx, store.DeleteWebhookParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Webhook", "app: delete webhook")
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.deleted", TargetType: "webhook", TargetID: row.ID,
			Metadata: map[string]any{"url": row.Url}}))
	})
}

// RotateWebhookSecret issues a new signing secret; the previous one keeps signing too (a second
// signature) for WebhookSecretGrace, so receivers can switch without missing a delivery.
func (s *Service) RotateWebhookSecret(ctx context.Context, id string) (*Webhook, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	h := s.hooks
	secret, err := newWebhookSecret()
	if err != nil {
		return nil, err
	}
	enc, err := h.box.seal(pr.OrganizationID, secret)
	if err != nil {
		return nil, err
	}
	var out *Webhook
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		cur, err := q.GetWebhookForUpdate(ctx, store.GetWebhookForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Webhook", "app: rotate webhook secret")
		}
		until := s.now().UTC().Add(WebhookSecretGrace)
		row, err := q.SetWebhookSecret(ctx, store.SetWebhookSecretParams{ID: id, OrganizationID: pr.OrganizationID, SecretEnc: enc,
			PreviousSecretEnc: cur.SecretEnc, PreviousSecretUntil: &until})
		if err != nil {
			return NotFoundOr(err, "Webhook", "app: rotate webhook secret")
		}
		if out, err = s.webhookFromRow(h, row); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.secret_rotated", TargetType: "webhook", TargetID: row.ID,
			Metadata: map[string]any{"previousSecretValidUntil": until}}))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListWebhookDeliveries answers a webhook's deliveries, newest first, optionally of one status,
// and their total.
func (s *Service) ListWebhookDeliveries(ctx context.Context, webhookID, status string, page Page) ([]WebhookDelivery, int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, 0, err
	}
	var st *string
	if status != "" {
		if status != DeliveryPending && status != DeliverySuccess && status != DeliveryFailed {
			return nil, 0, Invalid("Validation failed: status: Invalid enum value",
				Issue{Code: IssueInvalidEnumValue, Message: fmt.Sprintf("Invalid enum value. Expected 'PENDING' | 'SUCCESS' | 'FAILED', received '%s'", status), Path: []any{"status"}})
		}
		st = &status
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	if _, err := s.q.GetWebhook(ctx, store.GetWebhookParams{ID: webhookID, OrganizationID: pr.OrganizationID}); err != nil {
		return nil, 0, NotFoundOr(err, "Webhook", "app: list deliveries")
	}
	total, err := s.q.CountDeliveries(ctx, store.CountDeliveriesParams{WebhookID: webhookID, OrganizationID: pr.OrganizationID, Status: st})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list deliveries: %w", err)
	}
	rows, err := s.q.ListDeliveries(ctx, store.ListDeliveriesParams{WebhookID: webhookID, OrganizationID: pr.OrganizationID, Status: st,
		Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list deliveries: %w", err)
	}
	out := make([]WebhookDelivery, 0, len(rows))
	for _, r := range rows {
		out = append(out, deliveryFromRow(r))
	}
	return out, int(total), nil
}

// TestWebhook sends a signed test event (kind webhook.test) to the webhook now, whether or not it
// is active, and answers the Delivery with the receiver's answer. A failed test is not retried.
func (s *Service) TestWebhook(ctx context.Context, id string) (*WebhookDelivery, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	wh, err := s.q.GetWebhook(ctx, store.GetWebhookParams{ID: id, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Webhook", "app: test webhook")
	}
	eventID, err := newUUID()
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]any{"type": EventTest, "data": map[string]any{
		"webhookId": wh.ID, "organizationId": wh.OrganizationID, "message": "This is a test event from Crier.",
		"createdAt": s.now().UTC().Format(time.RFC3339Nano)}})
	if err != nil {
		return nil, fmt.Errorf("app: test webhook: %w", err)
	}
	var d store.WebhookDelivery
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		var err error
		d, err = s.q.WithTx(tx).CreateDelivery(ctx, store.CreateDeliveryParams{OrganizationID: wh.OrganizationID, WebhookID: wh.ID,
			EventID: eventID, Event: EventTest, Payload: body})
		if err != nil {
			return fmt.Errorf("app: test webhook: %w", err)
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.tested", TargetType: "webhook", TargetID: wh.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.attemptNow(ctx, wh, d)
}

// ResendWebhookDelivery sends one delivery again now, as a new attempt of the same delivery (same
// webhook-id, so receivers can deduplicate), and answers it. A failed resend of a delivery still in
// its retry schedule leaves the schedule as it was; a failed resend of a finished one stays FAILED.
func (s *Service) ResendWebhookDelivery(ctx context.Context, webhookID, deliveryID string) (*WebhookDelivery, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageWebhooks)
	if err != nil {
		return nil, err
	}
	wh, err := s.q.GetWebhook(ctx, store.GetWebhookParams{ID: webhookID, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Webhook", "app: resend delivery")
	}
	d, err := s.q.GetWebhookDelivery(ctx, store.GetWebhookDeliveryParams{ID: deliveryID, WebhookID: wh.ID, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Delivery", "app: resend delivery")
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "webhook.delivery_resent", TargetType: "webhook", TargetID: wh.ID,
			Metadata: map[string]any{"deliveryId": d.ID}}))
	})
	if err != nil {
		return nil, err
	}
	return s.attemptNow(ctx, wh, d)
}

func (s *Service) webhookFromRow(h *webhookRuntime, r store.Webhook) (*Webhook, error) {
	secret, err := h.box.open(r.OrganizationID, r.SecretEnc)
	if err != nil {
		return nil, err
	}
	events := r.Events
	if events == nil {
		events = []string{}
	}
	return &Webhook{ID: r.ID, URL: r.Url, Events: events, Active: r.Active, Secret: secret, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}, nil
}

func deliveryFromRow(r store.WebhookDelivery) WebhookDelivery {
	payload := map[string]any{}
	_ = json.Unmarshal(r.Payload, &payload)
	d := WebhookDelivery{ID: r.ID, WebhookID: r.WebhookID, Event: r.Event, EventID: r.EventID, Attempt: int(r.Attempt), Status: r.Status,
		ResponseBody: r.ResponseBody, NextAttemptAt: r.NextAttemptAt, CreatedAt: r.CreatedAt, Payload: payload}
	if r.ResponseCode.Valid {
		c := int(r.ResponseCode.Int32)
		d.ResponseCode = &c
	}
	if r.DurationMs.Valid {
		ms := int(r.DurationMs.Int32)
		d.DurationMs = &ms
	}
	return d
}

// newUUID answers a random (version 4) UUID.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("app: uuid: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
