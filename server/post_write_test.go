package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

// POST and PATCH post answer the record they wrote without reading it back: each answer is
// byte-identical to the GET that follows, through new, rescheduled and removed targets, first
// comments, upload links kept, added and dropped, and a schedule (River jobs).
func TestPostWriteAnswersAsGet(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Writes")
	connectNetwork(t, srv, key, team, "MASTODON")
	connectNetwork(t, srv, key, team, "TWITTER")
	photo, other := uploadPhoto(t, srv, key, team), uploadPhoto(t, srv, key, team)
	same := func(method, path, body string) string {
		t.Helper()
		st, p, b := postJSON(t, srv, method, path, key, body)
		require.Equal(t, http.StatusOK, st, string(b))
		_, _, got := postJSON(t, srv, http.MethodGet, "/api/v1/post/"+p.ID, key, "")
		require.JSONEq(t, string(got), string(b))
		require.Equal(t, string(got), string(b), "%s %s", method, path)
		return p.ID
	}
	id := same(http.MethodPost, "/api/v1/post", `{"teamId":"`+team+`","title":"W","referenceKey":"w-1","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
		"socialAccountTypes":["TWITTER","MASTODON"],"data":{"TWITTER":{"text":"x","uploadIds":["`+photo+`"]},"MASTODON":{"text":"m","uploadIds":["`+photo+`","`+other+`"]}},
		"firstComment":{"MASTODON":"below"}}`)
	same(http.MethodPatch, "/api/v1/post/"+id, `{"title":"Renamed"}`)
	same(http.MethodPatch, "/api/v1/post/"+id, `{"referenceKey":"w-2","data":{"MASTODON":{"text":"m2","uploadIds":["`+other+`"]},"TWITTER":{"text":"x2"}}}`)
	same(http.MethodPatch, "/api/v1/post/"+id, `{"socialAccountTypes":["MASTODON"],"firstComment":{},"data":{"MASTODON":{"text":"m3","uploadIds":["`+photo+`"]}}}`)
	same(http.MethodPatch, "/api/v1/post/"+id, `{"status":"SCHEDULED","postDate":"`+soon(time.Hour)+`","socialAccountTypes":["MASTODON","TWITTER"],
		"data":{"MASTODON":{"text":"m4"},"TWITTER":{"text":"x4"}},"firstComment":{"MASTODON":"again"}}`)
	same(http.MethodPatch, "/api/v1/post/"+id, `{"status":"DRAFT"}`)
	same(http.MethodPost, "/api/v1/post", `{"teamId":"`+team+`","title":"S","postDate":"`+soon(time.Hour)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"s","uploadIds":["`+photo+`"]}}}`)
	same(http.MethodPost, "/api/v1/post", `{"teamId":"`+team+`","title":"R","postDate":"`+soon(time.Hour)+`","status":"REVIEW",
		"socialAccountTypes":["TWITTER"],"data":{"TWITTER":{"text":"r"}}}`)

	// PATCH without data answers from the stored form (UpdatePostStored): the record's data is not
	// decoded; the dashboard's UpdatePost decodes it.
	ctx := app.WithPrincipal(context.Background(), ownerPrincipal(t, srv, key))
	title := "Stored"
	p, err := srv.Publishing.UpdatePostStored(ctx, id, app.PostParams{Title: &title})
	require.NoError(t, err)
	require.Empty(t, p.Data.Networks())
	require.Contains(t, string(p.StoredData), `"m4"`)
	p, err = srv.Publishing.UpdatePost(ctx, id, app.PostParams{Title: &title})
	require.NoError(t, err)
	require.ElementsMatch(t, []app.Network{app.Twitter, app.Mastodon}, p.Data.Networks())
}

// Edits of one post at once all succeed, each exactly once: an edit that loses the optimistic
// race starts over (its last try locks the post), and each leaves one audit row.
func TestConcurrentEditsOfOnePost(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Edits")
	connectNetwork(t, srv, key, team, "MASTODON")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"E","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"e"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	const edits = 12
	var wg sync.WaitGroup
	codes := make([]int, edits)
	for i := range edits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/post/"+p.ID, fmt.Sprintf(`{"title":"Edit %d"}`, i), "x-api-key", key)
			codes[i] = res.StatusCode
			if res.StatusCode != http.StatusOK {
				t.Log(string(b))
			}
		}()
	}
	wg.Wait()
	for i, c := range codes {
		require.Equal(t, http.StatusOK, c, "edit %d", i)
	}
	var audits int
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = 'post.updated' AND target_id = $1`, p.ID).Scan(&audits))
	require.Equal(t, edits, audits)
}

