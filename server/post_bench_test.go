package server_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/bench"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server"
	"github.com/crier/crier/server/servertest"
)

// BenchmarkPublishDueTogether measures the publishing pipeline against the sandbox networks, in
// two phases run by the same River client:
//
//   - burst: N posts (CRIER_BENCH_POSTS, default 300) due at the same moment, spread round-robin
//     over the 15 networks, each post to CRIER_BENCH_FANOUT networks (default 1), with the media each
//     network needs (a photo for Instagram, Pinterest, TikTok and Snapchat, a video for YouTube).
//     Reports the time until every target is POSTED, posts/s, targets/s, the pipeline's rate of first
//     attempts (what River's raw rate is compared with: a target whose network is still processing
//     media gets a later job that waits for the network, not the pipeline) and lateness p50/p99
//     (mostly queueing: thousands due in the same second wait their turn);
//   - paced: M posts (CRIER_BENCH_PACED, default N/5) due one after another at CRIER_BENCH_RATE
//     posts/s (default 50), a steady load under capacity: lateness p50/p99 here is the pipeline's
//     own delay from postDate to the worker's start.
//
// The networks (the sandbox) run in a process of their own, as `crier sandbox` does (CRIER_BENCH_SANDBOX=inprocess
// mounts them in Crier's server instead), so this process's CPU, allocations and heap are the
// pipeline's and the sandbox's CPU is reported apart. And River's own throughput of no-op jobs with the same workers (CRIER_BENCH_WORKERS, default the
// production queue's) and fetch settings, for the ratio. Accounts stay under every network's daily
// cap: each network gets as many accounts (one per team) as its share of posts needs.
func BenchmarkPublishDueTogether(b *testing.B) {
	server.TuneGC() // the GC settings of `crier serve`, which runs the workers (GOGC and GOMEMLIMIT override them)
	cfg := benchConfig{posts: envInt("CRIER_BENCH_POSTS", 300), fanout: envInt("CRIER_BENCH_FANOUT", 1),
		rate: envInt("CRIER_BENCH_RATE", 50), workers: envInt("CRIER_BENCH_WORKERS", jobs.Queues[app.QueuePublish].MaxWorkers)}
	cfg.paced = envInt("CRIER_BENCH_PACED", cfg.posts/5)
	cfg.fanout = min(max(cfg.fanout, 1), len(app.Networks))
	for i := 0; i < b.N; i++ {
		runPublishBench(b, cfg)
	}
}

type benchConfig struct{ posts, fanout, paced, rate, workers int }

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
		return v
	}
	return def
}

type benchNoopArgs struct{}

func (benchNoopArgs) Kind() string { return "bench_noop" }

type benchNoopWorker struct {
	river.WorkerDefaults[benchNoopArgs]
}

func (benchNoopWorker) Work(context.Context, *river.Job[benchNoopArgs]) error { return nil }

// benchFleet is the bench's organization: teams holding accounts, and what each network's payload
// needs (uploads, a channel).
type benchFleet struct {
	srv      *servertest.Server
	pctx     context.Context
	key      string
	teams    []string                       // team i holds an account on network n when i < accounts[n]
	accounts map[app.Network]int            // accounts per network
	postTeam []int                          // post i is on teams[postTeam[i]]
	channel  map[string]map[app.Network]any // team → network → its channel (id or name, per payload)
	photo    string                         // upload ids
	video    string
}

// networksOf answers the networks of the i-th post: fanout networks round-robin.
func networksOf(i, fanout int) []app.Network {
	out := make([]app.Network, fanout)
	for k := range out {
		out[k] = app.Networks[(i*fanout+k)%len(app.Networks)]
	}
	return out
}

// benchPlan places every post on a team with room under each network's daily cap: greedily, the
// first team where all the post's networks have room (teams[i] is post i's team), and answers how
// many accounts each network needs.
func benchPlan(posts, fanout int) (teams []int, accounts map[app.Network]int) {
	uses := map[app.Network]int{}
	accounts = map[app.Network]int{}
	for i := 0; i < posts; i++ {
		nets := networksOf(i, fanout)
		team := 0
		for _, n := range nets {
			team = max(team, uses[n]/app.DailyCapsOf(n).Posts)
		}
		for _, n := range nets {
			uses[n] = max(uses[n], team*app.DailyCapsOf(n).Posts) + 1
			accounts[n] = max(accounts[n], team+1)
		}
		teams = append(teams, team)
	}
	return teams, accounts
}

