package pubutil_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/pubutil"
)

func TestNearestPicksThePostOfItsOwnAttempt(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	n := pubutil.NewNearest(at)
	n.Offer(0, at.Add(-time.Hour))      // long before: not ours
	n.Offer(1, at.Add(-90*time.Second)) // another target's, within the skew
	n.Offer(2, at.Add(2*time.Second))   // ours
	n.Offer(3, at.Add(40*time.Second))  // a later target's
	require.Equal(t, 2, n.Index)
	require.Equal(t, -1, pubutil.NewNearest(at).Index)
}

func TestAttemptMarkerIsKeptAcrossRetries(t *testing.T) {
	t.Parallel()
	saved := map[string]string{}
	req := &app.PublishRequest{Checkpoint: func(_ context.Context, k, v string) error { saved[k] = v; return nil }}
	_, ok := pubutil.AttemptAt(req)
	require.False(t, ok)
	require.NoError(t, pubutil.MarkAttempt(context.Background(), req))
	first, ok := pubutil.AttemptAt(req)
	require.True(t, ok)
	require.Equal(t, saved[pubutil.AttemptKey], req.Resume[pubutil.AttemptKey])
	time.Sleep(time.Millisecond)
	require.NoError(t, pubutil.MarkAttempt(context.Background(), req))
	again, _ := pubutil.AttemptAt(req)
	require.Equal(t, first, again)
}
