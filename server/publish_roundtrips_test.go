package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/jobs"
	"github.com/crier/crier/server/servertest"
)

type workerMark struct{}

// roundTrips records the statements (and batches, one round trip each) sent by contexts that
// carry workerMark: the publish worker's, marked by a River middleware.
type roundTrips struct {
	mu   sync.Mutex
	sent []string
}

func (r *roundTrips) note(ctx context.Context, what string) {
	if ctx.Value(workerMark{}) == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, what)
}

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	sql := strings.Join(strings.Fields(d.SQL), " ")
	r.note(ctx, sql[:min(len(sql), 60)])
	return ctx
}

func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	what := "batch"
	if d.Batch != nil {
		for i, q := range d.Batch.QueuedQueries {
			sql := strings.Join(strings.Fields(q.SQL), " ")
			what += map[bool]string{true: ": ", false: " | "}[i == 0] + sql[:min(len(sql), 60)]
		}
	}
	r.note(ctx, what)
	return ctx
}

func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (r *roundTrips) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.sent...)
}

// The publish worker's round trips to PostgreSQL for one target published on the first attempt,
// counted by a pgx tracer on the server's pool: one statement starts the attempt (lease, target,
// post, account), committed without waiting for the WAL flush (store.StartPostAttemptNoFlush), so
// before the network call a synchronous write (the attempt's checkpoints; with none pending, as
// here, written unchanged) flushes it — a network that checkpoints before its call (X, Bluesky, Threads …)
// waits for one flush there instead of two; one transaction settles it (outcome, post roll-up, event; River's batch completer
// completes the job), its BEGIN and the SET LOCAL that turns off the wait for the WAL flush
// (store.InOutcomeTx says why that is sound) sent in its first batch, which records the outcome and
// reads the post locked; a second writes the post's status and its event, whose payload is built
// from the row that status writes (so it must be the post's record as GET answers it); then COMMIT.
// Was 6 round trips: the status and the event apart; then 5, with tx1 waiting for its own flush;
// then 6 (tx1 no longer waiting, but its flush a write of its own before the call), 5 since tx2's
// BEGIN went into its first batch.
func TestPublishWorkerRoundTrips(t *testing.T) {
	t.Parallel()
	tr := &roundTrips{}
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Tracer: tr})
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Round trips")
	connectNetwork(t, srv, key, team, "MASTODON")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"rt","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"round trips"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))

	publishMarked(t, srv, key, p.ID)

	sent := tr.list()
	for i, s := range sent {
		t.Logf("%2d %s", i+1, s)
	}
	require.LessOrEqual(t, len(sent), 5, "round trips of the publish worker for one target")
	require.GreaterOrEqual(t, len(sent), 2)
	require.True(t, strings.HasPrefix(sent[0], "batch: SELECT set_config('synchronous_commit', 'off', true)"), "tx1 does not wait for the WAL flush: %s", sent[0])
	require.True(t, strings.HasPrefix(sent[1], "-- name: SaveCheckpoints"), "a synchronous write flushes tx1 before the network call: %s", sent[1])
	var asyncBegin bool
	for _, s := range sent {
		asyncBegin = asyncBegin || strings.HasPrefix(s, "batch: begin | SET LOCAL synchronous_commit = off | ")
	}
	require.True(t, asyncBegin, "the outcome's transaction does not wait for the WAL flush, and begins with its first batch")

	var payload []byte
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT payload FROM events WHERE kind = 'post.published' AND payload->>'id' = $1`, p.ID).Scan(&payload))
	res, got := do(t, http.MethodGet, srv.URL+"/api/v1/post/"+p.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(got))
	var event, record map[string]any
	require.NoError(t, json.Unmarshal(payload, &event))
	require.NoError(t, json.Unmarshal(got, &record))
	for _, k := range []string{"status", "postedDate", "updatedAt", "error", "title", "createdAt"} {
		require.Equal(t, record[k], event[k], "the event's %s is the post's", k)
	}
}

// publishMarked runs the publish workers, their jobs' contexts marked (workerMark, which the tracer
// counts by), until post id is POSTED.
func publishMarked(t *testing.T, srv *servertest.Server, key, id string) {
	t.Helper()
	mark := river.WorkerMiddlewareFunc(func(ctx context.Context, _ *rivertype.JobRow, doInner func(context.Context) error) error {
		return doInner(context.WithValue(ctx, workerMark{}, true))
	})
	c, err := jobs.NewClient(srv.Pool, srv.Service, srv.Publishing, jobs.Options{FetchPoll: 20 * time.Millisecond, Middleware: []rivertype.Middleware{mark}})
	require.NoError(t, err)
	require.NoError(t, c.Start(context.Background()))
	waitPost(t, srv, key, id, "POSTED")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Stop(sctx))
}
