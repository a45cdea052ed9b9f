package server_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/network"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

// killTestNetworks are the networks the kill test publishes to: those whose adapter publishes on
// this branch and connect through OAuth without a channel to choose (text-only payloads).
func killTestNetworks() []app.Network {
	adapters := network.Adapters(network.Options{Sandbox: true, BaseURL: "http://127.0.0.1:1"})
	var out []app.Network
	for _, n := range []app.Network{app.Mastodon, app.Twitter, app.Threads} {
		if _, ok := adapters[n].(app.Publisher); ok {
			out = append(out, n)
		}
	}
	return out
}

// Never twice, under fire, in process (TestCrashedProcessHeals kills the whole process; this one
// keeps the cancelled-call path, closed as outcome_unknown and retried at once, in a fast test):
// many posts due now, River clients started and killed (StopAndCancel,
// which cancels the network calls in flight — the sandbox answers slowly so calls are in flight)
// several times, every other kill also erasing the interrupted attempts' closing (a hard crash:
// they wait out the lease), then a clean client finishes. Every target ends POSTED and the sandbox holds
// exactly one post per target: none lost, none duplicated.
func TestPublishSurvivesKilledWorkers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills River clients for several seconds")
	}
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, PublishLease: 3 * time.Second})
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Chaos")
	nets := killTestNetworks()
	types, data := "", ""
	for i, n := range nets {
		connectNetwork(t, srv, key, team, string(n))
		res, b := do(t, http.MethodPost, srv.URL+"/sandbox/"+sandbox.Segment(n)+"/_sandbox/knobs", `{"latencyMs":120}`)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		if i > 0 {
			types, data = types+",", data+","
		}
		types += `"` + string(n) + `"`
		data += `"` + string(n) + `":{"text":"%[1]s"}`
	}
	// The network makes the post, then its answer is slow: a kill in that window loses the answer
	// of a post that exists — the case reconciliation (Find) is for.
	var lost atomic.Int64
	srv.Echo.Pre(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/sandbox/") || strings.Contains(r.URL.Path, "/_sandbox") {
				return next(c)
			}
			orig, rec := c.Response().Writer, httptest.NewRecorder()
			c.Response().Writer = rec
			err := next(c)
			c.Response().Writer = orig
			select {
			case <-time.After(time.Duration(50+rand.IntN(150)) * time.Millisecond):
			case <-r.Context().Done():
				lost.Add(1)
				return nil
			}
			for k, v := range rec.Header() {
				orig.Header()[k] = v
			}
			orig.WriteHeader(rec.Code)
			_, _ = orig.Write(rec.Body.Bytes())
			return err
		}
	})
	_, err := srv.Pool.Exec(context.Background(), `UPDATE organizations SET plan = 'ENTERPRISE'`)
	require.NoError(t, err)

	const posts = 40
	ids := make([]string, 0, posts)
	for i := 0; i < posts; i++ {
		text := fmt.Sprintf("kill test post %02d", i)
		st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"`+text+`","postDate":"`+soon(0)+`","status":"SCHEDULED",
			"socialAccountTypes":[`+types+`],"data":{`+fmt.Sprintf(data, text)+`}}`)
		require.Equal(t, http.StatusOK, st, string(b))
		ids = append(ids, p.ID)
	}

	newClient := func() interface {
		Start(context.Context) error
		StopAndCancel(context.Context) error
		Stop(context.Context) error
	} {
		c, err := jobs.NewClient(srv.Pool, srv.Service, srv.Publishing, jobs.Options{FetchPoll: 20 * time.Millisecond,
			RescueStuckJobsAfter: 2 * time.Second, PublishWorkers: 8})
		require.NoError(t, err)
		return c
	}
	ctx := context.Background()
	for round := 0; round < 5; round++ {
		c := newClient()
		require.NoError(t, c.Start(ctx))
		time.Sleep(time.Duration(150+rand.IntN(350)) * time.Millisecond)
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		require.NoError(t, c.StopAndCancel(sctx))
		cancel()
		if round%2 == 1 {
			// As if the process had died outright: the interrupted attempts were never closed, so
			// their retries must wait out the lease before reconciling.
			_, err := srv.Pool.Exec(ctx, `UPDATE publish_targets SET attempt_started_at = now(), outcome_unknown = false, status = 'PROCESSING'
				WHERE outcome_unknown AND status = 'RETRYING'`)
			require.NoError(t, err)
		}
	}
	var interrupted int
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE attempts > 1`).Scan(&interrupted))

	c := newClient()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = c.Stop(sctx)
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		var left int
		require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE status <> 'POSTED'`).Scan(&left))
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			rows, _ := srv.Pool.Query(ctx, `SELECT network, status, attempts, coalesce(error, '') FROM publish_targets WHERE status <> 'POSTED' LIMIT 5`)
			for rows.Next() {
				var n, s, e string
				var a int
				_ = rows.Scan(&n, &s, &a, &e)
				t.Logf("left: %s %s attempts=%d %s", n, s, a, e)
			}
			rows.Close()
			t.Fatalf("%d targets not POSTED after 90 s", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var reconciled int
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE attempts > 1`).Scan(&reconciled))
	t.Logf("%d posts × %d networks; %d targets already retried when the clean client started, %d needed more than one attempt in all", posts, len(nets), interrupted, reconciled)
	require.Positive(t, reconciled, "the kills interrupted no attempt: the test proves nothing")
	for _, n := range nets {
		calls := sandboxOf(t, srv, sandbox.Segment(n)).Calls
		finds, creates := 0, 0
		for _, c := range calls {
			switch {
			case c.Method == http.MethodGet && strings.HasSuffix(c.Path, "/statuses"):
				finds++
			case c.Method == http.MethodPost && c.Path == "/api/v1/statuses":
				creates++
			}
		}
		if n == app.Mastodon {
			t.Logf("Mastodon: %d Find lookups, %d status creations answered for %d posts; %d answers of the sandbox lost to kills", finds, creates, posts, lost.Load())
		}
	}

	for _, n := range nets {
		perText := map[string]int{}
		for _, h := range srv.Sandbox.Held(n, sandbox.KindPost) {
			require.Nil(t, h.DeletedAt)
			perText[h.Text]++
		}
		for i := 0; i < posts; i++ {
			text := fmt.Sprintf("kill test post %02d", i)
			require.Equal(t, 1, perText[text], "%s: %q held %d times", n, text, perText[text])
		}
		require.Len(t, perText, posts, n)
	}
	for _, id := range ids {
		p := getPost(t, srv, key, id)
		require.Equal(t, "POSTED", p.Status)
		for _, n := range nets {
			require.NotEmpty(t, p.ExternalData[string(n)].ID)
		}
	}
	var events int
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE kind = 'post.published'`).Scan(&events))
	require.Equal(t, posts, events, "one post.published per post")
}
