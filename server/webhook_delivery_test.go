package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

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
