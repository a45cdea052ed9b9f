package observe

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// queueScrapeTimeout bounds the queue depth query: a scrape answers without it rather than hang.
const queueScrapeTimeout = 2 * time.Second

// WatchPool reports the pgx pool's connections and acquire waits at scrape time (pgxpool.Stat).
func (m *Metrics) WatchPool(pool *pgxpool.Pool) {
	m.Registry.MustRegister(&poolCollector{pool: pool})
}

// WatchQueues reports River's unfinished jobs by queue and state at scrape time (one grouped
// count on river_job).
func (m *Metrics) WatchQueues(db store.DBTX, log *slog.Logger) {
	m.Registry.MustRegister(&queueCollector{db: db, log: log})
}

// WatchJobs counts the jobs client works, by kind and outcome, from River's events, until ctx
// ends. Only a client that works queues has events (not the insert-only one of --no-workers).
func (m *Metrics) WatchJobs(ctx context.Context, client *river.Client[pgx.Tx]) {
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed,
		river.EventKindJobCancelled, river.EventKindJobSnoozed)
	go func() {
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-events:
				if !ok {
					return
				}
				m.jobEvent(e)
			}
		}
	}()
}

func (m *Metrics) jobEvent(e *river.Event) {
	if e.Job == nil {
		return
	}
	outcome := string(e.Kind)
	switch e.Kind {
	case river.EventKindJobCompleted:
		outcome = "completed"
	case river.EventKindJobFailed: // errored: retried later, or given up
		outcome = "retryable"
		if e.Job.State == rivertype.JobStateDiscarded {
			outcome = "discarded"
		}
	case river.EventKindJobCancelled:
		outcome = "cancelled"
	case river.EventKindJobSnoozed:
		outcome = "snoozed"
	}
	m.jobs.WithLabelValues(e.Job.Kind, outcome).Inc()
	// River leaves JobStats out of some events (seen under load); the job's own times then say
	// how long its attempt ran.
	switch {
	case e.JobStats != nil:
		m.jobDuration.WithLabelValues(e.Job.Kind, outcome).Observe(e.JobStats.RunDuration.Seconds())
	case e.Job.AttemptedAt != nil && e.Job.FinalizedAt != nil:
		m.jobDuration.WithLabelValues(e.Job.Kind, outcome).Observe(e.Job.FinalizedAt.Sub(*e.Job.AttemptedAt).Seconds())
	}
}

var (
	poolConns = prometheus.NewDesc(Namespace+"_db_pool_connections", "Connections of the pgx pool by state (acquired, idle, constructing) and the maximum (max).",
		[]string{"state"}, nil)
	poolAcquires = prometheus.NewDesc(Namespace+"_db_pool_acquires_total", "Connections acquired from the pgx pool.", nil, nil)
	poolWaits    = prometheus.NewDesc(Namespace+"_db_pool_empty_acquires_total", "Acquires that waited because the pool had no idle connection.", nil, nil)
	poolWaited   = prometheus.NewDesc(Namespace+"_db_pool_empty_acquire_wait_seconds_total", "Time acquires spent waiting for a connection.", nil, nil)
	poolCanceled = prometheus.NewDesc(Namespace+"_db_pool_canceled_acquires_total", "Acquires cancelled by their context while waiting.", nil, nil)
	queueJobs    = prometheus.NewDesc(Namespace+"_river_queue_jobs", "River jobs not yet finished, by queue and state (available, pending, retryable, running, scheduled).",
		[]string{"queue", "state"}, nil)
	queueUp = prometheus.NewDesc(Namespace+"_river_queue_scrape_ok", "1 when the queue depth query answered at this scrape, else 0.", nil, nil)
)

type poolCollector struct{ pool *pgxpool.Pool }

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolConns, poolAcquires, poolWaits, poolWaited, poolCanceled} {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	for state, n := range map[string]int32{"acquired": s.AcquiredConns(), "idle": s.IdleConns(),
		"constructing": s.ConstructingConns(), "max": s.MaxConns()} {
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(n), state)
	}
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, s.EmptyAcquireWaitTime().Seconds())
	ch <- prometheus.MustNewConstMetric(poolCanceled, prometheus.CounterValue, float64(s.CanceledAcquireCount()))
}

type queueCollector struct {
	db  store.DBTX
	log *slog.Logger
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueJobs
	ch <- queueUp
}

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), queueScrapeTimeout)
	defer cancel()
	depths, err := store.QueueDepths(ctx, c.db)
	if err != nil {
		c.log.Warn("metrics: queue depths", "err", err)
		ch <- prometheus.MustNewConstMetric(queueUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(queueUp, prometheus.GaugeValue, 1)
	// Crier's queues report every state, zeros included, so an emptied queue reads 0, not "no data".
	counts := map[[2]string]int64{}
	for _, q := range []string{app.QueueDefault, app.QueuePublish, app.QueueImports, app.QueueWebhooks} {
		for _, st := range queueStates {
			counts[[2]string{q, st}] = 0
		}
	}
	for _, d := range depths {
		counts[[2]string{d.Queue, d.State}] = d.Jobs
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(queueJobs, prometheus.GaugeValue, float64(n), k[0], k[1])
	}
}

// queueStates are the unfinished states store.QueueDepths counts.
var queueStates = []string{"available", "pending", "retryable", "running", "scheduled"}
