package server_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// GET post and GET post list answer a post from the API's cache only while its version is the
// one the cache holds (api/post_cache.go, store/post_version.go): after each thing a record shows
// changes — written by SQL or by another instance, so this instance's cache hears of nothing — the
// next answers are byte for byte those of an uncached read (GET by reference key, which never uses
// the cache), and the one after is answered from the cache again (one statement). The reader is a
// second Crier on the same database whose statements are counted.
func TestPostCacheFollowsEveryChange(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	ctx := context.Background()
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Cache")
	masto := connectNetwork(t, srv, key, team, "MASTODON")
	connectNetwork(t, srv, key, team, "TWITTER")
	photo, other := uploadPhoto(t, srv, key, team), uploadPhoto(t, srv, key, team)
	create := func(ref, body string) string {
		t.Helper()
		st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","referenceKey":"`+ref+`","postDate":"`+soon(time.Hour)+`",`+body+`}`)
		require.Equal(t, http.StatusOK, st, string(b))
		return p.ID
	}
	id := create("cache-a", `"title":"A","status":"DRAFT","socialAccountTypes":["MASTODON","TWITTER"],
		"data":{"MASTODON":{"text":"m","uploadIds":["`+photo+`"]},"TWITTER":{"text":"x"}}`)
	create("cache-b", `"title":"B","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"b","uploadIds":["`+photo+`"]}}`)
	base, trips := tracedInstance(t, srv)
	for range 2 { // warm: the key's cache and the instance's first statements, counted in no check
		res, b := do(t, http.MethodGet, base+"/api/v1/team/"+team, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}

	uncached := func(ref string) string {
		t.Helper()
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/post/reference-key/"+ref, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		return string(b)
	}
	read := func(path string) (string, int64) {
		t.Helper()
		trips.stmts.Store(0)
		res, b := do(t, http.MethodGet, base+path, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		return string(b), trips.stmts.Load()
	}
	last := ""
	check := func(step string) {
		t.Helper()
		want := uncached("cache-a")
		// newest first: B, then A
		wantList := `{"items":[` + strings.TrimSuffix(uncached("cache-b"), "\n") + "," + strings.TrimSuffix(want, "\n") + `],"total":2}` + "\n"
		require.NotEqual(t, last, wantList, "%s: the records show the change", step)
		last = wantList
		// GET post twice first: the entry its read kept (at the version hashed from the rows read)
		// must be the one the version statement then finds, before a list's read keeps its own
		for i, how := range []string{"read", "cached"} {
			got, n := read("/api/v1/post/" + id)
			require.Equal(t, want, got, "%s: GET post %s", step, how)
			if i == 1 {
				require.EqualValues(t, 1, n, "%s: GET post from the cache: its version only", step)
			}
		}
		for i, how := range []string{"read", "cached"} {
			got, n := read("/api/v1/post?teamId=" + team)
			require.Equal(t, wantList, got, "%s: GET post list %s", step, how)
			if i == 1 {
				require.EqualValues(t, 1, n, "%s: GET post list from the cache: the page's versions only", step)
			}
		}
		// the list's version of A is GET post's (else the list kept A anew at its own, which GET
		// post's version statement would not find)
		got, n := read("/api/v1/post/" + id)
		require.Equal(t, want, got, "%s: GET post after the list", step)
		require.EqualValues(t, 1, n, "%s: GET post after the list: from the cache", step)
	}
	exec := changeRows(t, srv)

	check("first read")
	// the post, edited by another instance
	st, _, b := postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+id, key, `{"title":"A, renamed"}`)
	require.Equal(t, http.StatusOK, st, string(b))
	check("post edited")
	// a target's status and error
	exec(`UPDATE publish_targets SET status = 'FAILED', error = 'Boom', error_verbose = '{"code":"X","errorMessage":"boom"}'
		WHERE post_id = $1 AND network = 'MASTODON' AND kind = 'POST'`, id)
	check("target failed")
	exec(`UPDATE organizations SET show_verbose_errors = NOT show_verbose_errors WHERE id = (SELECT organization_id FROM posts WHERE id = $1)`, id)
	check("verbose errors toggled")
	// a target removed, then the same row back
	var saved string
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT row_to_json(t)::text FROM publish_targets t WHERE post_id = $1 AND network = 'TWITTER'`, id).Scan(&saved))
	exec(`DELETE FROM publish_targets WHERE post_id = $1 AND network = 'TWITTER'`, id)
	check("target removed")
	exec(`INSERT INTO publish_targets SELECT * FROM json_populate_record(NULL::publish_targets, $1::json)`, saved)
	check("target back")
	// the account a target names: renamed, then disconnected
	exec(`UPDATE social_accounts SET display_name = 'Renamed' WHERE id = $1`, masto)
	check("account renamed")
	res, b := do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", `{"type":"MASTODON","teamId":"`+team+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	check("account disconnected")
	// upload links: one added, one removed; an upload changed, then deleted
	exec(`INSERT INTO post_uploads (post_id, upload_id) VALUES ($1, $2)`, id, other)
	check("upload linked")
	exec(`UPDATE post_uploads SET deleted_at = now() WHERE post_id = $1 AND upload_id = $2`, id, photo)
	check("upload unlinked")
	exec(`UPDATE uploads SET width = 16, height = 16 WHERE id = $1`, other)
	check("upload changed")
	exec(`UPDATE uploads SET deleted_at = now() WHERE id = $1`, other)
	check("upload deleted")
	// B's upload (A links none now): seen by the list, whose B no GET post reads first
	exec(`UPDATE uploads SET width = 32, height = 32 WHERE id = $1`, photo)
	check("the other post's upload changed")
	exec(`UPDATE uploads SET deleted_at = now() WHERE id = $1`, photo)
	check("the other post's upload deleted")
}

// A record answered from the cache is the bytes of a cold read: a new instance's first answer
// (whose cache is empty) equals the warm one's second, which was answered from its cache.
func TestPostCacheHitIsAColdRead(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Cold")
	connectNetwork(t, srv, key, team, "MASTODON")
	photo := uploadPhoto(t, srv, key, team)
	var ids []string
	for _, title := range []string{"One", "Two <&>", "Three"} {
		st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"`+title+`","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
			"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"é \u2028","uploadIds":["`+photo+`"]}},"firstComment":{"MASTODON":"c"}}`)
		require.Equal(t, http.StatusOK, st, string(b))
		ids = append(ids, p.ID)
	}
	paths := []string{"/api/v1/post?teamId=" + team, "/api/v1/post?teamId=" + team + "&limit=2&offset=1&orderBy=postDate&order=ASC"}
	for _, id := range ids {
		paths = append(paths, "/api/v1/post/"+id)
	}
	warm, trips := tracedInstance(t, srv)
	for _, p := range paths {
		do(t, http.MethodGet, warm+p, "", "x-api-key", key)
	}
	cold, _ := tracedInstance(t, srv)
	for _, p := range paths {
		trips.stmts.Store(0)
		res, hit := do(t, http.MethodGet, warm+p, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(hit))
		require.EqualValues(t, 1, trips.stmts.Load(), "%s: answered from the cache", p)
		require.Equal(t, strconv.Itoa(len(hit)), res.Header.Get("Content-Length"), p)
		res, fresh := do(t, http.MethodGet, cold+p, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(fresh))
		require.Equal(t, string(fresh), string(hit), p)
	}
}

// changeRows answers a function that runs a statement on srv's database behind the readers'
// backs, which must change a row.
func changeRows(t *testing.T, srv *servertest.Server) func(sql string, args ...any) {
	return func(sql string, args ...any) {
		t.Helper()
		tag, err := srv.Pool.Exec(context.Background(), sql, args...)
		require.NoError(t, err, sql)
		require.Positive(t, tag.RowsAffected(), sql)
	}
}
