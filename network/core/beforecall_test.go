package core_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// A call that may change something on the network runs the context's app.BeforeCall first (the
// pipeline writes its pending checkpoints there), and a failing BeforeCall means the network is not
// called at all; a read (GET, HEAD, or a POST marked Read) does not wait for the checkpoints.
func TestSendRunsBeforeCallFirst(t *testing.T) {
	t.Parallel()
	var calls, before atomic.Int32
	var seenBefore atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		seenBefore.Store(before.Load())
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := core.NewClient(app.Mastodon, nil)

	ctx := app.WithBeforeCall(context.Background(), func(context.Context) error { before.Add(1); return nil })
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		require.NoError(t, c.Do(ctx, core.Request{Method: m, URL: srv.URL, JSON: map[string]string{"a": "b"}}, nil))
		require.Equal(t, before.Load(), calls.Load(), m)
		require.Equal(t, before.Load(), seenBefore.Load(), "BeforeCall ran before the %s reached the network", m)
	}
	require.EqualValues(t, 4, calls.Load())

	for _, r := range []core.Request{{URL: srv.URL}, {Method: http.MethodGet, URL: srv.URL}, {Method: http.MethodHead, URL: srv.URL},
		{Method: http.MethodPost, URL: srv.URL, JSON: map[string]string{"q": "status"}, Read: true}} {
		require.NoError(t, c.Do(ctx, r, nil))
	}
	require.EqualValues(t, 8, calls.Load())
	require.EqualValues(t, 4, before.Load(), "reads leave the checkpoints pending")

	refused := errors.New("checkpoint not written")
	ctx = app.WithBeforeCall(context.Background(), func(context.Context) error { return refused })
	err := c.Do(ctx, core.Request{Method: http.MethodPost, URL: srv.URL, JSON: map[string]string{"a": "b"}}, nil)
	require.ErrorIs(t, err, refused)
	require.EqualValues(t, 8, calls.Load(), "no call when BeforeCall fails")
	require.NoError(t, c.Do(ctx, core.Request{URL: srv.URL}, nil), "a read does not wait for the checkpoints")

	require.NoError(t, c.Do(context.Background(), core.Request{Method: http.MethodPost, URL: srv.URL}, nil), "no BeforeCall: a plain call")
	require.EqualValues(t, 10, calls.Load())
}
