package app

import "context"

// A network call waits for what must be durable before it: the pipeline keeps an attempt's
// checkpoints pending (PublishRequest.Checkpoint) and writes them in one statement right before the
// adapter's next call that may change something on the network (a read — network/core's GET, HEAD
// or Request.Read — does not wait), or with the attempt's outcome when no such call follows. The
// database then never holds less than it would had the worker died just after the step that made
// the checkpoint, which Find already reconciles, while an attempt's steps cost one write per call
// instead of one per checkpoint, and the last step's none.

type beforeCallKey struct{}

// WithBeforeCall answers ctx carrying fn, which BeforeCall runs before each network call.
func WithBeforeCall(ctx context.Context, fn func(context.Context) error) context.Context {
	return context.WithValue(ctx, beforeCallKey{}, fn)
}

// BeforeCall runs the function WithBeforeCall put in ctx, if any. Every adapter call that may change
// something on a network goes through it (network/core's Client.Send): an error means the call
// must not be made.
func BeforeCall(ctx context.Context) error {
	if fn, ok := ctx.Value(beforeCallKey{}).(func(context.Context) error); ok {
		return fn(ctx)
	}
	return nil
}
