package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// A write with a WriteGuard is written only while every row the guard names is live and at the
// version read (the team, exactly the team's live accounts, the uploads): each change below fails
// it with ErrPostChanged and writes nothing; read again, it is written. It answers the versions it
// wrote (a later write's PostSeen) and the organization's showVerboseErrors as it stood.
func TestWriteGuard(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	org, post := seedEditablePost(t, pool)
	const team, upload = "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000004"
	_, err := pool.Exec(ctx, `UPDATE organizations SET show_verbose_errors = true;
INSERT INTO social_accounts (organization_id, team_id, type) VALUES ('`+org+`', '`+team+`', 'MASTODON');
INSERT INTO uploads (id, organization_id, type, mime, ext, path, file_size) VALUES ('`+upload+`', '`+org+`', 'image', 'image/jpeg', 'jpg', 'p', 1);`)
	if err != nil {
		t.Fatal(err)
	}
	createGuard := func() *store.WriteGuard {
		r, err := store.ReadPostCreate(ctx, pool, org, team, []string{upload}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return &store.WriteGuard{OrganizationID: org, TeamID: team, TeamVersion: r.TeamVersion, Accounts: r.AccountVersions,
			UploadIDs: []string{upload}, UploadVersions: r.UploadVersions}
	}
	create := func(g *store.WriteGuard) (store.PostWritten, error) {
		id := uuid.NewString()
		return store.WritePost(ctx, pool, store.PostWrite{Guard: g,
			Create: &store.CreatePostParams{ID: id, OrganizationID: org, TeamID: team, Title: "C", PostDate: time.Now(), Status: "DRAFT",
				SocialAccountTypes: []string{"MASTODON"}, Data: []byte(`{}`)},
			Targets: []store.TargetWrite{{Insert: &store.InsertTargetParams{OrganizationID: org, Kind: "POST", PostID: &id, Network: "MASTODON",
				Status: "DRAFT", Payload: []byte(`{}`), AttemptKey: id}}},
			Uploads: &store.ReplacePostUploadLinksParams{PostID: id, UploadIds: []string{upload}}})
	}
	editGuard := func() (store.PostSeen, *store.WriteGuard) {
		_, r, err := store.ReadPostEdit(ctx, pool, org, post, nil, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(r.Uploads))
		for i, u := range r.Uploads {
			ids[i] = u.ID
		}
		return r.Seen, &store.WriteGuard{OrganizationID: org, TeamID: team, Accounts: r.AccountVersions, UploadIDs: ids, UploadVersions: r.UploadVersions}
	}
	edit := func(seen store.PostSeen, g *store.WriteGuard) error {
		_, err := store.WritePost(ctx, pool, store.PostWrite{Seen: &seen, Guard: g,
			Update:  &store.UpdatePostParams{ID: post, Title: "Edited", PostDate: time.Now(), Status: "DRAFT", SocialAccountTypes: []string{"MASTODON"}, Data: []byte(`{}`)},
			Uploads: &store.ReplacePostUploadLinksParams{PostID: post, UploadIds: []string{upload}}})
		return err
	}
	rows := func() (n int) {
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM posts`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	postVersion := func() (v string) {
		if err := pool.QueryRow(ctx, `SELECT xmin::text FROM posts WHERE id = $1`, post).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	w, err := create(createGuard())
	if err != nil {
		t.Fatal(err)
	}
	var version, target string
	if err := pool.QueryRow(ctx, `SELECT p.xmin::text, t.id::text || '@' || t.xmin::text FROM posts p JOIN publish_targets t ON t.post_id = p.id WHERE p.id = $1`, w.Post.ID).
		Scan(&version, &target); err != nil {
		t.Fatal(err)
	}
	if w.Version != version || len(w.TargetVersions) != 1 || w.TargetVersions[0] != target || !w.ShowVerboseErrors {
		t.Fatalf("wrote version %q targets %v verbose %v; the rows: %q %q, verbose", w.Version, w.TargetVersions, w.ShowVerboseErrors, version, target)
	}
	seen, eg := editGuard()
	if err := edit(seen, eg); err != nil { // links the upload: the edit's reads find it
		t.Fatal(err)
	}
	for _, c := range []struct {
		change       string
		create, edit bool // whether it fails a creation's guard, an edit's (which does not check the team: a post never changes team)
	}{
		{`UPDATE teams SET name = 'Renamed'`, true, false},
		{`UPDATE social_accounts SET username = 'renamed'`, true, true},
		{`INSERT INTO social_accounts (organization_id, team_id, type) VALUES ('` + org + `', '` + team + `', 'BLUESKY')`, true, true},
		{`UPDATE social_accounts SET deleted_at = now() WHERE type = 'BLUESKY'`, true, true},
		{`UPDATE uploads SET width = 1`, true, true},
		{`UPDATE organizations SET name = 'Renamed'`, false, false}, // nothing the checks use
	} {
		g := createGuard()
		seen, eg := editGuard()
		before := rows()
		if _, err := pool.Exec(ctx, c.change); err != nil {
			t.Fatal(err)
		}
		_, cerr := create(g)
		if c.create != errors.Is(cerr, store.ErrPostChanged) || c.create && rows() != before || !c.create && cerr != nil {
			t.Fatalf("after %q: a creation %v, %d posts (before %d)", c.change, cerr, rows(), before)
		}
		eerr := edit(seen, eg)
		if c.edit != errors.Is(eerr, store.ErrPostChanged) || c.edit && postVersion() != seen.Version || !c.edit && eerr != nil {
			t.Fatalf("after %q: an edit %v", c.change, eerr)
		}
		if _, err := create(createGuard()); err != nil {
			t.Fatalf("after %q, read again: %v", c.change, err)
		}
		seen, eg = editGuard()
		if err := edit(seen, eg); err != nil {
			t.Fatalf("after %q, read again: %v", c.change, err)
		}
	}
}
