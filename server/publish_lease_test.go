package server_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

// A live worker is never taken for a dead one: while its network call outlasts the lease several
// times over, the heartbeat keeps the lease held, so a second run of the same job (River's rescue
// of a job running past its Timeout) waits (ErrAttemptInFlight) instead of reconciling and
// publishing again. The network holds exactly one post.
func TestPublishLeaseHeldByHeartbeat(t *testing.T) {
	t.Parallel()
	const lease = 600 * time.Millisecond
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, PublishLease: lease})
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Lease")
	connectNetwork(t, srv, key, team, string(app.Mastodon))
	res, b := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/knobs", `{"latencyMs":2500}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"lease","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"held by its heartbeat"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))

	ctx := context.Background()
	var args app.PublishTargetArgs
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT id, version FROM publish_targets WHERE post_id = $1`, p.ID).Scan(&args.TargetID, &args.Version))
	args.PostID = p.ID
	noJob := func(context.Context, pgx.Tx) error { return nil }

	first := make(chan error, 1)
	go func() { first <- srv.Publishing.PublishTarget(ctx, args, noJob) }()
	time.Sleep(2 * lease) // the first call is still waiting on the network
	err := srv.Publishing.PublishTarget(ctx, args, noJob)
	var inFlight *app.ErrAttemptInFlight
	require.True(t, errors.As(err, &inFlight), "a second run while the first worker lives must wait, got %v", err)
	require.NoError(t, <-first)

	held := 0
	for _, h := range srv.Sandbox.Held(app.Mastodon, sandbox.KindPost) {
		if h.Text == "held by its heartbeat" {
			held++
		}
	}
	require.Equal(t, 1, held)
	require.Equal(t, "POSTED", getPost(t, srv, key, p.ID).Status)
}
