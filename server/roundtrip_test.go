package server_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/config"
	"github.com/crier/crier/server"
	"github.com/crier/crier/server/servertest"
)

// tripCounter counts round trips to PostgreSQL (n): each statement sent alone, each batch (however
// many statements it pipelines) once; and statements (stmts), what PostgreSQL's backends execute;
// keys counts, among them, the API keys read again (after a crier_auth notification emptied the
// key cache: it arrives whenever it arrives).
type tripCounter struct{ n, stmts, keys atomic.Int64 }

func (c *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "name: TouchAPIKeys ") { // the keys' lastUsedAt, flushed in the background whenever its ticker fires
		return ctx
	}
	if strings.Contains(d.SQL, "name: GetAPIKeyForAuth ") {
		c.keys.Add(1)
	}
	c.n.Add(1)
	c.stmts.Add(1)
	return ctx
}
func (c *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *tripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {
	c.stmts.Add(1)
}
func (c *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// tracedInstance runs another Crier on srv's database whose pool counts its round trips.
func tracedInstance(t *testing.T, srv *servertest.Server) (string, *tripCounter) {
	t.Helper()
	return tracedInstanceWith(t, srv, srv.Config)
}

// tracedInstanceWith is tracedInstance with the configuration cfg.
func tracedInstanceWith(t *testing.T, srv *servertest.Server, cfg config.Config) (string, *tripCounter) {
	t.Helper()
	counter := &tripCounter{}
	pc := srv.Pool.Config().Copy()
	pc.ConnConfig.Tracer = counter
	pc.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	b, err := server.New(ctx, cfg, server.Options{HTTP: true, Pool: pool, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx, ln) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done); pool.Close() })
	return "http://" + ln.Addr().String(), counter
}

// The API's hot calls make few round trips to PostgreSQL, whatever the load: the key is answered
// from memory (its lastUsedAt written in the background), a post's record (targets, uploads,
// accounts) is read in one batch, a team's record in one statement, and a post's writes are sent in
// one batch after one read, the answer built from what was written. GET post and list answer a
// post whose version (one narrow statement) is the one the API's cache holds from there: GET post
// one statement, list one (the page's ids with their versions), where they were 3 and 5. Before: GET post made 6 in a
// row, list 8, team 5 (then one batch of 4 statements), POST and PATCH 15 (then POST 8 and PATCH 9;
// then 2 each, with 6 and 10 statements; then 2 and 5, a post's write one statement, two for an
// edit). Now a write whose checks' reads this process kept (publishing's write cache: the team's
// for POST, the post's for PATCH, left by the warm-up call) is its write alone, guarded by the
// versions of what the checks used: POST one statement, PATCH two (the post's lock, the write).
// A list whose page the cache holds few of is read whole (ids, then the posts), as before the
// cache. GET team likewise: its version, or (changed) its read. max bounds the round trips, stmts the
// statements PostgreSQL runs (0: not checked).
func TestAPIRoundTrips(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Trips")
	connectNetwork(t, srv, key, team, "MASTODON")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"T","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	base, trips := tracedInstance(t, srv)

	calls := []struct {
		name, method, path, body string
		max, stmts               int64
	}{
		{"GET post", http.MethodGet, "/api/v1/post/" + p.ID, "", 1, 1},
		{"GET post list", http.MethodGet, "/api/v1/post?teamId=" + team + "&limit=20", "", 1, 1},
		{"GET team", http.MethodGet, "/api/v1/team/" + team, "", 1, 1},
		// GET team the same way: its version (cached), else its read (changed by this instance: its entry forgotten)
		{"PATCH team", http.MethodPatch, "/api/v1/team/" + team, `{"name":"Trips"}`, 0, 0},
		{"GET team (changed)", http.MethodGet, "/api/v1/team/" + team, "", 1, 1},
		{"GET team (cached)", http.MethodGet, "/api/v1/team/" + team, "", 1, 1},
		// the team changed since the write cache kept its reads: the guarded write refuses, the
		// post is made again from the database (its reads, then its write), and kept again
		{"POST post (DRAFT, the team changed)", http.MethodPost, "/api/v1/post", `{"teamId":"` + team + `","title":"T1","postDate":"` + soon(time.Hour) + `","status":"DRAFT",
			"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`, 3, 3},
		{"POST post (DRAFT)", http.MethodPost, "/api/v1/post", `{"teamId":"` + team + `","title":"T2","postDate":"` + soon(time.Hour) + `","status":"DRAFT",
			"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`, 1, 1},
		{"PATCH post", http.MethodPatch, "/api/v1/post/" + p.ID, `{"title":"Renamed"}`, 1, 2},
		// the post just changed (its entry forgotten): read, its version hashed from the rows read (no
		// statement more than before the cache); the list's item read after its versions
		{"GET post (changed)", http.MethodGet, "/api/v1/post/" + p.ID, "", 1, 3},
		{"GET post list (changed)", http.MethodGet, "/api/v1/post?teamId=" + team + "&limit=20", "", 2, 4},
		{"GET post (cached)", http.MethodGet, "/api/v1/post/" + p.ID, "", 1, 1},
		{"GET post list (cached)", http.MethodGet, "/api/v1/post?teamId=" + team + "&limit=20", "", 1, 1},
		// a page the cache holds few of (its one post just changed, GET post not read since): read
		// whole, the page's ids then the posts, their versions hashed from the rows read; then held
		{"PATCH post again", http.MethodPatch, "/api/v1/post/" + p.ID, `{"title":"Renamed again"}`, 3, 5},
		{"GET post list (changed, not held)", http.MethodGet, "/api/v1/post?teamId=" + team + "&limit=1&order=ASC", "", 2, 5},
		{"GET post (cached by the list)", http.MethodGet, "/api/v1/post/" + p.ID, "", 1, 1},
	}
	for _, c := range calls { // warm: the key cache and each connection's prepared statements
		res, body := do(t, c.method, base+c.path, c.body, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	}
	for _, c := range calls {
		trips.n.Store(0)
		trips.stmts.Store(0)
		res, body := do(t, c.method, base+c.path, c.body, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(body))
		got := trips.n.Load()
		t.Logf("%s: %d round trips, %d statements", c.name, got, trips.stmts.Load())
		if c.max > 0 {
			require.LessOrEqual(t, got, c.max, c.name)
		}
		if c.stmts > 0 {
			require.LessOrEqual(t, trips.stmts.Load(), c.stmts, c.name)
		}
	}
}
