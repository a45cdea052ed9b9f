package store_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

const pageOrg, pageTeam = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"

// seedPage makes an organization with a team, an account and an upload, and answers grow: it adds
// n posts to the team, each with a target through the account and a link to an upload of its own.
func seedPage(t *testing.T, pool *pgxpool.Pool) (grow func(n int)) { return seedPageB(t, pool) }

func seedPageB(t testing.TB, pool *pgxpool.Pool) (grow func(n int)) {
	t.Helper()
	const acc = "00000000-0000-4000-8000-0000000000a1"
	ctx := context.Background()
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+pageOrg+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+pageTeam+`', '`+pageOrg+`', '00000000-0000-4000-8000-000000000009', 'A');
INSERT INTO social_accounts (id, organization_id, team_id, type) VALUES ('`+acc+`', '`+pageOrg+`', '`+pageTeam+`', 'MASTODON')`)
	if err != nil {
		t.Fatal(err)
	}
	return func(n int) {
		t.Helper()
		_, err := pool.Exec(ctx, `
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data, created_at)
  SELECT gen_random_uuid(), '`+pageOrg+`', '`+pageTeam+`', 'P' || i, now(), 'DRAFT', '{MASTODON}', '{}', now() - i * interval '1 second'
  FROM generate_series(1, `+strconv.Itoa(n)+`) i;
INSERT INTO publish_targets (organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key)
  SELECT '`+pageOrg+`', 'POST', p.id, 'MASTODON', '`+acc+`', 'DRAFT', '{}', p.id::text FROM posts p
  WHERE NOT EXISTS (SELECT FROM publish_targets t WHERE t.post_id = p.id);
INSERT INTO uploads (id, organization_id, type, mime, ext, path, file_size)
  SELECT p.id, '`+pageOrg+`', 'image', 'image/png', 'png', p.id::text || '.png', 1 FROM posts p WHERE NOT EXISTS (SELECT FROM post_uploads pu WHERE pu.post_id = p.id);
INSERT INTO post_uploads (post_id, upload_id)
  SELECT p.id, p.id FROM posts p WHERE NOT EXISTS (SELECT FROM post_uploads pu WHERE pu.post_id = p.id)`, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatal(err)
		}
	}
}

func pageFilter(offset int) store.PostListFilter {
	return store.PostListFilter{OrganizationID: pageOrg, TeamID: pageTeam, OrderBy: "createdAt", Descending: true, Offset: offset, Limit: 20}
}

// A page's statements run on their prepared plans, which read posts, targets and upload links by
// index — also after the tables grew 100×, unanalyzed, since the plans were made (the array form
// of the ids was planned anew at every call).
func TestPostPagePlans(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	grow := seedPage(t, pool)
	grow(60)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	read := func(n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			p, err := store.ReadPostPage(ctx, conn, pageFilter(20))
			if err != nil || len(p.Posts) != 20 || len(p.Targets) != 20 || len(p.UploadLinks) != 20 || !p.TeamLive {
				t.Fatalf("page: %d posts, %d targets, %d upload links, live %v, %v", len(p.Posts), len(p.Targets), len(p.UploadLinks), p.TeamLive, err)
			}
		}
	}
	read(10) // the plans are made on 60 posts
	grow(6000)
	read(10)

	rows, err := conn.Query(ctx, `SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE '%FROM posts WHERE organization_id = $1%' AND statement NOT LIKE '%pg_prepared_statements%'`)
	if err != nil {
		t.Fatal(err)
	}
	type prepared struct {
		name, sql       string
		generic, custom int64
	}
	stmts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (p prepared, err error) {
		return p, r.Scan(&p.name, &p.sql, &p.generic, &p.custom)
	})
	if err != nil || len(stmts) != 3 {
		t.Fatalf("%d of the page's statements prepared (%v), want 3", len(stmts), err)
	}
	for _, p := range stmts {
		// PostgreSQL plans a prepared statement's first five runs for their arguments, then
		// keeps the generic plan unless it is dearer.
		if p.custom > 5 || p.generic < 15 {
			t.Errorf("%.60q: %d generic and %d custom plans in 20 runs: planned anew at every run", p.sql, p.generic, p.custom)
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+p.name+"('"+pageOrg+"', '"+pageTeam+"', 20)", pgx.QueryExecModeSimpleProtocol)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		t.Logf("%.60q:\n%s", p.sql, plan)
		// Targets and upload links are found from the page's posts, not the other way round.
		if strings.Contains(plan, "Seq Scan on publish_targets") || strings.Contains(plan, "Seq Scan on post_uploads") ||
			strings.Contains(plan, "publish_targets") && !strings.Contains(plan, "publish_targets_post_key") ||
			strings.Contains(plan, "post_uploads") && (!strings.Contains(plan, "post_uploads_pkey") || strings.Contains(plan, "post_uploads_upload_idx")) ||
			strings.Contains(plan, "uploads_org") {
			t.Errorf("%.60q's plan scans a table:\n%s", p.sql, plan)
		}
	}
}

