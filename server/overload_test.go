package server_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/config"
	"github.com/crier/crier/server"
	"github.com/crier/crier/server/servertest"
	"github.com/crier/crier/store/storetest"
)

// A full instance refuses at once with a 503 and Retry-After instead of queueing.
func TestOverloadIsShedWith503(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_MAX_INFLIGHT": "2"}})
	entered, release := make(chan struct{}, 2), make(chan struct{})
	srv.Echo.GET("/_test/block", func(c echo.Context) error {
		entered <- struct{}{}
		<-release
		return c.String(http.StatusOK, "done")
	})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			res, _ := do(t, http.MethodGet, srv.URL+"/_test/block", "")
			require.Equal(t, http.StatusOK, res.StatusCode)
		})
	}
	<-entered
	<-entered
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1", "")
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, string(b))
	require.Equal(t, 503, decodeError(t, b).StatusCode)
	require.Equal(t, "1", res.Header.Get("Retry-After"))
	res, _ = do(t, http.MethodGet, srv.URL+"/login", "")
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "pages too")
	close(release)
	wg.Wait()
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1", "")
	require.Equal(t, http.StatusOK, res.StatusCode, "a freed slot serves again")
}

// When the database refuses connections (here: its port closed), the API answers 503 with
// Retry-After in the spec's body, not a 500.
func TestRefusingDatabaseIs503(t *testing.T) {
	t.Parallel()
	_, dbURL := storetest.NewDB(t)
	pcfg, err := pgxpool.ParseConfig(dbURL)
	require.NoError(t, err)
	proxy := startProxy(t, net.JoinHostPort(pcfg.ConnConfig.Host, strconv.Itoa(int(pcfg.ConnConfig.Port))))
	host, port, _ := net.SplitHostPort(proxy.addr())
	pcfg.ConnConfig.Host = host
	p, _ := strconv.Atoi(port)
	pcfg.ConnConfig.Port = uint16(p)
	pcfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(context.Background(), pcfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

	env := map[string]string{"DATABASE_URL": dbURL, "CRIER_DATA_DIR": t.TempDir(), "CRIER_ENV": "development"}
	cfg, err := config.Load(func(k string) string { return env[k] })
	require.NoError(t, err)
	srv, err := server.New(context.Background(), cfg, server.Options{HTTP: true, Pool: pool, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	require.Equal(t, http.StatusOK, get("/api/v1").Code)

	proxy.close()
	pool.Reset() // drop the open connections: the next query must connect
	rec := get("/api/v1")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	e := decodeError(t, rec.Body.Bytes())
	require.Equal(t, 503, e.StatusCode)
	require.Equal(t, app.UnavailableMessage, e.Message)
	require.Equal(t, "2", rec.Header().Get("Retry-After"))
}

// tcpProxy forwards to a target until closed; then its port refuses connections.
type tcpProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, target string) *tcpProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &tcpProxy{ln: ln}
	t.Cleanup(p.close)
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	return p
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A connection that trickles its headers (slowloris) is cut after server.ReadHeaderTimeout rather
// than held open.
func TestSlowHeadersAreCut(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	start := time.Now()
	_, err = conn.Write([]byte("GET /api/v1 HTTP/1.1\r\nHost: crier\r\n"))
	require.NoError(t, err)
	go func() { // keep trickling, as slowloris does, until the server hangs up
		for range 20 {
			time.Sleep(500 * time.Millisecond)
			if _, err := conn.Write([]byte("X-Slow: 1\r\n")); err != nil {
				return
			}
		}
	}()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(9*time.Second)))
	_, err = io.ReadAll(conn)
	require.NoError(t, err, "the server closed the connection")
	require.Less(t, time.Since(start), server.ReadHeaderTimeout+2*time.Second)
}
