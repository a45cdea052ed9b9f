package store_test

import (
	"context"
	"testing"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// ReadPosts answers, with a post's targets, the accounts they name that are live and of the
// post's team: not one of another team (nor a deleted one), even when a post of that team in the
// same read names it too — then once.
func TestReadPostsAccountsOfThePostsTeam(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const (
		org, teamA, teamB    = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"
		postA, postB, postA2 = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b", "00000000-0000-4000-8000-00000000000c"
		accA, accB, accGone  = "00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000b1", "00000000-0000-4000-8000-0000000000a2"
	)
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+teamA+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'A'),
  ('`+teamB+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'B');
INSERT INTO social_accounts (id, organization_id, team_id, type) VALUES ('`+accA+`', '`+org+`', '`+teamA+`', 'MASTODON'),
  ('`+accB+`', '`+org+`', '`+teamB+`', 'BLUESKY');
INSERT INTO social_accounts (id, organization_id, team_id, type, deleted_at) VALUES ('`+accGone+`', '`+org+`', '`+teamA+`', 'TWITTER', now());
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data) VALUES
  ('`+postA+`', '`+org+`', '`+teamA+`', 'A', now(), 'DRAFT', '{MASTODON,BLUESKY,TWITTER}', '{}'),
  ('`+postA2+`', '`+org+`', '`+teamA+`', 'A2', now(), 'DRAFT', '{BLUESKY}', '{}'),
  ('`+postB+`', '`+org+`', '`+teamB+`', 'B', now(), 'DRAFT', '{BLUESKY}', '{}');
INSERT INTO publish_targets (organization_id, kind, post_id, network, social_account_id, status, payload, attempt_key) VALUES
  ('`+org+`', 'POST', '`+postA+`', 'MASTODON', '`+accA+`', 'DRAFT', '{}', 'a1'),
  ('`+org+`', 'POST', '`+postA+`', 'BLUESKY', '`+accB+`', 'DRAFT', '{}', 'a2'),
  ('`+org+`', 'POST', '`+postA+`', 'TWITTER', '`+accGone+`', 'DRAFT', '{}', 'a3'),
  ('`+org+`', 'POST', '`+postA2+`', 'BLUESKY', '`+accB+`', 'DRAFT', '{}', 'a4'),
  ('`+org+`', 'POST', '`+postB+`', 'BLUESKY', '`+accB+`', 'DRAFT', '{}', 'b1');`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ids  []string
		want []string
	}{
		{[]string{postA}, []string{accA}},
		{[]string{postA2}, nil},
		{[]string{postB}, []string{accB}},
		{[]string{postA, postA2, postB}, []string{accA, accB}},
	} {
		read, err := store.ReadPosts(ctx, pool, org, c.ids, true, "")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, a := range read.Accounts {
			got[a.ID]++
			if a.OrganizationID != org || a.TeamID == "" || a.Type == "" {
				t.Errorf("%v: account %+v", c.ids, a)
			}
		}
		if len(got) != len(c.want) || len(read.Accounts) != len(c.want) {
			t.Errorf("%v: accounts %v, want %v", c.ids, got, c.want)
		}
		for _, id := range c.want {
			if got[id] != 1 {
				t.Errorf("%v: accounts %v, want %v once each", c.ids, got, c.want)
			}
		}
		if n := len(read.Targets); n == 0 {
			t.Errorf("%v: no targets", c.ids)
		}
	}
}

// Rows that failed before any answer (here an argument that does not encode; a canceled context
// does the same on a connection) have no columns: the read path answers their error.
func TestRawRowsFailedBeforeAnswer(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	conn, err := pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	rows, _ := conn.Query(context.Background(), `SELECT $1::uuid`, struct{}{})
	if err := store.RawRowsErr(rows); err == nil {
		t.Fatal("no error")
	}
}
