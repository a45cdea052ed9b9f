package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// ReadPosts' statements select by `= ANY(ids)`, which PostgreSQL kept planning anew at every call
// (a custom plan priced below the generic one) once an organization had a few thousand posts: the
// batch forces their prepared plans, and those read by index.
func TestReadPostsReuseTheirPlans(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org, team, acc = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-0000000000a1"
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'A');
INSERT INTO social_accounts (id, organization_id, team_id, type) VALUES ('`+acc+`', '`+org+`', '`+team+`', 'MASTODON');
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  SELECT gen_random_uuid(), '`+org+`', '`+team+`', 'P' || i, now(), 'DRAFT', '{MASTODON}', '{}' FROM generate_series(1, 4000) i;
INSERT INTO publish_targets (organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key)
  SELECT '`+org+`', 'POST', id, 'MASTODON', '`+acc+`', 'DRAFT', '{}', id::text FROM posts;
ANALYZE`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	rows, _ := pool.Query(ctx, `SELECT id::text FROM posts LIMIT 30`)
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for i := 0; i < 20; i++ {
		if _, err := store.ReadPosts(ctx, conn, org, ids[i:i+1], true, ""); err != nil {
			t.Fatal(err)
		}
	}
	// Each statement of the batch ran on its prepared plan from the first call on, and that plan
	// reads by index.
	type prepared struct {
		name, sql       string
		generic, custom int64
	}
	var stmts []prepared
	prows, err := conn.Query(ctx, `SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '-- name: Read%'`)
	if err != nil {
		t.Fatal(err)
	}
	for prows.Next() {
		var p prepared
		if err := prows.Scan(&p.name, &p.sql, &p.generic, &p.custom); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, p)
	}
	if err := prows.Err(); err != nil || len(stmts) != 3 {
		t.Fatalf("%d of the batch's statements prepared (%v), want 3", len(stmts), err)
	}
	var mode string
	if err := conn.QueryRow(ctx, `SHOW plan_cache_mode`).Scan(&mode); err != nil || mode != "auto" {
		t.Fatalf("plan_cache_mode after the batch: %q (%v), want auto: the setting outlived its batch", mode, err)
	}
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(ctx, `RESET plan_cache_mode`) //nolint:errcheck
	for _, p := range stmts {
		t.Logf("%.40q: %d generic, %d custom plans", p.sql, p.generic, p.custom)
		if p.custom != 0 || p.generic != 20 {
			t.Errorf("%.40q: %d generic and %d custom plans in 20 calls, want 20 generic", p.sql, p.generic, p.custom)
		}
		var plan string
		rows, err := conn.Query(ctx, "EXPLAIN EXECUTE "+p.name+"('"+org+"', '{"+ids[0]+"}')", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			_ = rows.Scan(&line)
			plan += line + "\n"
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(plan, "Seq Scan on posts") || strings.Contains(plan, "Seq Scan on publish_targets") {
			t.Errorf("%.40q's generic plan scans a table:\n%s", p.sql, plan)
		}
	}
}
