package publishing

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

func TestPublishRetrySchedule(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for i, w := range want {
		require.Equal(t, now.Add(w), app.PublishRetryAt(i+1, now), "after attempt %d", i+1)
	}
}

func TestSettleFromTargets(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	errText := "Validation failed"
	tg := func(n app.Network, st app.PostStatus) store.PublishTarget {
		out := store.PublishTarget{Kind: app.TargetPost, Network: string(n), Status: string(st)}
		if st == app.PostPosted {
			out.PostedAt = &at
		}
		if st == app.PostError {
			out.Error = &errText
		}
		return out
	}
	st, e, posted := settle([]store.PublishTarget{tg(app.Mastodon, app.PostPosted), tg(app.Bluesky, app.PostPosted)}, app.TargetPost)
	require.Equal(t, app.PostPosted, st)
	require.Nil(t, e)
	require.Equal(t, at, *posted)
	st, e, _ = settle([]store.PublishTarget{tg(app.Mastodon, app.PostPosted), tg(app.Bluesky, app.PostError)}, app.TargetPost)
	require.Equal(t, app.PostError, st, "a mixed outcome is ERROR (retry re-runs the failed network)")
	require.Equal(t, "Failed to publish on Bluesky: Validation failed", *e)
	st, _, _ = settle([]store.PublishTarget{tg(app.Mastodon, app.PostRetrying), tg(app.Bluesky, app.PostError)}, app.TargetPost)
	require.Equal(t, app.PostRetrying, st)
	st, _, _ = settle([]store.PublishTarget{tg(app.Mastodon, app.PostProcessing), tg(app.Bluesky, app.PostPosted)}, app.TargetPost)
	require.Equal(t, app.PostProcessing, st)
	// First comments do not move their post.
	fc := tg(app.Mastodon, app.PostError)
	fc.Kind = app.TargetFirstComment
	st, _, _ = settle([]store.PublishTarget{tg(app.Mastodon, app.PostPosted), fc}, app.TargetPost)
	require.Equal(t, app.PostPosted, st)
}

// A post's failed first comment shows under its network in errors (and errorsVerbose), unless the
// post itself failed there; a comment's own errors are its targets'.
func TestTargetFieldsShowFailedFirstComments(t *testing.T) {
	msg, postMsg := "Validation failed: Text can't be blank", "Service unavailable"
	vb := []byte(`{"errorMessage":"Validation failed: Text can't be blank","httpStatus":422}`)
	targets := []store.PublishTarget{
		{Kind: app.TargetFirstComment, Network: string(app.Mastodon), Status: string(app.PostError), Error: &msg, ErrorVerbose: vb},
		{Kind: app.TargetPost, Network: string(app.Mastodon), Status: string(app.PostPosted)},
		{Kind: app.TargetFirstComment, Network: string(app.Twitter), Status: string(app.PostError), Error: &msg},
		{Kind: app.TargetPost, Network: string(app.Twitter), Status: string(app.PostError), Error: &postMsg},
	}
	all, _, errs, verbose := targetFields(targets, app.TargetPost, true)
	if len(all) != 4 {
		t.Fatalf("targets: %d", len(all))
	}
	if got := errs[app.Mastodon]; got == nil || *got != "First comment: "+msg {
		t.Fatalf("MASTODON error: %v", got)
	}
	if got := verbose[app.Mastodon]; got == nil || got.HTTPStatus == nil || *got.HTTPStatus != 422 {
		t.Fatalf("MASTODON verbose: %+v", got)
	}
	if got := errs[app.Twitter]; got == nil || *got != postMsg {
		t.Fatalf("TWITTER error (the post's own wins): %v", got)
	}
	if _, _, errs, _ := targetFields(targets, app.TargetComment, false); errs != nil {
		t.Fatalf("a comment's errors are its own targets': %v", errs)
	}
}

// A network still processing frees the worker until its ResetAt (at least a second away), for up
// to maxProcessingWait since the target first waited; past that it is a failure to retry.
func TestStillProcessing(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := &Service{}
	wait := &app.NetworkError{Network: app.Instagram, Class: app.ErrProcessing, ResetAt: now.Add(3 * time.Second)}
	at, ok := s.stillProcessing(store.PublishTarget{Checkpoints: []byte(`{}`)}, wait, now)
	require.True(t, ok)
	require.Equal(t, now.Add(3*time.Second), at)
	at, ok = s.stillProcessing(store.PublishTarget{}, &app.NetworkError{Class: app.ErrProcessing, ResetAt: now}, now)
	require.True(t, ok)
	require.Equal(t, now.Add(time.Second), at, "never at once")
	minute := []byte(`{"crier.processingSince":"` + now.Add(-time.Minute).Format(time.RFC3339) + `"}`)
	at, ok = s.stillProcessing(store.PublishTarget{Checkpoints: minute}, wait, now)
	require.True(t, ok)
	require.Equal(t, now.Add(15*time.Second), at, "spaced by a quarter of the time waited")
	recent := []byte(`{"crier.processingSince":"` + now.Add(-59*time.Minute).Format(time.RFC3339) + `"}`)
	at, ok = s.stillProcessing(store.PublishTarget{Checkpoints: recent}, wait, now)
	require.True(t, ok)
	require.Equal(t, now.Add(5*time.Minute), at, "at most 5 minutes apart")
	old := []byte(`{"crier.processingSince":"` + now.Add(-61*time.Minute).Format(time.RFC3339) + `"}`)
	_, ok = s.stillProcessing(store.PublishTarget{Checkpoints: old}, wait, now)
	require.False(t, ok, "processing for over an hour: a failure")
	_, ok = s.stillProcessing(store.PublishTarget{}, &app.NetworkError{Class: app.ErrTransient}, now)
	require.False(t, ok)
}

// tx1 committed without waiting for the WAL flush (StartPostAttemptNoFlush) is made durable by the
// attempt's first call that may change something on the network: that call's BeforeCall writes
// synchronously even with no checkpoint pending (the row unchanged: empty arrays, never NULL, which
// would null the checkpoints), once; later calls write only pending checkpoints.
func TestFirstCallFlushesTx1(t *testing.T) {
	t.Parallel()
	var writes []store.SaveCheckpointsParams
	write := func(p store.SaveCheckpointsParams) error { writes = append(writes, p); return nil }
	p := pendingCheckpoints{target: "t", tx1Unflushed: true}
	require.NoError(t, p.flush(write))
	require.Len(t, writes, 1, "the first call waits for a synchronous write though nothing is pending")
	require.NotNil(t, writes[0].Keys)
	require.NotNil(t, writes[0].Vals)
	require.Empty(t, writes[0].Keys)
	require.NoError(t, p.flush(write))
	require.Len(t, writes, 1, "then only pending checkpoints are written")
	p.add("k", "v")
	require.NoError(t, p.flush(write))
	require.Len(t, writes, 2)
	require.Equal(t, []string{"k"}, writes[1].Keys)

	q := pendingCheckpoints{target: "t"} // tx1 committed synchronously (the locked path)
	require.NoError(t, q.flush(write))
	require.Len(t, writes, 2, "nothing pending, nothing to write")

	failed := errors.New("database down")
	r := pendingCheckpoints{target: "t", tx1Unflushed: true}
	require.ErrorIs(t, r.flush(func(store.SaveCheckpointsParams) error { return failed }), failed)
	require.True(t, r.tx1Unflushed, "a failed write leaves tx1 to flush at the next call")
}
