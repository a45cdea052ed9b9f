package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media/mediatest"
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
	upload := func() string {
		res, b := postFile(t, srv, key, team, "", mediatest.PNG(8, 8))
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		return decodeUpload(t, b).ID
	}
	photo, other := upload(), upload()
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
