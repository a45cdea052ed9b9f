package store_test

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// A post's writes go in one batch without BEGIN/COMMIT: PostgreSQL runs the batch as one implicit
// transaction, so a statement that fails undoes the ones before it (nothing half-written), and
// what succeeds is what a read finds.
func TestWritePostIsAtomic(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org, team, post = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'T');`)
	if err != nil {
		t.Fatal(err)
	}
	postID, due := post, time.Now()
	w := store.PostWrite{
		Create: &store.CreatePostParams{ID: post, OrganizationID: org, TeamID: team, Title: "T", PostDate: due, Status: "DRAFT",
			SocialAccountTypes: []string{"MASTODON"}, Data: []byte(`{}`)},
		Targets: []store.TargetWrite{{Insert: &store.InsertTargetParams{OrganizationID: org, Kind: "POST", PostID: &postID, Network: "MASTODON",
			Status: "DRAFT", Payload: []byte(`{}`), AttemptKey: post + ":mastodon", DueAt: &due}}},
		Uploads: &store.ReplacePostUploadLinksParams{PostID: post, UploadIds: []string{}},
		Audit:   &store.InsertAuditItemParams{OrganizationID: org, ActorType: "SYSTEM", Action: "post.created", Metadata: []byte(`{}`)},
	}
	bad := w
	bad.Targets = append([]store.TargetWrite{}, w.Targets...)
	bad.Targets = append(bad.Targets, store.TargetWrite{Insert: &store.InsertTargetParams{OrganizationID: org, Kind: "BOGUS", PostID: &postID,
		Network: "BLUESKY", Status: "DRAFT", Payload: []byte(`{}`), AttemptKey: post + ":bluesky"}}) // violates the kind CHECK
	if _, err := store.WritePost(ctx, pool, bad); err == nil {
		t.Fatal("a batch with a failing statement succeeded")
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM publish_targets) + (SELECT count(*) FROM audit_log)`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Fatalf("%d rows left by a failed batch, want none", rows)
	}

	got, err := store.WritePost(ctx, pool, w)
	if err != nil {
		t.Fatal(err)
	}
	read, err := store.ReadPosts(ctx, pool, org, []string{post}, true, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Posts) != 1 || read.Posts[0].ID != got.Post.ID || !read.Posts[0].CreatedAt.Equal(got.Post.CreatedAt) {
		t.Fatalf("read %+v, wrote %+v", read.Posts, got.Post)
	}
	if len(read.Targets) != 1 || len(got.Targets) != 1 || read.Targets[0].ID != got.Targets[0].ID || read.Targets[0].Status != got.Targets[0].Status {
		t.Fatalf("read targets %+v, wrote %+v", read.Targets, got.Targets)
	}
}