// A page's statements see one snapshot: a post written while they run moves no post of the page
// out of the targets' or upload links' statement (each statement took its own snapshot under
// READ COMMITTED).
func TestPostPageIsOneSnapshot(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	grow := seedPage(t, pool)
	grow(25)
	// Another connection adds a newest post and deletes it, over and over: the page's last post
	// comes and goes.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			sql := `DELETE FROM posts WHERE title = 'new'`
			if i%2 == 0 {
				sql = `INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
					VALUES (gen_random_uuid(), '` + pageOrg + `', '` + pageTeam + `', 'new', now(), 'DRAFT', '{}', '{}')`
			}
			if _, err := pool.Exec(ctx, sql); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for i := 0; i < 300; i++ {
		p, err := store.ReadPostPage(ctx, pool, pageFilter(0))
		if err != nil {
			t.Fatal(err)
		}
		targets, links := map[string]int{}, map[string]int{}
		for _, tg := range p.Targets {
			targets[*tg.PostID]++
		}
		for _, l := range p.UploadLinks {
			links[l.PostID]++
		}
		seeded := 0
		for _, post := range p.Posts {
			if post.Title != "new" {
				seeded++
				if targets[post.ID] != 1 || links[post.ID] != 1 {
					t.Fatalf("run %d: post %s of the page with %d targets and %d upload links, want 1 and 1", i, post.Title, targets[post.ID], links[post.ID])
				}
			}
		}
		if len(p.Targets) != seeded || len(p.UploadLinks) != seeded {
			t.Fatalf("run %d: %d targets and %d upload links for the page's %d posts that have them", i, len(p.Targets), len(p.UploadLinks), seeded)
		}
	}
}

// A team id is refused before the batch (ErrNotUUID) exactly when PostgreSQL refuses it as a uuid,
// and read as PostgreSQL reads it otherwise.
func TestPostPageTeamIDAsPostgreSQLReadsIt(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	seedPage(t, pool)(3)
	plain := strings.ReplaceAll(pageTeam, "-", "")
	for _, id := range []string{pageTeam, strings.ToUpper(pageTeam), "{" + pageTeam + "}", plain, plain[:4] + "-" + plain[4:],
		"{" + pageTeam, pageTeam + "}", "-" + plain, plain + "-", plain[:3] + "-" + plain[3:], pageTeam[:35], pageTeam + "0",
		" " + pageTeam, "nope", "", "g" + pageTeam[1:], pageTeam[:8] + "--" + pageTeam[9:]} {
		_, pgErr := pool.Exec(ctx, "SELECT $1::text::uuid", id)
		f := pageFilter(0)
		f.TeamID = id
		p, err := store.ReadPostPage(ctx, pool, f)
		if pgErr != nil {
			if !errors.Is(err, store.ErrNotUUID) {
				t.Errorf("%q, which PostgreSQL refuses (%v): %v", id, pgErr, err)
			}
			continue
		}
		if err != nil || !p.TeamLive || len(p.Posts) != 3 || p.Total != 3 {
			t.Errorf("%q: live %v, %d posts, total %d, %v", id, p.TeamLive, len(p.Posts), p.Total, err)
		}
	}
}
