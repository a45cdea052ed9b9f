package store_test

import (
	"context"
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
	if len(read.Targets) != 1 || len(got.Targets) != 1 || read.Targets[0].ID != got.Targets[0].ID || read.Targets[0].Version != got.Targets[0].Version {
		t.Fatalf("read targets %+v, wrote %+v", read.Targets, got.Targets)
	}
}