// An edit read without a lock writes nothing if the post or one of its targets changed since it
// was read (ErrPostChanged), and writes when they did not.
func TestWritePostChecksWhatWasSeen(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	org, post := seedEditablePost(t, pool)
	edit := func(seen store.PostSeen) error {
		return editTitle(ctx, pool, org, post, seen)
	}
	for _, change := range []string{
		`UPDATE posts SET review_note = 'meanwhile'`,
		`UPDATE publish_targets SET attempts = attempts + 1`, // a target alone (the post untouched)
		`INSERT INTO publish_targets (organization_id, kind, post_id, network, status, payload, attempt_key)
		  VALUES ('` + org + `', 'POST', '` + post + `', 'BLUESKY', 'DRAFT', '{}', 'b')`,
	} {
		_, r, err := store.ReadPostEdit(ctx, pool, org, post, nil, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, change); err != nil {
			t.Fatal(err)
		}
		if err := edit(r.Seen); !errors.Is(err, store.ErrPostChanged) {
			t.Fatalf("after %q: %v, want ErrPostChanged", change, err)
		}
		var title string
		var audits int
		if err := pool.QueryRow(ctx, `SELECT (SELECT title FROM posts), (SELECT count(*) FROM audit_log)`).Scan(&title, &audits); err != nil {
			t.Fatal(err)
		}
		if title != "T" || audits != 0 {
			t.Fatalf("after %q: title %q and %d audit rows, want nothing written", change, title, audits)
		}
	}
	_, r, err := store.ReadPostEdit(ctx, pool, org, post, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit(r.Seen); err != nil {
		t.Fatal(err)
	}
}

// The rows a post's write answers and an edit reads are decoded by hand (rawRow): they are what
// pgx's own scan of the same rows gives, column for column, NULLs included.
func TestPostWriteRowsDecodeAsPgx(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	const org, team, post, upload = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003",
		"00000000-0000-4000-8000-000000000004"
	_, err := pool.Exec(ctx, `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'T');
INSERT INTO social_accounts (organization_id, team_id, type, username, channels, is_tiktok_business_account, delete_on)
  VALUES ('`+org+`', '`+team+`', 'MASTODON', 'm', '[{"id": "c"}]', true, now());
INSERT INTO social_accounts (organization_id, team_id, type) VALUES ('`+org+`', '`+team+`', 'BLUESKY');
INSERT INTO uploads (id, organization_id, team_id, type, mime, ext, path, file_size, width, video_length, name)
  VALUES ('`+upload+`', '`+org+`', '`+team+`', 'image', 'image/png', 'png', 'p', 12, 640, 1.5, 'n');`)
	if err != nil {
		t.Fatal(err)
	}
	postID, due, key, by := post, time.Now(), "k", "00000000-0000-4000-8000-000000000009"
	got, err := store.WritePost(ctx, pool, store.PostWrite{
		Create: &store.CreatePostParams{ID: post, OrganizationID: org, TeamID: team, CreatedByID: &by, Title: "T", ReferenceKey: &key, PostDate: due,
			Status: "DRAFT", SocialAccountTypes: []string{"MASTODON", "BLUESKY"}, Data: []byte(`{"MASTODON": {"text": "x"}}`), FirstComment: []byte(`{"MASTODON": "c"}`), CountedAt: &due},
		Targets: []store.TargetWrite{
			{Insert: &store.InsertTargetParams{OrganizationID: org, Kind: "POST", PostID: &postID, Network: "MASTODON", Status: "DRAFT",
				Payload: []byte(`{"text": "x"}`), AttemptKey: post + ":mastodon", DueAt: &due}},
			{Insert: &store.InsertTargetParams{OrganizationID: org, Kind: "POST", PostID: &postID, Network: "BLUESKY", Status: "DRAFT",
				Payload: []byte(`{}`), AttemptKey: post + ":bluesky"}}},
		Uploads: &store.ReplacePostUploadLinksParams{PostID: post, UploadIds: []string{upload}},
		Audit:   &store.InsertAuditItemParams{OrganizationID: org, ActorType: "SYSTEM", Action: "post.created", Metadata: []byte(`{}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func(sql string, dst any) {
		t.Helper()
		rows, err := pool.Query(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		switch d := dst.(type) {
		case *[]store.Post:
			*d, err = pgx.CollectRows(rows, pgx.RowToStructByPos[store.Post])
		case *[]store.PublishTarget:
			*d, err = pgx.CollectRows(rows, pgx.RowToStructByPos[store.PublishTarget])
		case *[]store.Upload:
			*d, err = pgx.CollectRows(rows, pgx.RowToStructByPos[store.Upload])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var posts []store.Post
	var targets []store.PublishTarget
	var uploads []store.Upload
	rowsOf(`SELECT * FROM posts`, &posts)
	rowsOf(`SELECT * FROM publish_targets ORDER BY kind, network`, &targets)
	rowsOf(`SELECT * FROM uploads`, &uploads)
	if len(posts) != 1 || !reflect.DeepEqual(got.Post, posts[0]) {
		t.Fatalf("written post\n%+v\npgx\n%+v", got.Post, posts)
	}
	sort.Slice(got.Targets, func(i, j int) bool { return got.Targets[i].Network < got.Targets[j].Network })
	if !reflect.DeepEqual(got.Targets, targets) {
		t.Fatalf("written targets\n%+v\npgx\n%+v", got.Targets, targets)
	}
	if len(got.Links) != 1 || got.Links[0].UploadID != upload || got.Links[0].CreatedAt.IsZero() {
		t.Fatalf("written links %+v", got.Links)
	}

	_, r, err := store.ReadPostEdit(ctx, pool, org, post, []string{upload}, &key, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Post, posts) || !reflect.DeepEqual(r.KeyOwner, posts) || !reflect.DeepEqual(r.Targets, targets) || !reflect.DeepEqual(r.Uploads, uploads) {
		t.Fatalf("edit read\n%+v\n%+v\n%+v\n%+v\npgx\n%+v\n%+v\n%+v", r.Post, r.KeyOwner, r.Targets, r.Uploads, posts, targets, uploads)
	}
	var accounts []store.SocialAccount
	rows, err := pool.Query(ctx, `SELECT sa.* FROM social_accounts sa ORDER BY sa.created_at, sa.id`)
	if err != nil {
		t.Fatal(err)
	}
	if accounts, err = pgx.CollectRows(rows, pgx.RowToStructByPos[store.SocialAccount]); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Accounts, accounts) {
		t.Fatalf("edit read accounts\n%+v\npgx\n%+v", r.Accounts, accounts)
	}
	c, err := store.ReadPostCreate(ctx, pool, org, team, []string{upload}, &key)
	if err != nil {
		t.Fatal(err)
	}
	if !c.TeamLive || !reflect.DeepEqual(c.Accounts, accounts) || !reflect.DeepEqual(c.Uploads, uploads) || !reflect.DeepEqual(c.KeyOwner, posts) {
		t.Fatalf("create read %+v", c)
	}
}

// An edit's check of the targets runs once the post is locked, against what was committed by then:
// a change committed while the edit waited for the post's lock fails the edit; a lock alone,
// released without a change, does not. (A check in the same statement as the lock, in that
// statement's snapshot, would miss the first: folding LockPostAsRead into the write must keep it.)
func TestWritePostChecksAfterTheLock(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	org, post := seedEditablePost(t, pool)
	for _, c := range []struct {
		meanwhile string // run while the post is locked by another transaction
		changed   bool
	}{
		{`UPDATE publish_targets SET attempts = attempts + 1`, true},
		{`UPDATE posts SET review_note = 'meanwhile'`, true},
		{`SELECT 1`, false},
	} {
		_, r, err := store.ReadPostEdit(ctx, pool, org, post, nil, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		other, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := other.Exec(ctx, `SELECT FROM posts WHERE id = $1 FOR UPDATE`, post); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			seen := r.Seen
			done <- editTitle(ctx, pool, org, post, seen)
		}()
		for waiting := false; !waiting; { // the edit waits for the post's lock
			time.Sleep(10 * time.Millisecond)
			if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock')`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := other.Exec(ctx, c.meanwhile); err != nil {
			t.Fatal(err)
		}
		if err := other.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		err = <-done
		var title string
		var audits int
		if err := pool.QueryRow(ctx, `SELECT (SELECT title FROM posts), (SELECT count(*) FROM audit_log)`).Scan(&title, &audits); err != nil {
			t.Fatal(err)
		}
		if c.changed {
			if !errors.Is(err, store.ErrPostChanged) || title != "T" || audits != 0 {
				t.Fatalf("after %q: %v, title %q, %d audit rows; want ErrPostChanged and nothing written", c.meanwhile, err, title, audits)
			}
		} else if err != nil || title != "Edited" || audits != 1 {
			t.Fatalf("after %q: %v, title %q, %d audit rows; want the edit written", c.meanwhile, err, title, audits)
		}
	}
}

// seedEditablePost writes an organization, a team and a DRAFT post (title "T") with one Mastodon
// target, for the edit checks' tests.
func seedEditablePost(t *testing.T, pool *pgxpool.Pool) (org, post string) {
	t.Helper()
	const team = "00000000-0000-4000-8000-000000000002"
	org, post = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000003"
	_, err := pool.Exec(context.Background(), `
INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000009', 'w@example.com', 'x');
INSERT INTO organizations (id, created_by_id, name) VALUES ('`+org+`', '00000000-0000-4000-8000-000000000009', 'W');
INSERT INTO teams (id, organization_id, created_by_id, name) VALUES ('`+team+`', '`+org+`', '00000000-0000-4000-8000-000000000009', 'T');
INSERT INTO posts (id, organization_id, team_id, title, post_date, status, social_account_types, data)
  VALUES ('`+post+`', '`+org+`', '`+team+`', 'T', now(), 'DRAFT', '{MASTODON}', '{}');
INSERT INTO publish_targets (organization_id, kind, post_id, network, status, payload, attempt_key)
  VALUES ('`+org+`', 'POST', '`+post+`', 'MASTODON', 'DRAFT', '{}', 'a');`)
	if err != nil {
		t.Fatal(err)
	}
	return org, post
}

// editTitle writes the post's title "Edited" as an edit that saw seen, with its audit row.
func editTitle(ctx context.Context, pool *pgxpool.Pool, org, post string, seen store.PostSeen) error {
	_, err := store.WritePost(ctx, pool, store.PostWrite{Seen: &seen,
		Update: &store.UpdatePostParams{ID: post, Title: "Edited", PostDate: time.Now(), Status: "DRAFT", SocialAccountTypes: []string{"MASTODON"}, Data: []byte(`{}`)},
		Audit:  &store.InsertAuditItemParams{OrganizationID: org, ActorType: "SYSTEM", Action: "post.updated", Metadata: []byte(`{}`)}})
	return err
}
