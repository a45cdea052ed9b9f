// Package observe is how operators see Crier run: Prometheus metrics (HTTP latency by route, the
// pgx pool, River's queues and job outcomes, publish and webhook outcomes), served by the
// Prometheus client library from a registry of its own. The server wires it (server/ops.go); app
// reports outcomes through app.Observer, which Metrics implements, so app needs no metrics library.
package observe

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/crier/crier/app"
)

// Namespace prefixes every series Crier defines.
const Namespace = "crier"

// Buckets for request and job durations: 5 ms to 30 s (network calls are slow, pages are not).
var durationBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics owns the registry and Crier's collectors.
type Metrics struct {
	Registry *prometheus.Registry

	httpDuration    *prometheus.HistogramVec
	jobs            *prometheus.CounterVec
	jobDuration     *prometheus.HistogramVec
	publish         *prometheus.CounterVec
	publishDuration *prometheus.HistogramVec
	webhooks        *prometheus.CounterVec
	webhookDuration *prometheus.HistogramVec
}

var _ app.Observer = (*Metrics)(nil)

// New builds the registry with the Go runtime and process collectors and Crier's own series.
func New() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "HTTP requests by method, route template (unmatched: no route) and status code.",
			Buckets: durationBuckets,
		}, []string{"method", "route", "code"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "river", Name: "jobs_total",
			Help: "River jobs worked by this process, by kind and outcome (completed, retryable, discarded, cancelled, snoozed).",
		}, []string{"kind", "outcome"}),
		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "river", Name: "job_duration_seconds",
			Help:    "Time River jobs spent in their worker, by kind and outcome.",
			Buckets: durationBuckets,
		}, []string{"kind", "outcome"}),
		publish: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "publish", Name: "outcomes_total",
			Help: "Publish attempts by network and the target's resulting status (POSTED, RETRYING, ERROR, PROCESSING …).",
		}, []string{"network", "status"}),
		publishDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "publish", Name: "duration_seconds",
			Help:    "Publish attempts' duration (network call and outcome), by network and resulting status.",
			Buckets: durationBuckets,
		}, []string{"network", "status"}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "webhook", Name: "deliveries_total",
			Help: "Webhook delivery attempts by resulting status (SUCCESS, PENDING: to be retried, FAILED).",
		}, []string{"status"}),
		webhookDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "webhook", Name: "delivery_duration_seconds",
			Help:    "Webhook delivery attempts' HTTP duration, by resulting status.",
			Buckets: durationBuckets,
		}, []string{"status"}),
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.httpDuration, m.jobs, m.jobDuration, m.publish, m.publishDuration, m.webhooks, m.webhookDuration,
	)
	return m
}

// PublishSettled implements app.Observer.
func (m *Metrics) PublishSettled(n app.Network, status app.PostStatus, took time.Duration) {
	m.publish.WithLabelValues(string(n), string(status)).Inc()
	m.publishDuration.WithLabelValues(string(n), string(status)).Observe(took.Seconds())
}

// WebhookAttempted implements app.Observer.
func (m *Metrics) WebhookAttempted(status string, took time.Duration) {
	m.webhooks.WithLabelValues(status).Inc()
	m.webhookDuration.WithLabelValues(status).Observe(took.Seconds())
}

// Middleware times every request by its route template (c.Path(), never the URL: the label set
// stays bounded) and final status. It is installed with Echo#Pre so it wraps routing, recovery
// and error handling: the error a handler returns is answered here, as echo would, to know its status.
func (m *Metrics) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil && !c.Response().Committed {
			c.Error(err)
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		m.httpDuration.WithLabelValues(c.Request().Method, route, strconv.Itoa(c.Response().Status)).
			Observe(time.Since(start).Seconds())
		return nil
	}
}

// Handler serves the registry in Prometheus' format; with a token, only to `Authorization: Bearer
// <token>` (401 otherwise).
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
