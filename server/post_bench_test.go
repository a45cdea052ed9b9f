package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/server/servertest"
)

// BenchmarkPublishDueTogether publishes N posts (CRIER_BENCH_POSTS, default 200; CRIER_BENCH_WORKERS
// publish workers, default the production queue's) due at the same
// moment through the whole pipeline to the sandbox (every network whose adapter publishes on this
// branch), and in the same run River's own throughput of no-op jobs with the same workers and fetch
// settings. It prints a table: time until all POSTED, posts/s, lateness (postDate → the worker's
// start of the attempt) p50/p99, River's raw jobs/s and the ratio.
func BenchmarkPublishDueTogether(b *testing.B) {
	n := 200
	if v, err := strconv.Atoi(os.Getenv("CRIER_BENCH_POSTS")); err == nil && v > 0 {
		n = v
	}
	workers := jobs.Queues[jobs.QueuePublish].MaxWorkers // as configured in production (CRIER_BENCH_WORKERS overrides)
	if v, err := strconv.Atoi(os.Getenv("CRIER_BENCH_WORKERS")); err == nil && v > 0 {
		workers = v
	}
	for i := 0; i < b.N; i++ {
		runPublishBench(b, n, workers)
	}
}

func tbDo(tb testing.TB, method, url, body string, header ...string) (*http.Response, []byte) {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, out
}

func tbMust(tb testing.TB, res *http.Response, b []byte, status int) {
	tb.Helper()
	if res.StatusCode != status {
		tb.Fatalf("%s %s: %d %s", res.Request.Method, res.Request.URL, res.StatusCode, b)
	}
}

type benchNoopArgs struct{}

func (benchNoopArgs) Kind() string { return "bench_noop" }

type benchNoopWorker struct {
	river.WorkerDefaults[benchNoopArgs]
}

func (benchNoopWorker) Work(context.Context, *river.Job[benchNoopArgs]) error { return nil }

