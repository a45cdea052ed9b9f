package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
	"github.com/crier/crier/store"
)

// hookRequest is one request a receiver got, and what it answered.
type hookRequest struct {
	header http.Header
	body   []byte
	status int
}

// receiver is a real HTTP endpoint on loopback that records what Crier sends; down makes it
// answer 503.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []hookRequest
	down atomic.Bool
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		status := http.StatusOK
		if r.down.Load() {
			status = http.StatusServiceUnavailable
		}
		r.mu.Lock()
		r.got = append(r.got, hookRequest{header: req.Header.Clone(), body: b, status: status})
		r.mu.Unlock()
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"received":true}`))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []hookRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hookRequest(nil), r.got...)
}

// delivered answers the successful requests of an event type.
func (r *receiver) delivered(kind string) []hookRequest {
	var out []hookRequest
	for _, h := range r.requests() {
		var body struct{ Type string }
		if h.status == http.StatusOK && json.Unmarshal(h.body, &body) == nil && body.Type == kind {
			out = append(out, h)
		}
	}
	return out
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

type webhookAnswer struct {
	ID        string   `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	Active    bool     `json:"active"`
	Secret    string   `json:"secret"`
	CreatedAt string   `json:"createdAt"`
	UpdatedAt string   `json:"updatedAt"`
}

