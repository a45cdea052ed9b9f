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
