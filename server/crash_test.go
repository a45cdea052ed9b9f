package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/store/storetest"
)

// A crash heals by itself: the `crier` process is killed outright (SIGKILL, no shutdown) several
// times while ~300 posts × 3 networks publish, and restarted; with production's recovery settings
// (River rescues jobs stuck over a minute, the publish lease lapses a minute after the last
// heartbeat) every target is final within 2 minutes of the last restart. The networks are
// `crier sandbox`, a process that outlives Crier's, and they answer slowly after acting, so kills
// lose answers of posts that exist (reconciled with Find). The networks hold exactly one post per
// target (none lost, none duplicated) and each post has one post.published event.
func TestCrashedProcessHeals(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a crier process; heals in up to 2 minutes")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "crier")
	build := exec.Command("go", "build", "-o", bin, "github.com/crier/crier/cmd/crier")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	pool, dbURL := storetest.NewDB(t)
	sandboxAddr, crierAddr := freeAddr(t), freeAddr(t)
	sandboxURL, base := "http://"+sandboxAddr, "http://"+crierAddr
	logs := t.TempDir()
	t.Cleanup(func() {
		if t.Failed() {
			dumpLogs(t, logs)
		}
	})
	env := append(os.Environ(), "DATABASE_URL="+dbURL+"&pool_max_conns=12" /* storetest's URL has a query */, "ADDR="+crierAddr, "BASE_URL="+base,
		"CRIER_DATA_DIR="+t.TempDir(), "SANDBOX_URL="+sandboxURL, "SANDBOX_ADDR="+sandboxAddr, "ALLOW_PRIVATE_URLS=1",
		"CRIER_SECRET="+strings.Repeat("k", 32), "CRIER_ENV=development", "CRIER_RATE_LIMITS=off")
	start := func(name string, args ...string) *exec.Cmd {
		f, err := os.Create(filepath.Join(logs, name+".log"))
		require.NoError(t, err)
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = f.Close() })
		return cmd
	}
	ready := func(url string) {
		deadline := time.Now().Add(30 * time.Second)
		for {
			res, err := http.Get(url)
			if err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					return
				}
			}
			require.True(t, time.Now().Before(deadline), "%s not ready: %v", url, err)
			time.Sleep(50 * time.Millisecond)
		}
	}
	start("sandbox", "sandbox")
	ready(sandboxURL + "/sandbox/")
	runs := 0
	serve := func() *exec.Cmd {
		runs++
		cmd := start(fmt.Sprintf("serve-%d", runs), "serve")
		ready(base + "/api/v1")
		return cmd
	}
	crier := serve()

	key := crashAPIKey(t, base)
	team := crashTeam(t, base, key)
	nets := killTestNetworks()
	require.Equal(t, []app.Network{app.Mastodon, app.Twitter, app.Threads}, nets)
	for _, n := range nets {
		body := `{"type":"` + string(n) + `","teamId":"` + team + `","redirectUrl":"https://app.example/"`
		if n == app.Mastodon {
			body += `,"serverUrl":"` + sandboxURL + `/sandbox/mastodon"`
		}
		res, b := do(t, http.MethodPost, base+"/api/v1/social-account/connect", body+"}", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var c struct{ URL string }
		require.NoError(t, json.Unmarshal(b, &c))
		require.True(t, strings.HasPrefix(c.URL, sandboxURL), "%s connects through %s, not SANDBOX_URL", n, c.URL)
		require.Equal(t, "true", approve(t, c.URL).Query().Get("success"))
		res, b = do(t, http.MethodPost, sandboxURL+"/sandbox/"+sandbox.Segment(n)+"/_sandbox/knobs", `{"latencyMs":100,"answerLatencyMs":150}`)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}
	ctx := context.Background()
	_, err = pool.Exec(ctx, `UPDATE organizations SET plan = 'ENTERPRISE'`) // the monthly quota
	require.NoError(t, err)

	// Every post goes to Mastodon and to X or Threads, within their daily caps (300, 100, 250): 600
	// targets. All are due at once, after they are all made: the kills fall while they publish.
	const posts = 300
	netsOf := func(i int) []app.Network {
		if i%3 == 0 {
			return []app.Network{app.Mastodon, app.Twitter}
		}
		return []app.Network{app.Mastodon, app.Threads}
	}
	due := time.Now().Add(40 * time.Second)
	work := make(chan int, posts)
	for i := range posts {
		work <- i
	}
	close(work)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for i := range work {
				text := fmt.Sprintf("crash test post %03d", i)
				types, data := "", ""
				for j, n := range netsOf(i) {
					if j > 0 {
						types, data = types+",", data+","
					}
					types += `"` + string(n) + `"`
					data += `"` + string(n) + `":{"text":"` + text + `"}`
				}
				res, b := do(t, http.MethodPost, base+"/api/v1/post", `{"teamId":"`+team+`","title":"`+text+`","postDate":"`+due.UTC().Format(time.RFC3339Nano)+`","status":"SCHEDULED",
					"socialAccountTypes":[`+types+`],"data":{`+data+`}}`, "x-api-key", key)
				if res.StatusCode != http.StatusOK {
					t.Errorf("post %d: %d %s", i, res.StatusCode, b)
					return
				}
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed())
	require.True(t, time.Now().Before(due), "making the posts took longer than 40 s")
	time.Sleep(time.Until(due))

	killedMidAttempt := map[string]bool{} // targets whose attempt a kill interrupted
	for range 3 {
		time.Sleep(time.Duration(1500+rand.IntN(1500)) * time.Millisecond)
		require.NoError(t, crier.Process.Signal(syscall.SIGKILL))
		_ = crier.Wait()
		rows, err := pool.Query(ctx, `SELECT id::text FROM publish_targets WHERE attempt_started_at IS NOT NULL`)
		require.NoError(t, err)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		for _, id := range ids {
			killedMidAttempt[id] = true
		}
		crier = serve()
	}
	restarted := time.Now()
	require.NotEmpty(t, killedMidAttempt, "no kill interrupted an attempt: the test proves nothing")

	deadline := restarted.Add(2 * time.Minute)
	for {
		var left int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE status NOT IN ('POSTED', 'ERROR', 'DELETED')`).Scan(&left))
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d targets not final 2 minutes after the last restart", left)
		}
		time.Sleep(500 * time.Millisecond)
	}
	var reconciled int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE attempts > 1`).Scan(&reconciled))
	t.Logf("%d posts (600 targets) final %s after the last restart; %d targets' attempts interrupted by the kills; %d targets took more than one attempt",
		posts, time.Since(restarted).Round(time.Second), len(killedMidAttempt), reconciled)

	for _, n := range nets {
		res, b := do(t, http.MethodGet, sandboxURL+"/sandbox/"+sandbox.Segment(n)+"/_sandbox", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var st struct {
			Held  []sandbox.Held
			Calls []sandbox.Call
		}
		require.NoError(t, json.Unmarshal(b, &st))
		if n == app.Mastodon {
			finds := 0
			for _, c := range st.Calls {
				if c.Method == http.MethodGet && strings.HasSuffix(c.Path, "/statuses") {
					finds++
				}
			}
			t.Logf("Mastodon: %d lookups (Find) of attempts the kills interrupted", finds)
			require.Positive(t, finds, "no attempt was reconciled")
		}
		perText := map[string]int{}
		for _, h := range st.Held {
			if h.Kind == sandbox.KindPost && h.DeletedAt == nil {
				perText[h.Text]++
			}
		}
		want := 0
		for i := range posts {
			if !slices.Contains(netsOf(i), n) {
				continue
			}
			want++
			text := fmt.Sprintf("crash test post %03d", i)
			require.Equal(t, 1, perText[text], "%s: %q held %d times", n, text, perText[text])
		}
		require.Len(t, perText, want, n)
	}
	var notPosted, events int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE status <> 'POSTED'`).Scan(&notPosted))
	require.Zero(t, notPosted)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM events WHERE kind = 'post.published' GROUP BY payload->>'id' HAVING count(*) = 1) one`).Scan(&events))
	require.Equal(t, posts, events, "one post.published per post")
}

func dumpLogs(t *testing.T, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > 4000 {
			b = b[len(b)-4000:]
		}
		t.Logf("--- %s\n%s", filepath.Base(f), bytes.TrimSpace(b))
	}
}

// crashAPIKey signs up through the API and makes a key with the session.
func crashAPIKey(t *testing.T, base string) string {
	res, b := do(t, http.MethodPost, base+"/api/v1/auth/signup", `{"email":"`+newEmail()+`","password":"0123456789","firstName":"Kill","organizationName":"Crash"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			cookie = c.Name + "=" + c.Value
		}
	}
	res, b = do(t, http.MethodPost, base+"/api/v1/api-key", `{"name":"crash"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var k keyAnswer
	require.NoError(t, json.Unmarshal(b, &k))
	return k.Key
}

func crashTeam(t *testing.T, base, key string) string {
	res, b := do(t, http.MethodPost, base+"/api/v1/team", `{"name":"Crash"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var team struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &team))
	return team.ID
}