func newBenchFleet(b *testing.B, srv *servertest.Server, posts, fanout int) *benchFleet {
	ctx := context.Background()
	f := &benchFleet{srv: srv, key: apiKeyFor(b, srv), channel: map[string]map[app.Network]any{}}
	if _, err := srv.Pool.Exec(ctx, `UPDATE organizations SET plan = 'ENTERPRISE'`); err != nil {
		b.Fatal(err)
	}
	principal, err := srv.Service.AuthenticateAPIKey(ctx, f.key)
	require.NoError(b, err)
	f.pctx = app.WithPrincipal(ctx, principal)

	f.postTeam, f.accounts = benchPlan(posts, fanout)
	teams := 0
	for _, c := range f.accounts {
		teams = max(teams, c)
	}
	for i := 0; i < teams; i++ {
		team := newTeam(b, srv, f.key, fmt.Sprintf("Bench %d", i))
		f.teams = append(f.teams, team)
		f.channel[team] = map[app.Network]any{}
		for _, n := range app.Networks {
			if i < f.accounts[n] {
				f.connect(b, team, n)
			}
		}
	}
	res, body := postFile(b, srv, f.key, "", "", mediatest.JPEG(1080, 1080))
	require.Equal(b, http.StatusOK, res.StatusCode, string(body))
	f.photo = decodeUpload(b, body).ID
	res, body = postFile(b, srv, f.key, "", "", mediatest.Fixture(b, "sample.mp4"))
	require.Equal(b, http.StatusOK, res.StatusCode, string(body))
	f.video = decodeUpload(b, body).ID
	return f
}

// connect connects network n on team and picks what its posts need: the page/channel set-channel
// chooses, or the first channel (Discord and Slack channel, subreddit, Pinterest board) named per post.
func (f *benchFleet) connect(b *testing.B, team string, n app.Network) {
	done := connectAny(b, f.srv, f.key, string(n), team, "bench-"+team) // a sandbox user per team: its own limits
	require.Equal(b, "true", done.Query().Get("success"), done.String())
	_, a := byType(b, f.srv, f.key, string(n), team)
	switch n {
	case app.YouTube, app.Instagram, app.Facebook, app.LinkedIn, app.GoogleBusiness:
		require.NotEmpty(b, a.Channels, "%s lists its channels", n)
		body := `{"type":"` + string(n) + `","teamId":"` + team + `","channelId":"` + a.Channels[0].ID + `"}`
		res, out := do(b, http.MethodPost, f.srv.URL+"/api/v1/social-account/set-channel", body, "x-api-key", f.key)
		require.Equal(b, http.StatusOK, res.StatusCode, string(out))
	case app.Discord, app.Slack, app.Reddit:
		require.NotEmpty(b, a.Channels, "%s lists its channels", n)
		f.channel[team][n] = a.Channels[0].ID
	case app.Pinterest:
		require.NotEmpty(b, a.Channels, "%s lists its channels", n)
		require.NotNil(b, a.Channels[0].Name)
		f.channel[team][n] = *a.Channels[0].Name
	}
}

// payload is network n's data for post i on team.
func (f *benchFleet) payload(team string, n app.Network, i int) map[string]any {
	text := fmt.Sprintf("Bench post %d", i)
	switch n {
	case app.TikTok:
		return map[string]any{"type": "IMAGE", "text": text, "uploadIds": []string{f.photo}}
	case app.YouTube:
		return map[string]any{"type": "VIDEO", "text": text, "uploadIds": []string{f.video}}
	case app.Instagram, app.Snapchat:
		return map[string]any{"text": text, "uploadIds": []string{f.photo}}
	case app.Pinterest:
		return map[string]any{"text": text, "boardName": f.channel[team][n], "uploadIds": []string{f.photo}}
	case app.Reddit:
		return map[string]any{"text": text, "sr": f.channel[team][n]}
	case app.Discord, app.Slack:
		return map[string]any{"text": text, "channelId": f.channel[team][n]}
	}
	return map[string]any{"text": text}
}

