package publishing

import (
	"context"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// Posts' versions (store/post_version.go), for a reader that keeps records and must check each is
// still current before answering it (the API's cache, api/post_cache.go). Every read here is a
// plain read on the pool, never a transaction's: what a version pairs with is committed.

// PostVersion answers the version of the caller's organization's post id; ok is false when there
// is no such post (the caller's full read answers the error).
func (s *Service) PostVersion(ctx context.Context, id string) (v int64, ok bool, err error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return 0, false, err
	}
	return store.ReadPostVersion(ctx, s.db, pr.OrganizationID, id)
}

// GetPostStoredVersioned is GetPostStored with the post's version, hashed from the rows read
// (ok false: none was, as for an id that is not a uuid).
func (s *Service) GetPostStoredVersioned(ctx context.Context, id string) (post *app.Post, v int64, ok bool, err error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, 0, false, err
	}
	r, err := store.ReadPostVersioned(ctx, s.db, pr.OrganizationID, id)
	if err != nil {
		return nil, 0, false, app.NotFoundOr(err, "Post", "app: get post")
	}
	if len(r.Posts) == 0 {
		return nil, 0, false, app.NotFound("Post")
	}
	out := s.buildPostViews(ctx, r.Posts[:1], r, true, true)
	return &out[0], r.Version, r.Versioned, nil
}

// ListPostVersions answers a page of ListPostsStored as its posts' ids and versions, with the
// total, in one round trip. A page without posts answers none: the caller lists as usual (which
// also tells a deleted team's 404 from an empty page).
func (s *Service) ListPostVersions(ctx context.Context, f app.PostFilter, page app.Page) ([]store.PostVersion, int, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	out, total, live, err := store.ListPostVersions(ctx, s.db, listFilter(pr.OrganizationID, f, page))
	if err != nil {
		return nil, 0, app.NotFoundOr(err, "Team", "app: list posts") // not a uuid: 404
	}
	if len(out) > 0 && !live {
		return nil, 0, app.NotFound("Team")
	}
	return out, total, nil
}

// PostsStored answers the caller's organization's posts among ids, in the order of ids (absent
// ones left out), with their data as stored: the posts of a page its reader does not hold.
func (s *Service) PostsStored(ctx context.Context, ids []string) ([]app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	out, _, err := s.readPostViews(ctx, pr.OrganizationID, ids, "", true)
	if err != nil {
		return nil, app.NotFoundOr(err, "Post", "app: list posts")
	}
	return out, nil
}
