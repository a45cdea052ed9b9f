package sandboxtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/pubutil"
)

// Yield runs the first attempt of a publish that must yield: it sets poll (the adapter's Poller)
// to pause longer than pubutil.InlineWait, so the first pause is not inline, and publishes req with
// a recording Checkpoint. The attempt must end within pubutil.InlineWait with app.ErrProcessing,
// as a *app.NetworkError whose ResetAt is in the future. Yield answers what the attempt
// checkpointed; Wire the resumed attempt's request to it.
func Yield(t testing.TB, pub app.Publisher, poll *pubutil.Poller, tok *app.Token, req *app.PublishRequest) Checkpoints {
	t.Helper()
	*poll = pubutil.Poller{Every: 2 * pubutil.InlineWait}
	saved := Checkpoints{}
	req.Checkpoint = func(_ context.Context, k, v string) error { saved[k] = v; return nil }
	start := time.Now()
	_, err := pub.Publish(context.Background(), tok, req)
	if err == nil {
		t.Fatal("the attempt published: it should have yielded with app.ErrProcessing")
	}
	if took := time.Since(start); took >= pubutil.InlineWait {
		t.Fatalf("the attempt waited %v: it should have yielded before pubutil.InlineWait (%v)", took, pubutil.InlineWait)
	}
	if c := app.ClassOf(err); c != app.ErrProcessing {
		t.Fatalf("the attempt failed as %v, not %v: %v", c, app.ErrProcessing, err)
	}
	var ne *app.NetworkError
	if !errors.As(err, &ne) {
		t.Fatalf("the attempt's error is not a *app.NetworkError: %v", err)
	}
	if !ne.ResetAt.After(time.Now()) {
		t.Fatalf("the attempt should be retried later, ResetAt is %v", ne.ResetAt)
	}
	out := Checkpoints{}
	for k, v := range saved {
		out[k] = v
	}
	return out
}
