package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// A write served from the write cache (publishing's writeCache: one round trip) sees every change
// made behind the cache's back, by SQL or by another instance, to what the write checks and
// answers: the post, its targets, the team's accounts (changed, deleted, added), the uploads used,
// the team. Each such change fails the write's guard (nothing written), and the call made again
// from the database answers as if nothing had been kept: an edit's answer is the GET that follows,
// a refusal is the one the database's state calls for.
func TestWriteCacheSeesChangesBehindIt(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	ctx := context.Background()
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Cache")
	connectNetwork(t, srv, key, team, "MASTODON")
	twitter := connectNetwork(t, srv, key, team, "TWITTER")
	photo := uploadPhoto(t, srv, key, team)
	other, _ := tracedInstance(t, srv) // a second Crier on the same database, with its own cache
	sql := func(q string, args ...any) {
		t.Helper()
		_, err := srv.Pool.Exec(ctx, q, args...)
		require.NoError(t, err)
	}
	body := func(title, networks, data string) string {
		return `{"teamId":"` + team + `","title":"` + title + `","postDate":"` + soon(time.Hour) + `","status":"DRAFT","socialAccountTypes":[` + networks + `],"data":{` + data + `}}`
	}
	both := `"MASTODON","TWITTER"`
	bothData := `"MASTODON":{"text":"m","uploadIds":["` + photo + `"]},"TWITTER":{"text":"x"}`
	create := func(b string) (int, string) {
		t.Helper()
		st, p, out := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, b)
		if st == http.StatusOK { // as the GET that follows
			_, _, got := postJSON(t, srv, http.MethodGet, "/api/v1/post/"+p.ID, key, "")
			require.Equal(t, string(got), string(out))
		}
		return st, p.ID
	}
	st, id := create(body("C", both, bothData)) // fills the team's entry
	require.Equal(t, http.StatusOK, st)
	edit := func(b string) (int, []byte) {
		t.Helper()
		st, _, out := postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+id, key, b)
		if st == http.StatusOK {
			_, _, got := postJSON(t, srv, http.MethodGet, "/api/v1/post/"+id, key, "")
			require.Equal(t, string(got), string(out))
		}
		return st, out
	}
	st, _ = edit(`{"title":"Kept"}`) // fills the post's entry
	require.Equal(t, http.StatusOK, st)

	// the post, by SQL and by another instance: the edit keeps their title
	sql(`UPDATE posts SET title = 'By SQL' WHERE id = $1`, id)
	st, out := edit(`{"status":"DRAFT"}`)
	require.Equal(t, http.StatusOK, st)
	require.Contains(t, string(out), `"title":"By SQL"`)
	res, b := do(t, http.MethodPatch, other+"/api/v1/post/"+id, `{"title":"By the other"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, out = edit(`{"status":"DRAFT"}`)
	require.Equal(t, http.StatusOK, st)
	require.Contains(t, string(out), `"title":"By the other"`)

	// a target (an error a draft's edit clears), an account (as the record shows it), an upload
	// (as the record shows it): each answered as the database has it
	sql(`UPDATE publish_targets SET error = 'boom' WHERE post_id = $1 AND network = 'MASTODON'`, id)
	st, _ = edit(`{"title":"After a target"}`)
	require.Equal(t, http.StatusOK, st)
	sql(`UPDATE social_accounts SET display_name = 'Renamed behind' WHERE id = $1`, twitter)
	st, out = edit(`{"title":"After an account"}`)
	require.Equal(t, http.StatusOK, st)
	require.Contains(t, string(out), "Renamed behind")
	sql(`UPDATE uploads SET width = 9 WHERE id = $1`, photo)
	st, out = edit(`{"title":"After an upload"}`)
	require.Equal(t, http.StatusOK, st)
	require.Contains(t, string(out), `"width":9`)

	// an account added: shown by the next edit's answer, and usable at once (the kept reads would
	// refuse it: a refusal is made again from the database)
	sql(`INSERT INTO social_accounts (organization_id, team_id, type, username) SELECT organization_id, team_id, 'BLUESKY', 'added.behind' FROM social_accounts WHERE id = $1`, twitter)
	st, _ = edit(`{"title":"After an added account"}`)
	require.Equal(t, http.StatusOK, st)
	st, _ = create(body("Added", both, bothData))
	require.Equal(t, http.StatusOK, st)
	sql(`INSERT INTO social_accounts (organization_id, team_id, type, username) SELECT organization_id, team_id, 'THREADS', 'added.behind' FROM social_accounts WHERE id = $1`, twitter)
	st, _ = create(body("Threads", `"THREADS"`, `"THREADS":{"text":"t"}`))
	require.Equal(t, http.StatusOK, st)
	st, out = edit(`{"socialAccountTypes":["MASTODON","TWITTER","THREADS"],"data":{` + bothData + `,"THREADS":{"text":"t"}}}`)
	require.Equal(t, http.StatusOK, st, string(out))
	st, _ = edit(`{"socialAccountTypes":[` + both + `],"data":{` + bothData + `}}`)
	require.Equal(t, http.StatusOK, st)

	// the photo deleted, then an account: neither a new post nor an edit (the entries warm) may use it
	refusedAfter := func(change, arg, data, editBody string) {
		t.Helper()
		st, _ := create(body("Before", both, data))
		require.Equal(t, http.StatusOK, st)
		st, _ = edit(`{"title":"Before"}`)
		require.Equal(t, http.StatusOK, st)
		sql(change, arg)
		st, _ = create(body("After", both, data))
		require.Equal(t, http.StatusBadRequest, st, change)
		st, _ = edit(editBody)
		require.Equal(t, http.StatusBadRequest, st, change)
	}
	refusedAfter(`UPDATE uploads SET deleted_at = now() WHERE id = $1`, photo, bothData, `{"title":"After"}`)
	noPhoto := `"MASTODON":{"text":"m"},"TWITTER":{"text":"x"}`
	st, _ = edit(`{"data":{` + noPhoto + `}}`)
	require.Equal(t, http.StatusOK, st)
	refusedAfter(`UPDATE social_accounts SET deleted_at = now() WHERE id = $1`, twitter, noPhoto, `{"title":"After","socialAccountTypes":[`+both+`]}`)

	// the team deleted: no new post in it
	st, _ = create(body("Mastodon", `"MASTODON"`, `"MASTODON":{"text":"m"}`))
	require.Equal(t, http.StatusOK, st)
	sql(`UPDATE teams SET deleted_at = now() WHERE id = $1`, team)
	st, _ = create(body("No team", `"MASTODON"`, `"MASTODON":{"text":"m"}`))
	require.Equal(t, http.StatusNotFound, st)
}

// The write cache's entries serve only the organization that read them: another organization's
// edit of the post, or post in the team, is a 404 as without the cache.
func TestWriteCacheIsPerOrganization(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key, stranger := apiKeyFor(t, srv), apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Mine")
	connectNetwork(t, srv, key, team, "MASTODON")
	body := `{"teamId":"` + team + `","title":"T","postDate":"` + soon(time.Hour) + `","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"m"}}}`
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, body)
	require.Equal(t, http.StatusOK, st, string(b))
	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, `{"title":"Mine"}`)
	require.Equal(t, http.StatusOK, st, string(b))
	st, _, b = postJSON(t, srv, http.MethodPost, "/api/v1/post", key, body) // the team's entry, used
	require.Equal(t, http.StatusOK, st, string(b))

	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, stranger, `{"title":"Theirs"}`)
	require.Equal(t, http.StatusNotFound, st, string(b))
	st, _, b = postJSON(t, srv, http.MethodPost, "/api/v1/post", stranger, body)
	require.Equal(t, http.StatusNotFound, st, string(b))
	require.Equal(t, "Mine", getPost(t, srv, key, p.ID).Title)
}