// createPosts creates count posts (numbered from first, placed by the plan) due at due(i).
func (f *benchFleet) createPosts(b *testing.B, first, count, fanout int, title string, due func(i int) time.Time) {
	st := app.PostScheduled
	for i := first; i < first+count; i++ {
		nets, team := networksOf(i, fanout), f.teams[f.postTeam[i]]
		data := map[app.Network]any{}
		for _, n := range nets {
			data[n] = f.payload(team, n, i)
		}
		raw, _ := json.Marshal(data)
		var pd app.PostData
		require.NoError(b, json.Unmarshal(raw, &pd))
		name, date := fmt.Sprintf("%s %d", title, i), due(i).UTC().Format(time.RFC3339Nano)
		if _, err := f.srv.Publishing.CreatePost(f.pctx, app.PostParams{TeamID: team, Title: &name, PostDate: &date, Status: &st,
			SocialAccountTypes: nets, Data: &pd}); err != nil {
			b.Fatalf("post %d %v: %v", i, nets, err)
		}
	}
}

// waitPosted waits until want targets are POSTED (polling gently: the poll is not what is measured;
// the end is the last posted_at).
func waitPosted(b *testing.B, srv *servertest.Server, want int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for {
		var posted, failed int
		// The sandbox fails nothing here: a failure (even one to retry) is a bench that measures the wrong thing.
		err := srv.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status = 'POSTED'), count(*) FILTER (WHERE status IN ('ERROR', 'RETRYING')) FROM publish_targets`).Scan(&posted, &failed)
		require.NoError(b, err)
		if failed > 0 {
			var msg string
			_ = srv.Pool.QueryRow(context.Background(), `SELECT network || ': ' || coalesce(error, '') FROM publish_targets WHERE status IN ('ERROR', 'RETRYING') LIMIT 1`).Scan(&msg)
			b.Fatalf("%d targets failed, e.g. %s", failed, msg)
		}
		if posted >= want {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d targets POSTED after %s", posted, want, limit)
		}
		// Once a second: each poll scans publish_targets, and its CPU counts in the backends' per target.
		time.Sleep(time.Second)
	}
}

// lateness answers the sorted lateness (River's attempted_at − the job's scheduled_at, which is the
// postDate) of the completed publish jobs of posts titled with prefix.
func lateness(b *testing.B, srv *servertest.Server, prefix string) []float64 {
	rows, err := srv.Pool.Query(context.Background(), `
		SELECT extract(epoch FROM j.attempted_at - j.scheduled_at)::float8
		FROM river_job j JOIN publish_targets t ON t.id::text = j.args->>'target_id' JOIN posts p ON p.id = t.post_id
		WHERE j.kind = 'publish_target' AND j.state = 'completed' AND t.kind = 'POST' AND p.title LIKE $1 || ' %'`, prefix)
	require.NoError(b, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[float64])
	require.NoError(b, err)
	sort.Float64s(out)
	return out
}

// workerTimes answers, per network, the sorted worker time of each POSTED target (its jobs' start
// to finish, summed: a target whose network processes media asynchronously takes several jobs)
// and how many jobs the targets took.
func workerTimes(b *testing.B, srv *servertest.Server) (map[app.Network][]float64, map[app.Network]int) {
	rows, err := srv.Pool.Query(context.Background(), `
		SELECT t.network, sum(extract(epoch FROM j.finalized_at - j.attempted_at))::float8, count(*)
		FROM river_job j JOIN publish_targets t ON t.id::text = j.args->>'target_id'
		WHERE j.kind = 'publish_target' AND j.state = 'completed' AND t.status = 'POSTED' GROUP BY t.id, t.network ORDER BY 2`)
	require.NoError(b, err)
	defer rows.Close()
	times, jobCount := map[app.Network][]float64{}, map[app.Network]int{}
	for rows.Next() {
		var n app.Network
		var d float64
		var c int
		require.NoError(b, rows.Scan(&n, &d, &c))
		times[n] = append(times[n], d)
		jobCount[n] += c
	}
	require.NoError(b, rows.Err())
	return times, jobCount
}

func pct(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

func runPublishBench(b *testing.B, cfg benchConfig) {
	b.StopTimer()
	ctx := context.Background()
	opts := servertest.Options{NoWorkers: true, MaxConns: cfg.workers + 10}
	sandboxCPU := func() time.Duration { return 0 }
	if os.Getenv("CRIER_BENCH_SANDBOX") != "inprocess" {
		// The networks in a process of their own (as `crier sandbox` runs), so this process's CPU
		// and heap are Crier's; CRIER_BENCH_SANDBOX=inprocess mounts them in Crier's server instead.
		var url string
		url, sandboxCPU = startBenchSandbox(b)
		opts.Env = map[string]string{"SANDBOX_URL": url, "ALLOW_PRIVATE_URLS": "1"}
	}
	srv := servertest.Start(b, opts)
	fleet := newBenchFleet(b, srv, cfg.posts+cfg.paced, cfg.fanout)

	lead := 3*time.Second + time.Duration(cfg.posts*cfg.fanout)*25*time.Millisecond // creating a post takes ≈15 ms here
	if d, err := time.ParseDuration(os.Getenv("CRIER_BENCH_LEAD")); err == nil && d > lead {
		lead = d // a loaded machine creates posts slower: the burst must not start before they all exist
	}
	due := time.Now().Add(lead).UTC().Truncate(time.Millisecond)
	created := time.Now()
	fleet.createPosts(b, 0, cfg.posts, cfg.fanout, "Burst", func(int) time.Time { return due })
	if time.Now().After(due) {
		b.Logf("warning: creating %d posts took %s, past their date (lead %s)", cfg.posts, time.Since(created), lead)
	}

	client, err := jobs.NewClient(srv.Pool, srv.Service, srv.Publishing, jobs.Options{PublishWorkers: cfg.workers})
	require.NoError(b, err)
	wctx, stopPromote := context.WithCancel(ctx)
	defer stopPromote()
	go jobs.PromoteDue(wctx, srv.Pool, nil)
	require.NoError(b, client.Start(ctx))
	targets := cfg.posts * cfg.fanout
	// The CPU per target is measured from shortly before the burst (River's scheduler looks 5 s
	// ahead), not over the whole lead, whose idle polling would count against the targets.
	time.Sleep(time.Until(due.Add(-6 * time.Second)))
	printStats := benchStats(b, srv, sandboxCPU)
	printTimeline := burstTimeline(b, srv, due)
	b.StartTimer()
	waitPosted(b, srv, targets, lead+15*time.Minute)
	b.StopTimer()
	printStats(targets) // first: the timeline's query is not the burst's CPU
	printTimeline()
	var last time.Time
	require.NoError(b, srv.Pool.QueryRow(ctx, `SELECT max(posted_at) FROM publish_targets`).Scan(&last))
	burst := lateness(b, srv, "Burst")
	total := last.Sub(due)
	// The pipeline's own rate, comparable with River's on no-op jobs all available at once: the
	// jobs due at the burst's moment (first attempts; a network still processing media gets a later
	// job, which waits for the network rather than for the pipeline) over the time until the last
	// of them finished.
	var firstJobs int
	var firstDone time.Time
	require.NoError(b, srv.Pool.QueryRow(ctx, `SELECT count(*), max(finalized_at) FROM river_job WHERE kind = 'publish_target' AND scheduled_at <= $1`, due).Scan(&firstJobs, &firstDone))
	jobsPerSec := float64(firstJobs) / firstDone.Sub(due).Seconds()

	// Paced: the same client, posts due one after another under capacity.
	var paced []float64
	if cfg.paced > 0 && cfg.rate > 0 {
		step := time.Second / time.Duration(cfg.rate)
		start := time.Now().Add(2*time.Second + time.Duration(cfg.paced*cfg.fanout)*25*time.Millisecond)
		fleet.createPosts(b, cfg.posts, cfg.paced, cfg.fanout, "Paced", func(i int) time.Time {
			return start.Add(time.Duration(i-cfg.posts) * step)
		})
		waitPosted(b, srv, targets+cfg.paced*cfg.fanout, time.Until(start)+time.Duration(cfg.paced)*step+5*time.Minute)
		paced = lateness(b, srv, "Paced")
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	_ = client.Stop(sctx)
	cancel()
	stopPromote()

	perNetwork, jobCount := workerTimes(b, srv)
	rawPerSec := riverNoopThroughput(b, srv, targets, cfg.workers)
	targetsPerSec := float64(targets) / total.Seconds()
	fmt.Printf("\nPublish benchmark: %d posts due at once over the %d networks, %d network(s) per post = %d targets; %d publish workers\n",
		cfg.posts, len(app.Networks), cfg.fanout, targets, cfg.workers)
	fmt.Printf("| %-44s | %12s |\n|%s|%s|\n", "measure", "value", strings.Repeat("-", 46), strings.Repeat("-", 14))
	rows := [][2]string{
		{"burst: time until all POSTED", fmt.Sprintf("%.2f s", total.Seconds())},
		{"burst: posts/s", fmt.Sprintf("%.0f", float64(cfg.posts)/total.Seconds())},
		{"burst: targets/s (until all POSTED)", fmt.Sprintf("%.0f", targetsPerSec)},
		{"burst: first attempts/s (pipeline)", fmt.Sprintf("%.0f", jobsPerSec)},
		{"burst: lateness p50 (postDate → attempt)", fmt.Sprintf("%.3f s", pct(burst, 0.50))},
		{"burst: lateness p99", fmt.Sprintf("%.3f s", pct(burst, 0.99))},
	}
	if len(paced) > 0 {
		rows = append(rows,
			[2]string{fmt.Sprintf("paced (%d posts at %d/s): lateness p50", cfg.paced, cfg.rate), fmt.Sprintf("%.3f s", pct(paced, 0.50))},
			[2]string{"paced: lateness p99", fmt.Sprintf("%.3f s", pct(paced, 0.99))})
	}
	rows = append(rows,
		[2]string{"River no-op jobs/s (same settings)", fmt.Sprintf("%.0f", rawPerSec)},
		[2]string{"pipeline (first attempts/s) / River raw", fmt.Sprintf("%.2f", jobsPerSec/rawPerSec)})
	for _, row := range rows {
		fmt.Printf("| %-44s | %12s |\n", row[0], row[1])
	}
	fmt.Printf("\n| %-16s | %7s | %5s | %20s | %20s |\n|%s|%s|%s|%s|%s|\n", "network", "targets", "jobs", "worker time p50 (ms)", "worker time p99 (ms)",
		strings.Repeat("-", 18), strings.Repeat("-", 9), strings.Repeat("-", 7), strings.Repeat("-", 22), strings.Repeat("-", 22))
	for _, n := range app.Networks {
		if d := perNetwork[n]; len(d) > 0 {
			fmt.Printf("| %-16s | %7d | %5d | %20.1f | %20.1f |\n", n, len(d), jobCount[n], 1000*pct(d, 0.5), 1000*pct(d, 0.99))
		}
	}
	// `make bench`'s table (bench.RowsFile): the goal is 10,000 posts in 15 s on 2 cores.
	require.NoError(b, bench.SaveRow(bench.Row{What: fmt.Sprintf("%d posts due at once over the 15 sandbox networks → all POSTED (%d workers)", cfg.posts, cfg.workers),
		Target: "≤ 15 s for 10,000", Crier: fmt.Sprintf("%.1f s · %.0f posts/s · burst lateness p99 %.2f s · paced p99 %.3f s", total.Seconds(),
			float64(cfg.posts)/total.Seconds(), pct(burst, 0.99), pct(paced, 0.99)),
		Met: cfg.posts >= 10_000 && total <= 15*time.Second}))
	b.ReportMetric(total.Seconds(), "s-all-posted")
	b.ReportMetric(float64(cfg.posts)/total.Seconds(), "posts/s")
	b.ReportMetric(pct(burst, 0.99), "s-burst-late-p99")
	b.ReportMetric(pct(paced, 0.99), "s-paced-late-p99")
	b.ReportMetric(rawPerSec, "river-jobs/s")
	b.ReportMetric(jobsPerSec/rawPerSec, "ratio")
}

// riverNoopThroughput runs n no-op jobs through River alone with the publish queue's workers and
// the pipeline's fetch settings, and answers jobs/s.
func riverNoopThroughput(b *testing.B, srv *servertest.Server, n, workers int) float64 {
	ctx := context.Background()
	reg := river.NewWorkers()
	river.AddWorker(reg, benchNoopWorker{})
	raw, err := river.NewClient(riverpgxv5.New(srv.Pool), &river.Config{Workers: reg,
		Queues:        map[string]river.QueueConfig{"bench": {MaxWorkers: workers}},
		FetchCooldown: jobs.FetchCooldown, FetchPollInterval: jobs.FetchPollInterval})
	require.NoError(b, err)
	params := make([]river.InsertManyParams, n)
	for i := range params {
		params[i] = river.InsertManyParams{Args: benchNoopArgs{}, InsertOpts: &river.InsertOpts{Queue: "bench"}}
	}
	_, err = raw.InsertManyFast(ctx, params)
	require.NoError(b, err)
	start := time.Now()
	require.NoError(b, raw.Start(ctx))
	for {
		var done int
		require.NoError(b, srv.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'bench_noop' AND state = 'completed'`).Scan(&done))
		if done == n {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(start)
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	_ = raw.Stop(sctx)
	cancel()
	return float64(n) / elapsed.Seconds()
}
