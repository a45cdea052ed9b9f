package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/crier/crier/network/sandbox"
)

// RunSandbox serves the simulated networks on ln as a process of their own (`crier sandbox`), until
// ctx ends: their state (accounts, tokens, what was published) is in memory and outlives Crier's
// restarts, so a crash test can count on the network what a killed Crier did. Crier reaches it
// through SANDBOX_URL; it serves the same paths as the in-process sandbox (/sandbox/<network>/…,
// with the control endpoints under /_sandbox).
func RunSandbox(ctx context.Context, ln net.Listener, log *slog.Logger) error {
	srv := &http.Server{Handler: sandbox.New(), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("sandbox serving", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), HTTPShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
