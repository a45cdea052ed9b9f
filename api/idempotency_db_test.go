package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/store/storetest"
)

// idemRig is the middleware over a real database, behind a stand-in for the guard (the principal)
// and the server's recovery and error handler, with handlers the tests script.
type idemRig struct {
	t    *testing.T
	e    *echo.Echo
	m    *idempotency
	pool *pgxpool.Pool
	rows func() int
}

func newIdemRig(t *testing.T, handlers map[string]echo.HandlerFunc) *idemRig {
	t.Helper()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	var org string
	require.NoError(t, pool.QueryRow(ctx, `
		WITH u AS (INSERT INTO users (email, password_hash) VALUES ('idem@example.com', 'x') RETURNING id)
		INSERT INTO organizations (created_by_id, name) SELECT id, 'Idem' FROM u RETURNING id`).Scan(&org))
	svc := apptest.New(t, pool, app.Options{})
	m := &idempotency{svc: svc, routes: map[string]bool{}, log: slog.New(slog.DiscardHandler), wait: 5 * time.Second}
	e := echo.New()
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableErrorHandler: true}))
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		status, body := Body(err, "")
		_ = c.JSON(status, body)
	}
	principal := func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.SetRequest(c.Request().WithContext(app.WithPrincipal(c.Request().Context(), &app.Principal{OrganizationID: org})))
			return next(c)
		}
	}
	for path, h := range handlers {
		m.routes[http.MethodPost+" "+path] = true
		e.POST(path, h, principal, m.middleware)
	}
	rows := func() int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM idempotency_keys`).Scan(&n))
		return n
	}
	return &idemRig{t: t, e: e, m: m, pool: pool, rows: rows}
}

func (r *idemRig) post(path, key, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	req.Header.Set(IdempotencyHeader, key)
	rec := httptest.NewRecorder()
	r.e.ServeHTTP(rec, req)
	return rec
}

// A 5xx and a panic leave no claim behind: the retry runs the operation, and its answer is kept.
func TestIdempotencyReleasesOnFailure(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	ok := func(c echo.Context) error { return c.JSON(http.StatusCreated, map[string]int32{"call": calls.Load()}) }
	rig := newIdemRig(t, map[string]echo.HandlerFunc{
		"/fails-once": func(c echo.Context) error {
			if calls.Add(1) == 1 {
				return app.Errorf(app.ENetwork, "the network failed")
			}
			return ok(c)
		},
		"/panics-once": func(c echo.Context) error {
			if calls.Add(1) == 3 {
				panic("boom")
			}
			return ok(c)
		},
	})
	rec := rig.post("/fails-once", "k1", `{}`)
	require.Equal(t, http.StatusBadGateway, rec.Code)
	require.Equal(t, 0, rig.rows(), "a 5xx is not kept")
	rec = rig.post("/fails-once", "k1", `{}`)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	require.JSONEq(t, `{"call":2}`, rec.Body.String())
	rec = rig.post("/fails-once", "k1", `{}`)
	require.Equal(t, http.StatusCreated, rec.Code)
	require.JSONEq(t, `{"call":2}`, rec.Body.String())
	require.Equal(t, "true", rec.Header().Get(ReplayedHeader))
	require.Equal(t, int32(2), calls.Load())

	rec = rig.post("/panics-once", "k2", `{}`)
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.Equal(t, 1, rig.rows(), "only k1's answer: the panic released k2")
	rec = rig.post("/panics-once", "k2", `{}`)
	require.Equal(t, http.StatusCreated, rec.Code)
	require.JSONEq(t, `{"call":4}`, rec.Body.String())
}

// A duplicate waits for the first request and replays its answer; past the bound it is a 409,
// and the first request's answer is still kept for later retries.
func TestIdempotencyWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	var calls atomic.Int32
	rig := newIdemRig(t, map[string]echo.HandlerFunc{
		"/slow": func(c echo.Context) error {
			calls.Add(1)
			started <- struct{}{}
			<-release
			return c.JSON(http.StatusOK, map[string]string{"made": "once"})
		},
	})
	first := make(chan *httptest.ResponseRecorder, 1)
	go func() { first <- rig.post("/slow", "w", `{"a":1}`) }()
	<-started

	rig.m.wait = 300 * time.Millisecond
	begin := time.Now()
	rec := rig.post("/slow", "w", `{"a":1}`)
	require.Equal(t, http.StatusConflict, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), "still in progress")
	require.GreaterOrEqual(t, time.Since(begin), 200*time.Millisecond, "it waited before giving up")

	rig.m.wait = 5 * time.Second
	second := make(chan *httptest.ResponseRecorder, 1)
	go func() { second <- rig.post("/slow", "w", `{"a":1}`) }()
	time.Sleep(100 * time.Millisecond) // the duplicate is polling
	close(release)
	r1, r2 := <-first, <-second
	require.Equal(t, http.StatusOK, r1.Code)
	require.Equal(t, http.StatusOK, r2.Code)
	require.Equal(t, r1.Body.String(), r2.Body.String())
	require.Equal(t, "true", r2.Header().Get(ReplayedHeader))
	require.Equal(t, int32(1), calls.Load())
}

// A claim whose heartbeat stopped (its process died) is taken over by the retry.
func TestIdempotencyTakesOverADeadClaim(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	rig := newIdemRig(t, map[string]echo.HandlerFunc{
		"/make": func(c echo.Context) error {
			calls.Add(1)
			return c.JSON(http.StatusOK, map[string]string{"made": "yes"})
		},
	})
	rec := rig.post("/make", "dead", `{}`)
	require.Equal(t, http.StatusOK, rec.Code)
	// Turn the kept answer back into a claim of a dead request, its heartbeat past the lease.
	_, err := rig.pool.Exec(context.Background(), `UPDATE idempotency_keys SET state = 'in_progress', response_status = NULL,
		locked_at = now() - make_interval(secs => $1::float8)`, (app.IdempotencyLease + time.Second).Seconds())
	require.NoError(t, err)
	rec = rig.post("/make", "dead", `{}`)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Empty(t, rec.Header().Get(ReplayedHeader))
	require.Equal(t, int32(2), calls.Load())
}