type deliveryAnswer struct {
	ID            string         `json:"id"`
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

func createWebhook(t *testing.T, srv *servertest.Server, key, url string, events ...string) webhookAnswer {
	t.Helper()
	ev, _ := json.Marshal(events)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook", `{"url":"`+url+`","events":`+string(ev)+`}`, "x-api-key", key)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var w webhookAnswer
	require.NoError(t, json.Unmarshal(b, &w))
	return w
}

func listDeliveries(t *testing.T, srv *servertest.Server, key, webhookID, query string) ([]deliveryAnswer, int) {
	t.Helper()
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+webhookID+"/deliveries"+query, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var list struct {
		Items []deliveryAnswer `json:"items"`
		Total int              `json:"total"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	return list.Items, list.Total
}

func organizationID(t *testing.T, srv *servertest.Server, key string) string {
	t.Helper()
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var org struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &org))
	require.NotEmpty(t, org.ID)
	return org.ID
}

// emit writes an event as a capability would: in a transaction, through Service.Emit.
func emit(t *testing.T, srv *servertest.Server, orgID, kind string, payload any) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, store.InTx(ctx, srv.Pool, func(tx pgx.Tx) error { return srv.Service.Emit(ctx, tx, orgID, kind, payload) }))
}

// xSignatureOK checks x-signature the way bundle.social's SDK does: hex HMAC-SHA256 of the raw body
// keyed with the secret string.
func xSignatureOK(secret string, body []byte, sig string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(sig))
}

// standardOK verifies the Standard Webhooks headers with the published library, not Crier's code.
func standardOK(t *testing.T, secret string, h hookRequest, ignoreTimestamp bool) bool {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	if ignoreTimestamp {
		return wh.VerifyIgnoringTimestamp(h.body, h.header) == nil
	}
	return wh.Verify(h.body, h.header) == nil
}

// retryWebhookJobs waits until want delivery jobs wait for their next attempt, then makes them due
// now — the test's way of letting the retry schedule's time pass.
func retryWebhookJobs(t *testing.T, srv *servertest.Server, want int) {
	t.Helper()
	ctx := context.Background()
	var jobs []*rivertype.JobRow
	eventually(t, "retryable delivery jobs", func() bool {
		res, err := srv.River.JobList(ctx, river.NewJobListParams().Kinds(app.DeliverWebhookArgs{}.Kind()).States(rivertype.JobStateRetryable).First(1000))
		require.NoError(t, err)
		jobs = res.Jobs
		return len(jobs) >= want
	})
	require.Len(t, jobs, want)
	for _, j := range jobs {
		_, err := srv.River.JobRetry(ctx, j.ID)
		require.NoError(t, err)
	}
}

// Events of every kind that exists now reach a real receiver, signed so that bundle.social's scheme
// (x-signature) and, independently, the Standard Webhooks library verify them; the body is
// {type, data} with data the API's record.
func TestWebhookDeliveriesAreSignedAndVerifiable(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	hook := createWebhook(t, srv, key, rcv.URL+"/hooks", "team.created", "team.updated", "team.deleted", "social-account.created", "post.published")
	require.True(t, strings.HasPrefix(hook.Secret, "whsec_"), hook.Secret)
	require.True(t, hook.Active)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Launch"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var team struct{ ID, Name string }
	require.NoError(t, json.Unmarshal(b, &team))
	res, _ = do(t, http.MethodPatch, srv.URL+"/api/v1/team/"+team.ID, `{"name":"Relaunch"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/team/"+team.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	// Kinds whose emitters arrive with later capabilities go through the same Emit.
	orgID := organizationID(t, srv, key)
	emit(t, srv, orgID, app.EventSocialAccountCreated, map[string]any{"id": "acc-1", "type": "BLUESKY", "teamId": team.ID})
	emit(t, srv, orgID, app.EventPostPublished, map[string]any{"id": "post-1", "status": "POSTED", "teamId": team.ID})
	// A kind the webhook does not subscribe to is not delivered.
	emit(t, srv, orgID, app.EventCommentReceived, map[string]any{"id": "c-1"})
	// An event of a change that rolls back is never sent: the event and its fan-out job go together.
	ctx := context.Background()
	tx, err := srv.Pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, srv.Service.Emit(ctx, tx, orgID, app.EventTeamCreated, map[string]any{"id": "rolled-back"}))
	require.NoError(t, tx.Rollback(ctx))

	kinds := []string{"team.created", "team.updated", "team.deleted", "social-account.created", "post.published"}
	eventually(t, "five deliveries", func() bool { return len(rcv.requests()) >= 5 })
	for _, kind := range kinds {
		got := rcv.delivered(kind)
		require.Len(t, got, 1, kind)
		h := got[0]
		require.True(t, xSignatureOK(hook.Secret, h.body, h.header.Get("x-signature")), kind)
		require.True(t, standardOK(t, hook.Secret, h, false), kind)
		require.Empty(t, h.header.Get("x-signature-previous"))
		require.Equal(t, "application/json", h.header.Get("Content-Type"))
		require.NotEmpty(t, h.header.Get("webhook-id"))
		// A tampered body fails both.
		bad := hookRequest{header: h.header, body: append([]byte(" "), h.body...)}
		require.False(t, xSignatureOK(hook.Secret, bad.body, h.header.Get("x-signature")))
		require.False(t, standardOK(t, hook.Secret, bad, false))
		var body map[string]any
		require.NoError(t, json.Unmarshal(h.body, &body))
		require.Len(t, body, 2, "body is {type, data}")
		require.Equal(t, kind, body["type"])
	}
	var created struct {
		Type string
		Data map[string]any
	}
	require.NoError(t, json.Unmarshal(rcv.delivered("team.created")[0].body, &created))
	require.Equal(t, team.ID, created.Data["id"])
	require.Equal(t, "Launch", created.Data["name"])
	for _, f := range []string{"organizationId", "createdAt", "updatedAt"} {
		require.Contains(t, created.Data, f)
	}

	time.Sleep(200 * time.Millisecond) // the unsubscribed and rolled-back events had their chance
	require.Len(t, rcv.requests(), 5)
	require.Len(t, rcv.delivered("team.created"), 1)
	items, total := listDeliveries(t, srv, key, hook.ID, "?status=SUCCESS")
	require.Equal(t, 5, total)
	for _, d := range items {
		require.Equal(t, "SUCCESS", d.Status)
		require.Equal(t, 1, d.Attempt)
		require.Equal(t, 200, *d.ResponseCode)
		require.Equal(t, `{"received":true}`, *d.ResponseBody)
		require.NotNil(t, d.DurationMs)
		require.Nil(t, d.NextAttemptAt)
		require.NotEmpty(t, d.EventID)
		require.Contains(t, kinds, d.Event)
		require.Equal(t, d.Event, d.Payload["type"])
	}
	_, total = listDeliveries(t, srv, key, hook.ID, "?status=FAILED")
	require.Zero(t, total)
	page, total := listDeliveries(t, srv, key, hook.ID, "?offset=1&limit=2")
	require.Equal(t, 5, total)
	require.Len(t, page, 2)
	require.Equal(t, items[1].ID, page[0].ID, "newest first, offset applies")
}

// With the receiver down, deliveries are kept PENDING on the retry schedule; once it is back, every
// event is delivered exactly once. Time passes through River's scheduling (the retryable jobs are
// made due), not by sleeping. A receiver down for good ends the delivery FAILED after 10 attempts.
func TestWebhookReceiverDownThenBack(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	rcv.down.Store(true)
	hook := createWebhook(t, srv, key, rcv.URL, "team.created", "team.updated")

	var teamID string
	for _, name := range []string{"One", "Two", "Three"} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"`+name+`"}`, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var team struct{ ID string }
		require.NoError(t, json.Unmarshal(b, &team))
		teamID = team.ID
	}
	eventually(t, "three failed first attempts", func() bool {
		items, _ := listDeliveries(t, srv, key, hook.ID, "?status=PENDING")
		n := 0
		for _, d := range items {
			if d.Attempt == 1 && d.NextAttemptAt != nil {
				n++
			}
		}
		return n == 3
	})
	items, _ := listDeliveries(t, srv, key, hook.ID, "")
	for _, d := range items {
		require.Equal(t, 503, *d.ResponseCode)
		wait := time.Until(*d.NextAttemptAt)
		require.Greater(t, wait, 20*time.Second, "first retry ≈ 30 s ± 20 %%")
		require.Less(t, wait, 37*time.Second)
	}

	// Down for a stretch: two more rounds of retries fail.
	for round := 2; round <= 3; round++ {
		retryWebhookJobs(t, srv, 3)
		eventually(t, "another failed round", func() bool {
			items, _ := listDeliveries(t, srv, key, hook.ID, "?status=PENDING")
			n := 0
			for _, d := range items {
				if d.Attempt == round {
					n++
				}
			}
			return n == 3
		})
	}
	require.Empty(t, rcv.delivered("team.created"))

	rcv.down.Store(false)
	retryWebhookJobs(t, srv, 3)
	eventually(t, "all delivered", func() bool {
		_, n := listDeliveries(t, srv, key, hook.ID, "?status=SUCCESS")
		return n == 3
	})
	got := rcv.delivered("team.created")
	require.Len(t, got, 3)
	ids := map[string]bool{}
	for _, h := range got {
		ids[h.header.Get("webhook-id")] = true
		require.True(t, standardOK(t, hook.Secret, h, false))
	}
	require.Len(t, ids, 3, "each event once")
	items, _ = listDeliveries(t, srv, key, hook.ID, "")
	for _, d := range items {
		require.Equal(t, 4, d.Attempt)
		require.Nil(t, d.NextAttemptAt)
	}
	time.Sleep(200 * time.Millisecond)
	require.Len(t, rcv.delivered("team.created"), 3, "nothing delivered twice")

	// Down for good: the schedule runs out after 10 attempts and the delivery is FAILED.
	rcv.down.Store(true)
	res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/team/"+teamID, `{"name":"Renamed"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var last deliveryAnswer
	for attempt := 1; attempt <= app.WebhookMaxAttempts; attempt++ {
		eventually(t, "attempt", func() bool {
			items, _ := listDeliveries(t, srv, key, hook.ID, "?limit=1")
			last = items[0]
			return last.Attempt == attempt
		})
		if attempt < app.WebhookMaxAttempts {
			require.Equal(t, "PENDING", last.Status)
			d := app.WebhookRetryDelay(attempt)
			wait := time.Until(*last.NextAttemptAt)
			require.Greater(t, wait, time.Duration(float64(d)*0.8)-2*time.Second, "attempt %d", attempt)
			require.Less(t, wait, time.Duration(float64(d)*1.2)+time.Second, "attempt %d", attempt)
			retryWebhookJobs(t, srv, 1)
		}
	}
	eventually(t, "FAILED", func() bool {
		items, _ := listDeliveries(t, srv, key, hook.ID, "?limit=1")
		last = items[0]
		return last.Status == "FAILED"
	})
	require.Nil(t, last.NextAttemptAt)
	_, failed := listDeliveries(t, srv, key, hook.ID, "?status=FAILED")
	require.Equal(t, 1, failed)

	// Resend: a new attempt of the same delivery (same webhook-id), answered with the result.
	rcv.down.Store(false)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/deliveries/"+last.ID+"/resend", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var resent deliveryAnswer
	require.NoError(t, json.Unmarshal(b, &resent))
	require.Equal(t, last.ID, resent.ID)
	require.Equal(t, "SUCCESS", resent.Status)
	require.Equal(t, app.WebhookMaxAttempts+1, resent.Attempt)
	require.Equal(t, 200, *resent.ResponseCode)
	got = rcv.delivered("team.updated")
	require.Len(t, got, 1)
	require.Equal(t, last.EventID, got[0].header.Get("webhook-id"))
}

// The schedule itself: exponential from 30 s, capped at 6 h, about 21 h in all; jitter stays
// within 20 % and is the same whoever computes it.
func TestWebhookRetrySchedule(t *testing.T) {
	t.Parallel()
	var total time.Duration
	want := []time.Duration{30 * time.Second, 90 * time.Second, 270 * time.Second, 810 * time.Second, 2430 * time.Second,
		7290 * time.Second, 6 * time.Hour, 6 * time.Hour, 6 * time.Hour}
	for i, d := range want {
		require.Equal(t, d, app.WebhookRetryDelay(i+1))
		total += d
	}
	require.InDelta(t, 21, total.Hours(), 0.1)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for attempt := 1; attempt < app.WebhookMaxAttempts; attempt++ {
		next := app.WebhookRetryAt("d-1", attempt, at)
		require.Equal(t, next, app.WebhookRetryAt("d-1", attempt, at))
		d := next.Sub(at)
		require.GreaterOrEqual(t, d, time.Duration(float64(app.WebhookRetryDelay(attempt))*0.8)-time.Millisecond)
		require.LessOrEqual(t, d, time.Duration(float64(app.WebhookRetryDelay(attempt))*1.2))
	}
}

// After rotate-secret both secrets verify for 24 hours (Standard Webhooks lists two signatures;
// x-signature-previous carries the old x-signature); after the grace only the new one does.
func TestWebhookSecretRotationGrace(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	hook := createWebhook(t, srv, key, rcv.URL, "team.created")
	old := hook.Secret

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/rotate-secret", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var rotated webhookAnswer
	require.NoError(t, json.Unmarshal(b, &rotated))
	require.NotEqual(t, old, rotated.Secret)
	require.True(t, strings.HasPrefix(rotated.Secret, "whsec_"))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/webhook/"+hook.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), rotated.Secret)

	send := func() hookRequest {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/test", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		got := rcv.delivered(app.EventTest)
		return got[len(got)-1]
	}

	// Inside the grace window (an hour later on the service clock): both verify.
	srv.Clock.Set(func() time.Time { return time.Now().Add(time.Hour) })
	h := send()
	require.True(t, standardOK(t, rotated.Secret, h, true))
	require.True(t, standardOK(t, old, h, true))
	require.Len(t, strings.Fields(h.header.Get("webhook-signature")), 2)
	require.True(t, xSignatureOK(rotated.Secret, h.body, h.header.Get("x-signature")))
	require.True(t, xSignatureOK(old, h.body, h.header.Get("x-signature-previous")))

	// After 24 hours only the new secret signs.
	srv.Clock.Set(func() time.Time { return time.Now().Add(25 * time.Hour) })
	h = send()
	require.True(t, standardOK(t, rotated.Secret, h, true))
	require.False(t, standardOK(t, old, h, true))
	require.Len(t, strings.Fields(h.header.Get("webhook-signature")), 1)
	require.True(t, xSignatureOK(rotated.Secret, h.body, h.header.Get("x-signature")))
	require.Empty(t, h.header.Get("x-signature-previous"))
	srv.Clock.Set(time.Now)
}

// Without ALLOW_PRIVATE_URLS, private, loopback, link-local and metadata addresses are refused: at
// creation when the URL names one, and on the connected address when a name resolves to one.
func TestWebhookRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"ALLOW_PRIVATE_URLS": "0"}})
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	for _, url := range []string{rcv.URL, "http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data/", "http://[::1]:8080/",
		"http://192.168.1.10/", "ftp://example.com/hook", "http://user:pw@example.com/"} {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook", `{"url":"`+url+`","events":["team.created"]}`, "x-api-key", key)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, url+": "+string(b))
		e := decodeError(t, b)
		require.Equal(t, "invalid_string", e.Issues[0].Code, url)
		require.Equal(t, []any{"url"}, e.Issues[0].Path, url)
	}
	// A name that resolves to loopback passes the form check and is refused when connecting.
	port := rcv.URL[strings.LastIndex(rcv.URL, ":")+1:]
	hook := createWebhook(t, srv, key, "http://localhost:"+port+"/hook", "team.created")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook/"+hook.ID+"/test", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var d deliveryAnswer
	require.NoError(t, json.Unmarshal(b, &d))
	require.Equal(t, "FAILED", d.Status)
	require.Nil(t, d.ResponseCode)
	require.Contains(t, *d.ResponseBody, "private, loopback or link-local")
	require.Empty(t, rcv.requests())
}

// In production, webhooks must use https.
func TestWebhookRequiresHTTPSInProduction(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"CRIER_ENV": "production", "CRIER_SECRET": strings.Repeat("s", 40)}})
	key := apiKeyFor(t, srv)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook", `{"url":"http://example.com/hook","events":["team.created"]}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Issues[0].Message, "https")
	createWebhook(t, srv, key, "https://example.com/hook", "team.created")
}

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
	ms, err := srv.Service.DevMailbox(ctx, 100)
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
