package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// Every API answer goes out with its Content-Length, not chunked: a post's record is past the 2 KB
// net/http sends without a length (api/sized.go for the generated answers, writeJSON for the
// hand-written ones), and a small answer or an error keeps its length too.
func TestAPIAnswersCarryTheirLength(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Lengths")
	connectNetwork(t, srv, key, team, "MASTODON")
	photo := uploadPhoto(t, srv, key, team)
	long := make([]byte, 900)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/post", `{"teamId":"`+team+`","title":"`+string(long)+`","postDate":"`+soon(time.Hour)+`","status":"DRAFT",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"m","uploadIds":["`+photo+`"]}}}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var post struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &post))
	id := post.ID
	calls := []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/post/" + id, ""},
		{http.MethodPatch, "/api/v1/post/" + id, `{"title":"` + string(long) + `!"}`},
		{http.MethodGet, "/api/v1/team/" + team, ""},
		{http.MethodGet, "/api/v1/post/00000000-0000-0000-0000-000000000000", ""},
		{http.MethodPost, "/api/v1/post", `{"teamId":1}`},
	}
	require.Greater(t, len(b), 2048)
	require.Equal(t, int64(len(b)), res.ContentLength, "POST post")
	require.Empty(t, res.TransferEncoding, "POST post")
	for _, c := range calls {
		res, b := do(t, c.method, srv.URL+c.path, c.body, "x-api-key", key)
		require.Equal(t, int64(len(b)), res.ContentLength, "%s %s: %d %s", c.method, c.path, res.StatusCode, b)
		require.Empty(t, res.TransferEncoding, "%s %s", c.method, c.path)
	}
}
