package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"
)

// A database that does not answer makes /readyz a 503 within its budget, not a hang.
func TestReadyzWithoutDatabase(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	pool, err := pgxpool.New(context.Background(), "postgres://postgres@"+addr+"/crier?sslmode=disable&connect_timeout=5")
	require.NoError(t, err) // pgxpool connects lazily
	t.Cleanup(pool.Close)

	rec := httptest.NewRecorder()
	start := time.Now()
	readiness(pool, 8).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, ReadyzPath, nil))
	require.Less(t, time.Since(start), readyWithin+time.Second)
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.JSONEq(t, `{"status":"unavailable","reason":"database unreachable"}`, rec.Body.String())
	require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
}
