package server_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server"
	"github.com/crier/crier/server/servertest"
)

// freeAddr is a loopback address nothing listens on (yet).
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// Liveness answers without the database; readiness checks it is reachable and fully migrated.
// Without METRICS_ADDR there are no metrics, and no admin pages without CRIER_ADMIN_EMAILS.
func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true})
	for _, path := range []string{"/healthz", "/readyz"} {
		res, b := do(t, http.MethodGet, srv.URL+path, "")
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.JSONEq(t, `{"status":"ok"}`, string(b))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	}
	// GET /api/v1 (BenchmarkHealth's endpoint) is unchanged.
	res, _ := do(t, http.MethodGet, srv.URL+"/api/v1", "")
	require.Equal(t, http.StatusOK, res.StatusCode)

	require.Nil(t, srv.Metrics)
	for _, path := range []string{"/metrics", "/admin/river", "/admin/debug/pprof"} {
		res, _ := do(t, http.MethodGet, srv.URL+path, "")
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
	}

	// A database behind this build's migrations is not ready (a rolling deploy before migrating).
	_, err := srv.Pool.Exec(context.Background(), `UPDATE schema_version SET version = version - 1`)
	require.NoError(t, err)
	res, b := do(t, http.MethodGet, srv.URL+"/readyz", "")
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	require.Contains(t, string(b), `"status":"unavailable"`)
	require.Contains(t, string(b), "expects")
	res, _ = do(t, http.MethodGet, srv.URL+"/healthz", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// With METRICS_ADDR and METRICS_TOKEN, /metrics is served on its own listener to the token only,
// and after traffic it has the HTTP series by route template, the pool's, River's queues and job
// outcomes, and publish and webhook outcomes per network.
func TestMetrics(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	const token = "metrics-token-0123456789"
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"METRICS_ADDR": addr, "METRICS_TOKEN": token}})
	metricsURL := "http://" + addr + "/metrics"
	eventually(t, "the metrics listener", func() bool { // Run opens it beside the server
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})

	res, _ := do(t, http.MethodGet, metricsURL, "")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res, _ = do(t, http.MethodGet, metricsURL, "", "Authorization", "Bearer wrong")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res, _ = do(t, http.MethodGet, srv.URL+"/metrics", "", "Authorization", "Bearer "+token)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "never on the public listener")
	res, _ = do(t, http.MethodGet, "http://"+addr+"/readyz", "")
	require.Equal(t, http.StatusOK, res.StatusCode, "probes on the metrics listener too (--no-http)")

	// Traffic: a 404 with a unique URL, an API route with a parameter, a publish, a webhook delivery.
	res, _ = do(t, http.MethodGet, srv.URL+"/no-such-page-7d1f", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	key := apiKeyFor(t, srv)
	rcv := newReceiver(t)
	createWebhook(t, srv, key, rcv.URL, "team.created")
	team := newTeam(t, srv, key, "Metrics")
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team/"+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	connectNetwork(t, srv, key, team, "MASTODON")
	_, p, _ := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Seen","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"measured"}}}`)
	waitPost(t, srv, key, p.ID, "POSTED")
	eventually(t, "the webhook delivery", func() bool { return len(rcv.delivered("team.created")) == 1 })

	var text string
	eventually(t, "the series", func() bool {
		res, b := do(t, http.MethodGet, metricsURL, "", "Authorization", "Bearer "+token)
		require.Equal(t, http.StatusOK, res.StatusCode)
		text = string(b)
		return strings.Contains(text, `crier_webhook_deliveries_total{status="SUCCESS"} 1`) &&
			strings.Contains(text, `crier_river_jobs_total{kind="publish_target",outcome="completed"}`)
	})
	for _, want := range []string{
		`crier_http_request_duration_seconds_count{code="200",method="GET",route="/api/v1/team/:id"} 1`,
		`crier_http_request_duration_seconds_count{code="404",method="GET",route="unmatched"} 2`, // and /metrics above,
		`crier_publish_outcomes_total{network="MASTODON",status="POSTED"} 1`,
		`crier_publish_duration_seconds_count{network="MASTODON",status="POSTED"} 1`,
		`crier_webhook_delivery_duration_seconds_count{status="SUCCESS"} 1`,
		`crier_river_job_duration_seconds_count{kind="webhook_deliver",outcome="completed"}`,
		`crier_db_pool_connections{state="max"}`,
		`crier_db_pool_acquires_total`,
		`crier_river_queue_scrape_ok 1`,
		`crier_river_queue_jobs{queue="publish",state="available"} 0`, // done: zero, not missing
		`go_goroutines`,
	} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "no-such-page", "routes are templates, never URLs")
	require.NotContains(t, text, team, "no ids in labels")
}

// Only instance administrators (a verified email in CRIER_ADMIN_EMAILS) see the River UI and, with
// CRIER_PPROF=1, the profiler; everyone else gets a 404. River UI's writes are refused cross-site.
func TestAdminPages(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"CRIER_ADMIN_EMAILS": "Root@Example.com", "CRIER_PPROF": "1"}})
	const password = "correct horse battery"
	admin := signup(t, srv, "root@example.com", password)
	other := signup(t, srv, "someone@example.com", password)
	pages := []string{"/admin/river", "/admin/river/", "/admin/river/api/states", "/admin/debug/pprof/", "/admin/debug/pprof/heap?debug=1"}

	// Not verified yet: not an administrator.
	for _, cookie := range []string{"", admin, other} {
		for _, path := range pages {
			res, _ := do(t, http.MethodGet, srv.URL+path, "", "Cookie", cookie)
			require.Equal(t, http.StatusNotFound, res.StatusCode, path)
			require.Empty(t, res.Header.Get("Location"), path)
		}
	}
	verify := func(email string) {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"`+outboxToken(t, srv, email, "verify_email")+`"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}
	verify("root@example.com")
	verify("someone@example.com")
	for _, path := range pages {
		res, _ := do(t, http.MethodGet, srv.URL+path, "", "Cookie", other)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
		require.Equal(t, server.CSP, res.Header.Get("Content-Security-Policy"), path)
	}

	res, b := do(t, http.MethodGet, srv.URL+"/admin/river", "", "Cookie", admin)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), "<title>River</title>")
	require.Contains(t, string(b), `/admin/river/assets/`)
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "style-src 'self' 'unsafe-inline'", "River UI sets inline styles")
	require.NotContains(t, res.Header.Get("Content-Security-Policy"), "unsafe-eval")
	res, b = do(t, http.MethodGet, srv.URL+"/admin/river/api/states", "", "Cookie", admin)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"available"`)
	res, b = do(t, http.MethodGet, srv.URL+"/admin/debug/pprof/", "", "Cookie", admin)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), "Types of profiles available")
	res, b = do(t, http.MethodGet, srv.URL+"/admin/debug/pprof/goroutine?debug=1", "", "Cookie", admin)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), "goroutine profile")

	// A write from another site (or from a client without Sec-Fetch-Site or token) never reaches River UI.
	body := `{"job_ids":["1"]}`
	res, _ = do(t, http.MethodPost, srv.URL+"/admin/river/api/jobs/retry", body, "Cookie", admin, "Sec-Fetch-Site", "cross-site")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	res, _ = do(t, http.MethodPost, srv.URL+"/admin/river/api/jobs/retry", body, "Cookie", admin)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "missing CSRF token")
	res, b = do(t, http.MethodPost, srv.URL+"/admin/river/api/jobs/retry", body, "Cookie", admin, "Sec-Fetch-Site", "same-origin")
	require.NotEqual(t, http.StatusForbidden, res.StatusCode, string(b))
	require.NotEqual(t, http.StatusNotFound, res.StatusCode, string(b))
}

// Without CRIER_PPROF the profiler is not mounted, even for administrators.
func TestPprofOffByDefault(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_ADMIN_EMAILS": "root@example.com"}})
	admin := signup(t, srv, "root@example.com", "correct horse battery")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"`+outboxToken(t, srv, "root@example.com", "verify_email")+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	res, _ = do(t, http.MethodGet, srv.URL+"/admin/river/", "", "Cookie", admin)
	require.Equal(t, http.StatusOK, res.StatusCode, "River UI works without workers (--no-workers)")
	for _, path := range []string{"/admin/debug/pprof/", "/admin/debug/pprof/heap"} {
		res, _ := do(t, http.MethodGet, srv.URL+path, "", "Cookie", admin)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
	}
}

// BenchmarkHealthWithMetrics is BenchmarkHealth (bench_test.go) with METRICS_ADDR set: run both to
// see the metrics middleware's cost side by side (allocations per request are the steady measure).
func BenchmarkHealthWithMetrics(b *testing.B) {
	srv := servertest.Start(b, servertest.Options{NoWorkers: true, Env: map[string]string{"METRICS_ADDR": freeAddr(b)}})
	require.NotNil(b, srv.Metrics)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1", nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
