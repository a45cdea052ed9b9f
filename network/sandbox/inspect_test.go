package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
)

func TestInspectCopiesStateAndActionsTurnIt(t *testing.T) {
	t.Parallel()
	sb := sandbox.New()
	call := func(path string) int {
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/sandbox/x"+path, nil))
		return rec.Code
	}

	require.Equal(t, http.StatusUnauthorized, call("/2/users/me"))
	require.NoError(t, sb.Inject(app.Twitter, sandbox.Failure{Status: 503, Code: "over_capacity", Path: "/2/users"}))
	require.Error(t, sb.Inject(app.Twitter, sandbox.Failure{Status: 200}))
	require.NoError(t, sb.SetKnobs(app.Twitter, sandbox.Knobs{TokenTTLSeconds: 60}))
	require.Error(t, sb.SetKnobs(app.Twitter, sandbox.Knobs{LatencyMs: -1}))
	h, err := sb.Hold(app.Twitter, sandbox.Held{Kind: sandbox.KindPost, ID: "1", User: "ada", Media: []string{"m1"}})
	require.NoError(t, err)
	require.False(t, h.At.IsZero())

	in, err := sb.Inspect(app.Twitter, 10)
	require.NoError(t, err)
	require.Equal(t, "/sandbox/x/_sandbox", in.StatePath)
	require.Equal(t, 1, in.KeptCalls)
	require.Equal(t, "/2/users/me", in.Calls[0].Path)
	require.Equal(t, []sandbox.Failure{{Status: 503, Code: "over_capacity", Path: "/2/users", Times: 1}}, in.Failures)
	require.Equal(t, 60, in.Knobs.TokenTTLSeconds)
	in.Held[0].Media[0] = "changed" // a copy: the sandbox keeps its own
	again, _ := sb.Inspect(app.Twitter, 10)
	require.Equal(t, "m1", again.Held[0].Media[0])

	require.Equal(t, http.StatusServiceUnavailable, call("/2/users/me"), "the injected failure answers")
	sums := sb.Summaries()
	require.Len(t, sums, len(app.Networks))
	require.Equal(t, app.TikTok, sums[0].Network)
	require.Equal(t, app.Twitter, sums[4].Network)
	require.Equal(t, 2, sums[4].Calls)
	require.Equal(t, 2, sums[4].Failed)
	require.Equal(t, 1, sums[4].Held[sandbox.KindPost])
	require.WithinDuration(t, time.Now(), sums[4].LastCall, time.Minute)

	require.NoError(t, sb.Reset(app.Twitter))
	in, _ = sb.Inspect(app.Twitter, 10)
	require.Zero(t, in.KeptCalls)
	require.Empty(t, in.Held)
	_, err = sb.Inspect(app.Network("MYSPACE"), 1)
	require.ErrorIs(t, err, sandbox.ErrUnknownNetwork)
}

func TestCallsAreCapped(t *testing.T) {
	t.Parallel()
	sb := sandbox.New()
	for i := 0; i < sandbox.MaxCalls+10; i++ {
		sb.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/sandbox/bluesky/nope", nil))
	}
	in, err := sb.Inspect(app.Bluesky, 3)
	require.NoError(t, err)
	require.Equal(t, sandbox.MaxCalls, in.KeptCalls)
	require.Len(t, in.Calls, 3)
}
