package server_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/bench"
	"github.com/crier/crier/server"
)

// benchSandboxEnv asks this test binary to serve the sandbox networks at its address (TestMain)
// instead of running tests: the publishing bench's networks in a process of their own, as
// `crier sandbox` is, so the bench process's CPU and heap are Crier's (the pipeline's) alone.
const benchSandboxEnv = "CRIER_BENCH_SANDBOX_ADDR"

func TestMain(m *testing.M) {
	if addr := os.Getenv(benchSandboxEnv); addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			os.Exit(2)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }() // until the bench closes stdin
		_ = server.RunSandbox(ctx, ln, slog.New(slog.DiscardHandler))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startBenchSandbox serves the sandbox in a child process (this binary again, TestMain) until the
// bench ends, and answers its URL and its CPU time so far.
func startBenchSandbox(b *testing.B) (url string, cpu func() time.Duration) {
	addr := freeAddr(b)
	exe, err := os.Executable()
	require.NoError(b, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), benchSandboxEnv+"="+addr)
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	url = "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, err := http.Get(url + "/_sandbox/state"); err == nil {
			res.Body.Close()
			break
		}
		require.True(b, time.Now().Before(deadline), "the sandbox process answers")
	}
	return url, func() time.Duration {
		d, _ := bench.ProcessCPU(cmd.Process.Pid)
		return d
	}
}
