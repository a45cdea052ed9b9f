package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
)

// Signature headers. x-signature is hex HMAC-SHA256 of the raw body keyed with the secret string as
// shown (what bundle.social's SDK constructEvent checks); the webhook-* headers are Standard Webhooks
// (https://www.standardwebhooks.com): webhook-signature is "v1,<base64 HMAC-SHA256 of
// id.timestamp.body>" keyed with the base64-decoded part of the secret after "whsec_", one entry per
// signing secret, space-separated. During a rotation's grace period x-signature-previous carries the
// x-signature of the previous secret, and webhook-signature has both entries.
const (
	HeaderSignature         = "x-signature"
	HeaderSignaturePrevious = "x-signature-previous"
	HeaderWebhookID         = "webhook-id"
	HeaderWebhookTimestamp  = "webhook-timestamp"
	HeaderWebhookSignature  = "webhook-signature"
)

// Retry schedule of a delivery: WebhookMaxAttempts attempts in all. After failed attempt n (1-based)
// the next one waits min(30 s × 3^(n-1), 6 h), ±20 % jitter: 30 s, 1.5 min, 4.5 min, 13.5 min,
// 40.5 min, ≈2 h, 6 h, 6 h, 6 h — about 21 hours from the first attempt to the tenth (between about
// 17 and 25 with jitter). A delivery whose tenth attempt fails is FAILED.
const (
	WebhookMaxAttempts    = 10
	webhookRetryBase      = 30 * time.Second
	webhookRetryCap       = 6 * time.Hour
	webhookRetryJitter    = 0.2
	webhookResponseMax    = 4096 // bytes of the receiver's answer kept
	webhookUserAgent      = "Crier-Webhooks/1"
	webhookBusySnoozeBase = time.Second
)

// WebhookRetryDelay is the nominal wait after failed attempt n (1-based), without jitter.
func WebhookRetryDelay(attempt int) time.Duration {
	d := webhookRetryBase
	for i := 1; i < attempt && d < webhookRetryCap; i++ {
		d *= 3
	}
	return min(d, webhookRetryCap)
}

// WebhookRetryAt is when a delivery failed at attempt n (started at attemptedAt) is tried again:
// the delay with a jitter drawn from the delivery id and attempt, so the delivery job (recording
// nextAttemptAt) and River's retry policy compute the same instant.
func WebhookRetryAt(deliveryID string, attempt int, attemptedAt time.Time) time.Time {
	sum := sha256.Sum256([]byte(deliveryID + "/" + strconv.Itoa(attempt)))
	frac := float64(binary.BigEndian.Uint64(sum[:8])) / float64(^uint64(0)) // [0, 1]
	d := WebhookRetryDelay(attempt)
	jitter := time.Duration((frac*2 - 1) * webhookRetryJitter * float64(d))
	return attemptedAt.Add(d + jitter).UTC().Truncate(time.Millisecond)
}

func (s *Service) enqueueDelivery(ctx context.Context, tx pgx.Tx, deliveryID string) error {
	if _, err := s.jobs.InsertTx(ctx, tx, DeliverWebhookArgs{DeliveryID: deliveryID}, nil); err != nil {
		return fmt.Errorf("app: enqueue delivery: %w", err)
	}
	return nil
}

// ErrEndpointBusy: the endpoint already has its share of deliveries in flight; try again shortly
// (the job snoozes, which frees its worker and does not count as an attempt).
var ErrEndpointBusy = errors.New("app: webhook endpoint busy")

// DeliveryFailedError is a failed attempt; Final when no attempt remains (the delivery is FAILED).
type DeliveryFailedError struct {
	Final  bool
	Reason string
}

func (e *DeliveryFailedError) Error() string {
	if e.Final {
		return "app: webhook delivery failed for good: " + e.Reason
	}
	return "app: webhook delivery attempt failed: " + e.Reason
}

// WebhookBusySnooze is how long a delivery waits for a busy endpoint (1–2 s).
func WebhookBusySnooze() time.Duration {
	return webhookBusySnoozeBase + rand.N(webhookBusySnoozeBase)
}

