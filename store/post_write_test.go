package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

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
	const org, team, post = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"
	_, err := pool.Exec(ctx, `
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
	edit := func(seen store.PostSeen) error {
		_, err := store.WritePost(ctx, pool, store.PostWrite{Seen: &seen,
			Update: &store.UpdatePostParams{ID: post, Title: "Edited", PostDate: time.Now(), Status: "DRAFT", SocialAccountTypes: []string{"MASTODON"}, Data: []byte(`{}`)},
			Audit:  &store.InsertAuditItemParams{OrganizationID: org, ActorType: "SYSTEM", Action: "post.updated", Metadata: []byte(`{}`)}})
		return err
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
