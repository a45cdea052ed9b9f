package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// The API's hot reads never scan a big table: on a database seeded like a busy instance (2,000
// organizations and keys, 50,000 posts, targets and upload links, 10,000 uploads, 4,000 accounts)
// and ANALYZEd, each plan reaches its rows through an index. (No enable_seqscan tricks: the
// planner chooses freely, as in production.)
func TestHotReadsUseIndexes(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) SELECT md5('u'||i)::uuid, 'u'||i||'@example.com', 'x' FROM generate_series(1, 2000) i;
INSERT INTO organizations (id, created_by_id, name) SELECT md5('o'||i)::uuid, md5('u'||i)::uuid, 'Org '||i FROM generate_series(1, 2000) i;
INSERT INTO memberships (id, organization_id, user_id, role) SELECT md5('m'||i)::uuid, md5('o'||i)::uuid, md5('u'||i)::uuid, 'OWNER' FROM generate_series(1, 2000) i;
INSERT INTO api_keys (organization_id, membership_id, name, prefix, secret_hash)
  SELECT md5('o'||i)::uuid, md5('m'||i)::uuid, 'k', substr(md5('k'||i), 1, 8), decode(md5('s'||i), 'hex') FROM generate_series(1, 2000) i;
INSERT INTO teams (id, organization_id, created_by_id, name) SELECT md5('t'||i)::uuid, md5('o'||i)::uuid, md5('u'||i)::uuid, 'Team '||i FROM generate_series(1, 2000) i;
INSERT INTO social_accounts (organization_id, team_id, type)
  SELECT md5('o'||i)::uuid, md5('t'||i)::uuid, n FROM generate_series(1, 2000) i, unnest(ARRAY['MASTODON', 'BLUESKY']) n;
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  SELECT md5('p'||i)::uuid, md5('o'||(i % 2000 + 1))::uuid, md5('t'||(i % 2000 + 1))::uuid, 'Post '||i, now(), 'DRAFT', '{MASTODON}', '{}'
  FROM generate_series(1, 50000) i;
INSERT INTO publish_targets (organization_id, kind, post_id, network, status, payload, attempt_key)
  SELECT md5('o'||(i % 2000 + 1))::uuid, 'POST', md5('p'||i)::uuid, 'MASTODON', 'DRAFT', '{}', 'a'||i FROM generate_series(1, 50000) i;
INSERT INTO uploads (id, organization_id, type, mime, ext, path, file_size)
  SELECT md5('up'||i)::uuid, md5('o'||(i % 2000 + 1))::uuid, 'image', 'image/jpeg', 'jpg', 'p/'||i, 1000 FROM generate_series(1, 10000) i;
INSERT INTO post_uploads (post_id, upload_id) SELECT md5('p'||i)::uuid, md5('up'||(i % 10000 + 1))::uuid FROM generate_series(1, 50000) i;
ANALYZE;`)
	if err != nil {
		t.Fatal(err)
	}
	var org, team, post, prefix string
	err = pool.QueryRow(ctx, `SELECT md5('o'||(7 % 2000 + 1))::uuid::text, md5('t'||(7 % 2000 + 1))::uuid::text, md5('p'||7)::uuid::text, substr(md5('k'||8), 1, 8)`).
		Scan(&org, &team, &post, &prefix)
	if err != nil {
		t.Fatal(err)
	}
	posts := []string{post}
	big := []string{"users", "organizations", "memberships", "api_keys", "teams", "social_accounts", "posts", "publish_targets", "uploads", "post_uploads"}
	for _, c := range []struct {
		name string
		sql  string
		args []any
	}{
		{"GetAPIKeyForAuth", store.GetAPIKeyForAuthSQL, []any{prefix}},
		{"TouchAPIKeys", store.TouchAPIKeysSQL, []any{[]string{post}}},
		{"ReadPostsOfOrg", store.ReadPostsOfOrgSQL, []any{org, posts}},
		{"ReadOrgShowVerboseErrors", store.ReadOrgShowVerboseErrorsSQL, []any{org}},
		{"ReadTeamLive", store.ReadTeamLiveSQL, []any{team, org}},
		{"ReadOnePostOfOrg", store.ReadOnePostOfOrgSQL, []any{org, post}},
		{"ReadOnePostTargetsOfOrg", store.ReadOnePostTargetsOfOrgSQL, []any{org, post}},
		{"ReadOnePostUploadLinks", store.ReadOnePostUploadLinksSQL, []any{org, post}},
		{"ReadPostUploadLinks", store.ReadPostUploadLinksSQL, []any{org, posts}},
		{"ReadPostTargetsOfOrg", store.ReadPostTargetsOfOrgSQL, []any{org, posts}},
		{"ReadTeamRecord", store.ReadTeamRecordSQL, []any{team, org}},
		{"ReadTeamVersion", store.ReadTeamVersionSQL, []any{team, org}},
		{"ListPostVersions", store.ListPostVersionsSQL, []any{org, team, 20, 0}},
		{"ReadTeamAccounts", store.ReadTeamAccountsSQL, []any{org, team}},
		{"ReadPostForUpdate", store.ReadPostForUpdateSQL, []any{post, org}},
		{"ReadPostTeamAccounts", store.ReadPostTeamAccountsSQL, []any{org, post}},
		{"ReadPostEditUploads", store.ReadPostEditUploadsSQL, []any{org, []string{"6f3e1f7c-2d9a-4c4b-9d7e-0a1b2c3d4e5f"}, post}},
		{"ReadTeamForPost", store.ReadTeamForPostSQL, []any{org, team}},
		{"ReadPostToEdit", store.ReadPostToEditSQL, []any{post, org}},
	} {
		rows, err := pool.Query(ctx, "EXPLAIN "+c.sql, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		for _, table := range big {
			if strings.Contains(text, "Seq Scan on "+table+" ") || strings.HasSuffix(text, "Seq Scan on "+table) {
				t.Errorf("%s scans %s:\n%s", c.name, table, text)
			}
		}
	}
}
