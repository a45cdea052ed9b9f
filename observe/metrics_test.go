package observe_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/observe"
)

// The middleware labels by route template and the status the error handler wrote, for errors too.
func TestMiddlewareLabelsByRouteAndStatus(t *testing.T) {
	t.Parallel()
	m := observe.New()
	e := echo.New()
	e.Pre(m.Middleware)
	e.GET("/things/:id", func(c echo.Context) error {
		if c.Param("id") == "gone" {
			return echo.NewHTTPError(http.StatusGone, "gone")
		}
		return c.String(http.StatusOK, "ok")
	})
	for _, path := range []string{"/things/1", "/things/2", "/things/gone", "/nowhere/42"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	out := scrape(t, m, "")
	require.Contains(t, out, `crier_http_request_duration_seconds_count{code="200",method="GET",route="/things/:id"} 2`)
	require.Contains(t, out, `crier_http_request_duration_seconds_count{code="410",method="GET",route="/things/:id"} 1`)
	require.Contains(t, out, `crier_http_request_duration_seconds_count{code="404",method="GET",route="unmatched"} 1`)
	require.NotContains(t, out, "nowhere")
}

// River's failed event is a retry unless the job was discarded.
func TestJobOutcomes(t *testing.T) {
	t.Parallel()
	m := observe.New()
	stats := &river.JobStatistics{RunDuration: 20 * time.Millisecond}
	for _, e := range []*river.Event{
		{Kind: river.EventKindJobCompleted, Job: &rivertype.JobRow{Kind: "a", State: rivertype.JobStateCompleted}, JobStats: stats},
		{Kind: river.EventKindJobFailed, Job: &rivertype.JobRow{Kind: "a", State: rivertype.JobStateRetryable}, JobStats: stats},
		{Kind: river.EventKindJobFailed, Job: &rivertype.JobRow{Kind: "a", State: rivertype.JobStateDiscarded}, JobStats: stats},
		{Kind: river.EventKindJobSnoozed, Job: &rivertype.JobRow{Kind: "b", State: rivertype.JobStateScheduled}, JobStats: stats},
	} {
		observe.JobEvent(m, e)
	}
	out := scrape(t, m, "")
	for _, want := range []string{`kind="a",outcome="completed"} 1`, `kind="a",outcome="retryable"} 1`, `kind="a",outcome="discarded"} 1`, `kind="b",outcome="snoozed"} 1`} {
		require.Contains(t, out, "crier_river_jobs_total{"+want)
	}
	require.Contains(t, out, `crier_river_job_duration_seconds_sum{kind="a",outcome="completed"} 0.02`)

	var obs app.Observer = m
	obs.PublishSettled(app.Mastodon, app.PostRetrying, time.Second)
	obs.WebhookAttempted(app.DeliveryFailed, time.Second)
	out = scrape(t, m, "")
	require.Contains(t, out, `crier_publish_outcomes_total{network="MASTODON",status="RETRYING"} 1`)
	require.Contains(t, out, `crier_webhook_deliveries_total{status="FAILED"} 1`)
	problems, err := testutil.GatherAndLint(m.Registry) // names, units and help follow Prometheus' conventions
	require.NoError(t, err)
	require.Empty(t, problems)
}

// With a token, /metrics answers 401 to anything but the exact bearer token.
func TestHandlerToken(t *testing.T) {
	t.Parallel()
	m := observe.New()
	h := m.Handler("s3cret-token-0123")
	for _, auth := range []string{"", "Bearer nope", "s3cret-token-0123", "Bearer s3cret-token-01234"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.Header.Set("Authorization", auth)
		h.ServeHTTP(rec, req)
		require.Equal(t, http.StatusUnauthorized, rec.Code, auth)
	}
	require.Contains(t, scrape(t, m, "s3cret-token-0123"), "go_goroutines")
}

func scrape(t *testing.T, m *observe.Metrics, token string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	m.Handler(token).ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	return rec.Body.String()
}
