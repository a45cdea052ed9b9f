package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// One post's read (GET post) runs on its statements' prepared plans, which read by index — also
// after the tables grew from a few posts to thousands, unanalyzed, since the plans were made (the
// array form kept planning anew at every call once an organization had a few thousand posts, and
// a generic plan of it made while the table was small stayed a sequential scan).
func TestOnePostReadReusesItsPlans(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org, team, acc = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-0000000000a1"
	const upload = "00000000-0000-4000-8000-0000000000f1"
	const morePosts = `
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  SELECT gen_random_uuid(), '` + org + `', '` + team + `', 'P' || i, now(), 'DRAFT', '{MASTODON}', '{}' FROM generate_series(1, $1::int) i;
INSERT INTO publish_targets (organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key)
  SELECT '` + org + `', 'POST', p.id, 'MASTODON', '` + acc + `', 'DRAFT', '{}', p.id::text FROM posts p
  WHERE NOT EXISTS (SELECT FROM publish_targets t WHERE t.post_id = p.id);
INSERT INTO post_uploads (post_id, upload_id)
  SELECT p.id, '` + upload + `' FROM posts p WHERE NOT EXISTS (SELECT FROM post_uploads pu WHERE pu.post_id = p.id)`
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'A');
INSERT INTO social_accounts (id, organization_id, team_id, type) VALUES ('`+acc+`', '`+org+`', '`+team+`', 'MASTODON');
INSERT INTO uploads (id, organization_id, type, mime, ext, path, file_size) VALUES ('`+upload+`', '`+org+`', 'image', 'image/png', 'png', 'x.png', 1)`)
	if err != nil {
		t.Fatal(err)
	}
	grow := func(n int) {
		t.Helper()
		if _, err := pool.Exec(ctx, strings.ReplaceAll(morePosts, "$1::int", strconv.Itoa(n)), pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatal(err)
		}
	}
	grow(60)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var ids []string
	rows, _ := conn.Query(ctx, `SELECT id::text FROM posts ORDER BY title LIMIT 20`)
	ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	read := func(from, to int) {
		t.Helper()
		for _, id := range ids[from:to] {
			r, err := store.ReadPosts(ctx, conn, org, []string{id}, true, "")
			if err != nil || len(r.Posts) != 1 || len(r.Targets) != 1 || len(r.UploadLinks) != 1 {
				t.Fatalf("read %s: %d posts, %d targets, %d upload links, %v", id, len(r.Posts), len(r.Targets), len(r.UploadLinks), err)
			}
		}
	}
	read(0, 10) // the plans are made on 60 posts
	grow(4000)
	read(10, 20)

	type prepared struct {
		name, sql       string
		generic, custom int64
	}
	prows, err := conn.Query(ctx, `SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE '-- name: ReadPostsOfOrg%' OR statement LIKE '-- name: ReadPostTargetsOfOrg%' OR statement LIKE '-- name: ReadPostUploadLinks%'`)
	if err != nil {
		t.Fatal(err)
	}
	stmts, err := pgx.CollectRows(prows, func(r pgx.CollectableRow) (p prepared, err error) {
		return p, r.Scan(&p.name, &p.sql, &p.generic, &p.custom)
	})
	if err != nil || len(stmts) != 3 {
		t.Fatalf("%d of the read's statements prepared (%v), want 3", len(stmts), err)
	}
	for _, p := range stmts {
		// PostgreSQL plans a prepared statement's first five runs for their arguments, then
		// compares: from the sixth on, the generic plan, unless it is dearer.
		if p.custom > 5 || p.generic < 15 {
			t.Errorf("%.40q: %d generic and %d custom plans in 20 runs: planned anew at every run", p.sql, p.generic, p.custom)
		}
		arg := ids[0]
		if strings.Contains(p.sql, "ANY($2") { // the array form (a regression)
			arg = "{" + arg + "}"
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+p.name+"('"+org+"', '"+arg+"')", pgx.QueryExecModeSimpleProtocol)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if strings.Contains(plan, "Seq Scan on posts") || strings.Contains(plan, "Seq Scan on publish_targets") || strings.Contains(plan, "Seq Scan on post_uploads") {
			t.Errorf("%.40q's plan scans a table:\n%s", p.sql, plan)
		}
	}
}