// DeliverWebhook makes attempt (1-based, of maxAttempts) of a delivery; the River job calls it.
// It answers nil on success or when there is nothing to do (delivery gone or already final),
// ErrEndpointBusy, or a *DeliveryFailedError after recording the failure and the next attempt's time.
func (s *Service) DeliverWebhook(ctx context.Context, deliveryID string, attempt, maxAttempts int, attemptedAt time.Time) error {
	h := s.hooks
	d, err := s.q.GetDelivery(ctx, deliveryID)
	if err != nil {
		if ErrorCode(NotFoundOr(err, "Delivery", "")) == ENotFound {
			return nil // the webhook was deleted with its deliveries
		}
		return fmt.Errorf("app: deliver webhook: %w", err)
	}
	if d.Status != DeliveryPending {
		return nil // resent successfully meanwhile, or ended
	}
	wh, err := s.q.GetWebhook(ctx, store.GetWebhookParams{ID: d.WebhookID, OrganizationID: d.OrganizationID})
	if err != nil {
		return NotFoundOr(err, "Webhook", "app: deliver webhook")
	}
	if !wh.Active {
		reason := "The webhook is inactive; the delivery was not sent."
		if _, err := s.q.FailDelivery(ctx, store.FailDeliveryParams{ID: d.ID, Reason: &reason, At: s.now().UTC()}); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("app: deliver webhook: %w", err)
		}
		return nil
	}
	key := endpointKey(wh.Url)
	if !h.limiter.tryAcquire(key) {
		return ErrEndpointBusy
	}
	res := s.send(ctx, h, wh, d)
	h.limiter.release(key)

	rec := store.RecordDeliveryAttemptParams{ID: d.ID, At: s.now().UTC(), ResponseBody: res.body,
		DurationMs: pgtype.Int4{Int32: int32(res.duration.Milliseconds()), Valid: true}}
	if res.code != 0 {
		rec.ResponseCode = pgtype.Int4{Int32: int32(res.code), Valid: true}
	}
	var outcome error
	switch {
	case res.ok:
		rec.Status = DeliverySuccess
	case attempt >= maxAttempts:
		rec.Status = DeliveryFailed
		outcome = &DeliveryFailedError{Final: true, Reason: res.reason()}
	default:
		rec.Status = DeliveryPending
		next := WebhookRetryAt(d.ID, attempt, attemptedAt)
		rec.NextAttemptAt = &next
		outcome = &DeliveryFailedError{Reason: res.reason()}
	}
	if err := s.recordAttempt(ctx, wh.ID, rec, res.ok); err != nil {
		return err
	}
	return outcome
}

// attemptNow makes one attempt of d at once, waiting for the endpoint's share if needed (test and
// resend). keepSchedule: a failure leaves a PENDING delivery in its retry schedule.
func (s *Service) attemptNow(ctx context.Context, wh store.Webhook, d store.WebhookDelivery) (*WebhookDelivery, error) {
	h := s.hooks
	key := endpointKey(wh.Url)
	if err := h.limiter.acquire(ctx, key); err != nil {
		return nil, err
	}
	res := s.send(ctx, h, wh, d)
	h.limiter.release(key)

	rec := store.RecordDeliveryAttemptParams{ID: d.ID, At: s.now().UTC(), ResponseBody: res.body,
		DurationMs: pgtype.Int4{Int32: int32(res.duration.Milliseconds()), Valid: true}}
	if res.code != 0 {
		rec.ResponseCode = pgtype.Int4{Int32: int32(res.code), Valid: true}
	}
	keepSchedule := d.Status == DeliveryPending && d.Event != EventTest
	switch {
	case res.ok:
		rec.Status = DeliverySuccess
	case keepSchedule:
		rec.Status, rec.NextAttemptAt = DeliveryPending, d.NextAttemptAt
	default:
		rec.Status = DeliveryFailed
	}
	if err := s.recordAttempt(ctx, wh.ID, rec, res.ok); err != nil {
		return nil, err
	}
	row, err := s.q.GetDelivery(ctx, d.ID)
	if err != nil {
		return nil, NotFoundOr(err, "Delivery", "app: webhook attempt")
	}
	out := deliveryFromRow(row)
	return &out, nil
}

// recordAttempt stores an attempt's outcome and the webhook's failure streak together.
func (s *Service) recordAttempt(ctx context.Context, webhookID string, rec store.RecordDeliveryAttemptParams, ok bool) error {
	defer s.obs.WebhookAttempted(rec.Status, time.Duration(rec.DurationMs.Int32)*time.Millisecond)
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if _, err := q.RecordDeliveryAttempt(ctx, rec); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return nil // deleted meanwhile
			}
			return fmt.Errorf("app: record delivery: %w", err)
		}
		var err error
		if ok {
			err = q.MarkWebhookSucceeded(ctx, webhookID)
		} else {
			err = q.MarkWebhookFailing(ctx, store.MarkWebhookFailingParams{ID: webhookID, At: rec.At})
		}
		if err != nil {
			return fmt.Errorf("app: record delivery: %w", err)
		}
		return nil
	})
}

// sendResult is what one attempt got.
type sendResult struct {
	ok       bool
	code     int     // 0: no HTTP answer
	body     *string // the answer (truncated), or what went wrong
	duration time.Duration
}

