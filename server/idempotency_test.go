package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

// countRows counts a table's rows of the organization a key or cookie acts for (by team name or
// post title: the tests give each their own).
func countRows(t *testing.T, srv *servertest.Server, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, srv.Pool.QueryRow(context.Background(), query, args...).Scan(&n))
	return n
}

// The same key and body twice: one post; the second answer is the first (status and body) with
// Idempotent-Replayed; the same key with another body is a 400 that says so; a key over 255
// characters is a 400 at the header.
func TestIdempotencyReplaysPostCreate(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Idem")
	connectNetwork(t, srv, key, team, "MASTODON")
	body := `{"teamId":"` + team + `","title":"Once","postDate":"` + soon(time.Hour) + `","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"once"}}}`

	res1, b1 := do(t, http.MethodPost, srv.URL+"/api/v1/post", body, "x-api-key", key, "Idempotency-Key", "post-1")
	require.Equal(t, http.StatusOK, res1.StatusCode, string(b1))
	require.Empty(t, res1.Header.Get("Idempotent-Replayed"))
	// The same body with other spacing and key order is the same request.
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &v))
	again, _ := json.MarshalIndent(v, "", "    ")
	res2, b2 := do(t, http.MethodPost, srv.URL+"/api/v1/post", string(again), "x-api-key", key, "Idempotency-Key", "post-1")
	require.Equal(t, res1.StatusCode, res2.StatusCode)
	require.Equal(t, string(b1), string(b2))
	require.Equal(t, "true", res2.Header.Get("Idempotent-Replayed"))
	require.Equal(t, res1.Header.Get("Content-Type"), res2.Header.Get("Content-Type"))
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM posts WHERE team_id = $1`, team))

	other := strings.Replace(body, `"once"}`, `"twice"}`, 1)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/post", other, "x-api-key", key, "Idempotency-Key", "post-1")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, 400, e.StatusCode)
	require.Contains(t, e.Message, "already used with a different request")
	require.Equal(t, []any{"Idempotency-Key"}, e.Issues[0].Path)
	// Another operation with the key is another request too.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Other"}`, "x-api-key", key, "Idempotency-Key", "post-1")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM posts WHERE team_id = $1`, team))

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post", other, "x-api-key", key, "Idempotency-Key", strings.Repeat("k", 256))
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e = decodeError(t, b)
	require.Equal(t, []any{"Idempotency-Key"}, e.Issues[0].Path)
	require.Equal(t, app.IssueTooBig, e.Issues[0].Code)

	// Without a key, or with a fresh one, each call creates.
	for _, h := range [][]string{{"x-api-key", key}, {"x-api-key", key}, {"x-api-key", key, "Idempotency-Key", "post-2"}} {
		res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post", body, h...)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}
	require.Equal(t, 4, countRows(t, srv, `SELECT count(*) FROM posts WHERE team_id = $1`, team))
}

// A 4xx answer of the operation is kept like a success (Stripe's semantics); refusals of the
// contract check are not (the operation never started), so the corrected request may use the key.
func TestIdempotencyKeepsOperationRefusals(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	missing := `{"teamId":"00000000-0000-0000-0000-000000000000","title":"x","postDate":"` + soon(time.Hour) + `","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`
	res1, b1 := do(t, http.MethodPost, srv.URL+"/api/v1/post", missing, "x-api-key", key, "Idempotency-Key", "refused")
	require.GreaterOrEqual(t, res1.StatusCode, 400, string(b1))
	require.Less(t, res1.StatusCode, 500, string(b1))
	res2, b2 := do(t, http.MethodPost, srv.URL+"/api/v1/post", missing, "x-api-key", key, "Idempotency-Key", "refused")
	require.Equal(t, res1.StatusCode, res2.StatusCode)
	require.Equal(t, string(b1), string(b2))
	require.Equal(t, "true", res2.Header.Get("Idempotent-Replayed"))

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"ab"}`, "x-api-key", key, "Idempotency-Key", "contract")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Fixed"}`, "x-api-key", key, "Idempotency-Key", "contract")
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}