func runPublishBench(b *testing.B, n, workers int) {
	b.StopTimer()
	ctx := context.Background()
	srv := servertest.Start(b, servertest.Options{NoWorkers: true, MaxConns: workers + 10})
	res, body := tbDo(b, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+newEmail()+`","password":"0123456789","firstName":"Bench"}`)
	tbMust(b, res, body, http.StatusCreated)
	cookie := ""
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			cookie = c.Name + "=" + c.Value
		}
	}
	res, body = tbDo(b, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"bench"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	tbMust(b, res, body, http.StatusCreated)
	var k struct{ Key string }
	_ = json.Unmarshal(body, &k)
	if _, err := srv.Pool.Exec(ctx, `UPDATE organizations SET plan = 'ENTERPRISE'`); err != nil {
		b.Fatal(err)
	}
	principal, err := srv.Service.AuthenticateAPIKey(ctx, k.Key)
	if err != nil {
		b.Fatal(err)
	}
	pctx := app.WithPrincipal(ctx, principal)

	// Enough teams that every account stays under its network's daily cap.
	nets := killTestNetworks()
	perTeam := 250
	for _, net := range nets {
		perTeam = min(perTeam, app.DailyCapsOf(net).Posts)
	}
	var teams []string
	for i := 0; i < (n+perTeam-1)/perTeam; i++ {
		res, body := tbDo(b, http.MethodPost, srv.URL+"/api/v1/team", fmt.Sprintf(`{"name":"Bench %d"}`, i), "x-api-key", k.Key)
		tbMust(b, res, body, http.StatusOK)
		var team struct{ ID string }
		_ = json.Unmarshal(body, &team)
		for _, net := range nets {
			cb := `{"type":"` + string(net) + `","teamId":"` + team.ID + `","redirectUrl":"https://app.example/"`
			if net == app.Mastodon {
				cb += `,"serverUrl":"` + srv.URL + `/sandbox/mastodon"`
			}
			res, body := tbDo(b, http.MethodPost, srv.URL+"/api/v1/social-account/connect", cb+"}", "x-api-key", k.Key)
			tbMust(b, res, body, http.StatusOK)
			var out struct{ URL string }
			_ = json.Unmarshal(body, &out)
			res, body = tbDo(b, http.MethodGet, out.URL+"&approve=1", "")
			tbMust(b, res, body, http.StatusFound)
			res, body = tbDo(b, http.MethodGet, res.Header.Get("Location"), "")
			tbMust(b, res, body, http.StatusFound)
		}
		teams = append(teams, team.ID)
	}

	lead := 3*time.Second + time.Duration(n)*15*time.Millisecond
	due := time.Now().Add(lead).UTC().Truncate(time.Millisecond)
	dueStr := due.Format(time.RFC3339Nano)
	st := app.PostScheduled
	created := time.Now()
	for i := 0; i < n; i++ {
		data := app.PostData{}
		for _, net := range nets {
			raw, _ := json.Marshal(map[app.Network]map[string]string{net: {"text": fmt.Sprintf("bench post %d", i)}})
			var add app.PostData
			_ = json.Unmarshal(raw, &add)
			merged := map[string]json.RawMessage{}
			for _, d := range []app.PostData{data, add} {
				m := map[string]json.RawMessage{}
				bb, _ := json.Marshal(d)
				_ = json.Unmarshal(bb, &m)
				for k, v := range m {
					merged[k] = v
				}
			}
			bb, _ := json.Marshal(merged)
			data = app.PostData{}
			_ = json.Unmarshal(bb, &data)
		}
		title := fmt.Sprintf("Bench %d", i)
		if _, err := srv.Service.CreatePost(pctx, app.PostParams{TeamID: teams[i/perTeam], Title: &title, PostDate: &dueStr, Status: &st,
			SocialAccountTypes: nets, Data: &data}); err != nil {
			b.Fatal(err)
		}
	}
	if time.Now().After(due) {
		b.Logf("warning: creating %d posts took %s, past their date (lead %s)", n, time.Since(created), lead)
	}

	client, err := jobs.NewClient(srv.Pool, srv.Service, jobs.Options{Work: true, PublishWorkers: workers})
	if err != nil {
		b.Fatal(err)
	}
	wctx, stopPromote := context.WithCancel(ctx)
	go jobs.PromoteDue(wctx, srv.Pool, nil)
	if err := client.Start(ctx); err != nil {
		b.Fatal(err)
	}
	targets := n * len(nets)
	b.StartTimer()
	deadline := time.Now().Add(lead + 10*time.Minute)
	for {
		var posted int
		if err := srv.Pool.QueryRow(ctx, `SELECT count(*) FROM publish_targets WHERE status = 'POSTED'`).Scan(&posted); err != nil {
			b.Fatal(err)
		}
		if posted == targets {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d targets POSTED after 10 min", posted, targets)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	var last time.Time
	if err := srv.Pool.QueryRow(ctx, `SELECT max(posted_at) FROM publish_targets`).Scan(&last); err != nil {
		b.Fatal(err)
	}
	rows, err := srv.Pool.Query(ctx, `SELECT extract(epoch FROM attempted_at - scheduled_at) FROM river_job WHERE kind = 'publish_target' AND state = 'completed'`)
	if err != nil {
		b.Fatal(err)
	}
	lateness, err := pgx.CollectRows(rows, pgx.RowTo[float64])
	if err != nil {
		b.Fatal(err)
	}
	sort.Float64s(lateness)
	pct := func(p float64) float64 {
		if len(lateness) == 0 {
			return 0
		}
		return lateness[min(len(lateness)-1, int(p*float64(len(lateness))))]
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	_ = client.Stop(sctx)
	cancel()
	stopPromote()
	total := last.Sub(due)
	postsPerSec := float64(n) / total.Seconds()

	// River alone: the same number of no-op jobs, same workers and fetch settings.
	workersReg := river.NewWorkers()
	river.AddWorker(workersReg, benchNoopWorker{})
	raw, err := river.NewClient(riverpgxv5.New(srv.Pool), &river.Config{Workers: workersReg,
		Queues:        map[string]river.QueueConfig{"bench": {MaxWorkers: workers}},
		FetchCooldown: jobs.FetchCooldown, FetchPollInterval: jobs.FetchPollInterval})
	if err != nil {
		b.Fatal(err)
	}
	params := make([]river.InsertManyParams, targets)
	for i := range params {
		params[i] = river.InsertManyParams{Args: benchNoopArgs{}, InsertOpts: &river.InsertOpts{Queue: "bench"}}
	}
	if _, err := raw.InsertManyFast(ctx, params); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := raw.Start(ctx); err != nil {
		b.Fatal(err)
	}
	for {
		var done int
		if err := srv.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'bench_noop' AND state = 'completed'`).Scan(&done); err != nil {
			b.Fatal(err)
		}
		if done == targets {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	rawElapsed := time.Since(start)
	sctx, cancel = context.WithTimeout(ctx, 30*time.Second)
	_ = raw.Stop(sctx)
	cancel()
	rawPerSec := float64(targets) / rawElapsed.Seconds()
	targetsPerSec := float64(targets) / total.Seconds()

	names := make([]string, len(nets))
	for i, x := range nets {
		names[i] = string(x)
	}
	fmt.Printf("\nPublish benchmark: %d posts × %d network(s) (%s) = %d targets due at once, %d publish workers\n", n, len(nets), strings.Join(names, ", "), targets, workers)
	fmt.Printf("| %-34s | %12s |\n|%s|%s|\n", "measure", "value", strings.Repeat("-", 36), strings.Repeat("-", 14))
	for _, row := range [][2]string{
		{"time until all POSTED", fmt.Sprintf("%.2f s", total.Seconds())},
		{"posts/s", fmt.Sprintf("%.0f", postsPerSec)},
		{"targets/s (pipeline)", fmt.Sprintf("%.0f", targetsPerSec)},
		{"lateness p50 (postDate → attempt)", fmt.Sprintf("%.3f s", pct(0.50))},
		{"lateness p99", fmt.Sprintf("%.3f s", pct(0.99))},
		{"River no-op jobs/s (same settings)", fmt.Sprintf("%.0f", rawPerSec)},
		{"pipeline / River raw", fmt.Sprintf("%.2f", targetsPerSec/rawPerSec)},
	} {
		fmt.Printf("| %-34s | %12s |\n", row[0], row[1])
	}
	b.ReportMetric(total.Seconds(), "s-all-posted")
	b.ReportMetric(postsPerSec, "posts/s")
	b.ReportMetric(pct(0.50), "s-late-p50")
	b.ReportMetric(pct(0.99), "s-late-p99")
	b.ReportMetric(rawPerSec, "river-jobs/s")
}