// An edit that leaves a target as it is (a scheduled post's title) keeps the target's row, version
// and publish job; an edit of what a network gets (its text) makes a new version and one new job.
func TestEditKeepsUnchangedTargets(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Keep")
	connectNetwork(t, srv, key, team, "MASTODON")
	connectNetwork(t, srv, key, team, "TWITTER")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"K","postDate":"`+soon(time.Hour)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON","TWITTER"],"data":{"MASTODON":{"text":"m"},"TWITTER":{"text":"t"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	state := func() (versions map[string]int, jobs int) {
		t.Helper()
		rows, err := srv.Pool.Query(context.Background(), `SELECT network, version FROM publish_targets WHERE post_id = $1`, p.ID)
		require.NoError(t, err)
		versions = map[string]int{}
		for rows.Next() {
			var n string
			var v int
			require.NoError(t, rows.Scan(&n, &v))
			versions[n] = v
		}
		require.NoError(t, rows.Err())
		require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job j JOIN publish_targets t ON t.id::text = j.args->>'target_id'
			WHERE j.kind = 'publish_target' AND t.post_id = $1`, p.ID).Scan(&jobs))
		return versions, jobs
	}
	v0, j0 := state()
	require.Len(t, v0, 2)
	require.Equal(t, 2, j0)

	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, `{"title":"Renamed"}`)
	require.Equal(t, http.StatusOK, st, string(b))
	v1, j1 := state()
	require.Equal(t, v0, v1, "a title's edit leaves the targets' versions")
	require.Equal(t, j0, j1, "and their jobs")

	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, `{"data":{"MASTODON":{"text":"m2"},"TWITTER":{"text":"t"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	v2, j2 := state()
	require.Equal(t, v1["MASTODON"]+1, v2["MASTODON"], "the edited network's target is a new version")
	require.Equal(t, v1["TWITTER"], v2["TWITTER"], "the other keeps its own")
	require.Equal(t, j1+1, j2, "one new job, for the new version")
}

// An edit that keeps a post's upload links (a title's edit) leaves their rows as they are; an edit
// that drops a link soft-deletes it and one that names it again revives it.
func TestEditKeepsUnchangedUploadLinks(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Links")
	connectNetwork(t, srv, key, team, "MASTODON")
	photo, other := uploadPhoto(t, srv, key, team), uploadPhoto(t, srv, key, team)
	both := `{"MASTODON":{"text":"m","uploadIds":["` + photo + `","` + other + `"]}}`
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"L","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
		"socialAccountTypes":["MASTODON"],"data":`+both+`}`)
	require.Equal(t, http.StatusOK, st, string(b))
	links := func() map[string]string { // upload id → row version, or "deleted"
		t.Helper()
		rows, err := srv.Pool.Query(context.Background(), `SELECT upload_id::text, CASE WHEN deleted_at IS NULL THEN xmin::text ELSE 'deleted' END
			FROM post_uploads WHERE post_id = $1`, p.ID)
		require.NoError(t, err)
		out := map[string]string{}
		for rows.Next() {
			var u, v string
			require.NoError(t, rows.Scan(&u, &v))
			out[u] = v
		}
		require.NoError(t, rows.Err())
		return out
	}
	patch := func(body string) {
		t.Helper()
		st, _, b := postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, body)
		require.Equal(t, http.StatusOK, st, string(b))
	}
	l0 := links()
	require.Len(t, l0, 2)
	patch(`{"title":"Renamed"}`)
	require.Equal(t, l0, links(), "a title's edit leaves the links' rows")
	patch(`{"data":{"MASTODON":{"text":"m2","uploadIds":["` + photo + `"]}}}`)
	l2 := links()
	require.Equal(t, l0[photo], l2[photo], "the link kept is left as it is")
	require.Equal(t, "deleted", l2[other])
	patch(`{"data":` + both + `}`)
	l3 := links()
	require.Equal(t, l0[photo], l3[photo])
	require.NotEqual(t, "deleted", l3[other], "named again, the link is live")
}