// Twenty duplicates at once: one team is created, every caller gets the same answer.
func TestIdempotencyConcurrentDuplicates(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	const n = 20
	type answer struct {
		status   int
		body     string
		replayed bool
	}
	answers := make([]answer, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Crowd"}`, "x-api-key", key, "Idempotency-Key", "crowd")
			answers[i] = answer{res.StatusCode, string(b), res.Header.Get("Idempotent-Replayed") == "true"}
		}()
	}
	start.Done()
	wg.Wait()
	replayed := 0
	for i := range n {
		require.Equal(t, http.StatusOK, answers[i].status, answers[i].body)
		require.Equal(t, answers[0].body, answers[i].body)
		if answers[i].replayed {
			replayed++
		}
	}
	require.Equal(t, n-1, replayed, "one request ran the operation, the others replayed it")
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM teams WHERE name = 'Crowd'`))
}

// Keys are per organization: B sending A's key string creates its own team. After 24 hours the
// key is forgotten: the same request runs again.
func TestIdempotencyScopeAndExpiry(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	keyA, keyB := apiKeyFor(t, srv), apiKeyFor(t, srv)
	create := func(key string) string {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Shared"}`, "x-api-key", key, "Idempotency-Key", "same-string")
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var team struct{ ID, OrganizationID string }
		require.NoError(t, json.Unmarshal(b, &team))
		return team.ID
	}
	a, b := create(keyA), create(keyB)
	require.NotEqual(t, a, b)
	require.Equal(t, a, create(keyA))
	require.Equal(t, 2, countRows(t, srv, `SELECT count(*) FROM teams WHERE name = 'Shared'`))

	_, err := srv.Pool.Exec(context.Background(), `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second'`)
	require.NoError(t, err)
	again := create(keyA)
	require.NotEqual(t, a, again)
	require.Equal(t, again, create(keyA))
	require.Equal(t, 3, countRows(t, srv, `SELECT count(*) FROM teams WHERE name = 'Shared'`))
}

// A multipart upload sent again with the same key (another boundary, as a client library makes)
// answers the first upload; another file with the key is a 400.
func TestIdempotencyUploadMultipart(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	send := func(data []byte) (*http.Response, []byte) {
		var body bytes.Buffer
		w := multipart.NewWriter(&body) // a random boundary each time
		fw, err := w.CreateFormFile("file", "pic.png")
		require.NoError(t, err)
		_, _ = fw.Write(data)
		require.NoError(t, w.Close())
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/upload", &body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("x-api-key", key)
		req.Header.Set("Idempotency-Key", "upload-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	png := mediatest.PNG(8, 8)
	res1, b1 := send(png)
	require.Equal(t, http.StatusOK, res1.StatusCode, string(b1))
	res2, b2 := send(png)
	require.Equal(t, http.StatusOK, res2.StatusCode, string(b2))
	require.Equal(t, "true", res2.Header.Get("Idempotent-Replayed"))
	require.Equal(t, decodeUpload(t, b1).ID, decodeUpload(t, b2).ID)
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM uploads WHERE organization_id = $1`, decodeUpload(t, b1).OrganizationID))

	res, b := send(mediatest.PNG(9, 9))
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM uploads WHERE organization_id = $1`, decodeUpload(t, b1).OrganizationID))
}

// The issue's defect: a SCHEDULED Discord post retried with the same key (the first answer lost)
// made two messages. Now one post, one message on the network (the sandbox's control API).
func TestIdempotencyScheduledDiscordPostRetried(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Guild")
	connectNetwork(t, srv, key, team, "DISCORD")
	_, acct := byType(t, srv, key, "DISCORD", team)
	channel := acct.Channels[0].ID
	body := `{"teamId":"` + team + `","title":"Ping","postDate":"` + soon(time.Second) + `","status":"SCHEDULED","socialAccountTypes":["DISCORD"],
		"data":{"DISCORD":{"channelId":"` + channel + `","text":"Once only"}}}`
	var ids []string
	for range 2 {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/post", body, "x-api-key", key, "Idempotency-Key", "discord-ping")
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var p postAnswer
		require.NoError(t, json.Unmarshal(b, &p))
		ids = append(ids, p.ID)
	}
	require.Equal(t, ids[0], ids[1])
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM posts WHERE team_id = $1`, team))
	waitPost(t, srv, key, ids[0], "POSTED")
	// Give a second publication, were there one, time to land.
	time.Sleep(2 * time.Second)
	sent := sandboxOf(t, srv, "discord").count(http.MethodPost, "/api/v10/channels/"+channel+"/messages")
	held := srv.Sandbox.Held(app.Discord, sandbox.KindPost)
	require.Equal(t, 1, sent, "one message sent to Discord")
	require.Len(t, held, 1)
	require.Equal(t, "Once only", held[0].Text)
}

// The dashboard's session cookie on /api/v1 honours the key as an API key does.
func TestIdempotencyWithSessionCookie(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	cookie := signupCookie(t, srv)
	var ids []string
	for range 2 {
		res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Cookie"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin", "Idempotency-Key", "cookie-1")
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var team struct{ ID string }
		require.NoError(t, json.Unmarshal(b, &team))
		ids = append(ids, team.ID)
	}
	require.Equal(t, ids[0], ids[1])
	require.Equal(t, 1, countRows(t, srv, `SELECT count(*) FROM teams WHERE name = 'Cookie'`))
}