func (r sendResult) reason() string {
	if r.code != 0 {
		return "HTTP " + strconv.Itoa(r.code)
	}
	if r.body != nil {
		return *r.body
	}
	return "no answer"
}

// send POSTs the delivery's payload, signed, to the webhook. 2xx is success; redirects are not
// followed (a 3xx is a failure); the connection goes only where netguard allows.
func (s *Service) send(ctx context.Context, h *webhookRuntime, wh store.Webhook, d store.WebhookDelivery) sendResult {
	fail := func(msg string, dur time.Duration) sendResult {
		msg = cleanText(msg)
		return sendResult{body: &msg, duration: dur}
	}
	if msg := checkWebhookURL(wh.Url, h.opts); msg != "" {
		return fail(msg, 0)
	}
	secrets, err := s.signingSecrets(h, wh)
	if err != nil {
		s.log.ErrorContext(ctx, "webhook secrets", "webhook", wh.ID, "err", err)
		return fail("Crier could not sign this delivery (internal error).", 0)
	}
	body := d.Payload
	now := s.now().UTC()
	ctx, cancel := context.WithTimeout(ctx, WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, wh.Url, bytes.NewReader(body))
	if err != nil {
		return fail("Invalid url", 0)
	}
	for k, v := range SignWebhook(secrets, d.EventID, now, body) {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", webhookUserAgent)
	start := time.Now()
	res, err := h.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fail("error: "+err.Error(), time.Since(start))
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, webhookResponseMax))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // let the connection be reused
	text := cleanText(string(b))
	return sendResult{ok: res.StatusCode >= 200 && res.StatusCode <= 299, code: res.StatusCode, body: &text, duration: time.Since(start)}
}

// signingSecrets answers the current secret, then the previous one while its grace lasts.
func (s *Service) signingSecrets(h *webhookRuntime, wh store.Webhook) ([]string, error) {
	cur, err := h.box.open(wh.OrganizationID, wh.SecretEnc)
	if err != nil {
		return nil, err
	}
	out := []string{cur}
	if wh.PreviousSecretEnc != nil && wh.PreviousSecretUntil != nil && s.now().Before(*wh.PreviousSecretUntil) {
		prev, err := h.box.open(wh.OrganizationID, wh.PreviousSecretEnc)
		if err != nil {
			return nil, err
		}
		out = append(out, prev)
	}
	return out, nil
}

// SignWebhook answers the signature headers of body sent as message msgID at ts, signed with each
// of secrets (the current one first). See the Header constants for the scheme.
func SignWebhook(secrets []string, msgID string, ts time.Time, body []byte) http.Header {
	h := http.Header{}
	unix := strconv.FormatInt(ts.Unix(), 10)
	var sigs []string
	for i, secret := range secrets {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(body)
		hexSig := hex.EncodeToString(mac.Sum(nil))
		switch i {
		case 0:
			h.Set(HeaderSignature, hexSig)
		case 1:
			h.Set(HeaderSignaturePrevious, hexSig)
		}
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, webhookSecretPrefix))
		if err != nil {
			continue
		}
		mac = hmac.New(sha256.New, key)
		mac.Write([]byte(msgID + "." + unix + "."))
		mac.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	h.Set(HeaderWebhookID, msgID)
	h.Set(HeaderWebhookTimestamp, unix)
	h.Set(HeaderWebhookSignature, strings.Join(sigs, " "))
	return h
}

// cleanText makes a receiver's answer storable: valid UTF-8, no NUL, at most webhookResponseMax bytes.
func cleanText(s string) string {
	if len(s) > webhookResponseMax {
		s = s[:webhookResponseMax]
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, string(utf8.RuneError)), "\x00", "")
}

// endpointKey groups deliveries by receiver: scheme, host and port.
func endpointKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// endpointLimiter bounds the deliveries in flight per endpoint, so one slow receiver holds up only
// its own deliveries (and at most that many of the webhooks queue's workers).
type endpointLimiter struct {
	mu   sync.Mutex
	max  int
	busy map[string]int
}

func newEndpointLimiter(max int) *endpointLimiter {
	return &endpointLimiter{max: max, busy: map[string]int{}}
}

func (l *endpointLimiter) tryAcquire(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.busy[key] >= l.max {
		return false
	}
	l.busy[key]++
	return true
}

func (l *endpointLimiter) acquire(ctx context.Context, key string) error {
	for !l.tryAcquire(key) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

func (l *endpointLimiter) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.busy[key]--; l.busy[key] <= 0 {
		delete(l.busy, key)
	}
}
