package publishing

import (
	"context"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// GetPost answers a post of the caller's organization (deleted ones too, with status DELETED),
// with its uploads, social accounts and per-network targets.
func (s *Service) GetPost(ctx context.Context, id string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

// GetPostStored is GetPost with the post's data left as stored (StoredData, Data empty), for a
// reader that renders it from there without decoding it (the API).
func (s *Service) GetPostStored(ctx context.Context, id string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	return s.readPost(ctx, pr.OrganizationID, id, true)
}

func (s *Service) getPost(ctx context.Context, orgID, id string) (*app.Post, error) {
	return s.readPost(ctx, orgID, id, false)
}

func (s *Service) readPost(ctx context.Context, orgID, id string, stored bool) (*app.Post, error) {
	out, _, err := s.readPostViews(ctx, orgID, []string{id}, "", stored)
	if err != nil {
		return nil, app.NotFoundOr(err, "Post", "app: get post") // not a uuid: 404
	}
	if len(out) == 0 {
		return nil, app.NotFound("Post")
	}
	return &out[0], nil
}

// GetPostByReferenceKey answers the live post with a reference key.
func (s *Service) GetPostByReferenceKey(ctx context.Context, key string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	row, err := s.q.GetPostByReferenceKey(ctx, store.GetPostByReferenceKeyParams{OrganizationID: pr.OrganizationID, ReferenceKey: &key})
	if err != nil {
		return nil, app.NotFoundOr(err, "Post", "app: post by reference key")
	}
	return s.getPost(ctx, pr.OrganizationID, row.ID)
}

// ListPosts answers a page of a team's posts matching f, with the total.
func (s *Service) ListPosts(ctx context.Context, f app.PostFilter, page app.Page) ([]app.Post, int, error) {
	out, _, total, err := s.listPosts(ctx, f, page, false, false)
	return out, total, err
}

// ListPostsStored is ListPosts with each post's data left as stored (StoredData, Data empty).
func (s *Service) ListPostsStored(ctx context.Context, f app.PostFilter, page app.Page) ([]app.Post, int, error) {
	out, _, total, err := s.listPosts(ctx, f, page, true, false)
	return out, total, err
}

// ListPostsStoredVersioned is ListPostsStored with each post's version (by id), hashed from the
// rows read (store.ReadPostsVersioned) — for a reader that keeps records (the API's cache) and
// holds few of a page's: read whole, with no version statement first.
func (s *Service) ListPostsStoredVersioned(ctx context.Context, f app.PostFilter, page app.Page) ([]app.Post, []store.PostVersion, int, error) {
	return s.listPosts(ctx, f, page, true, true)
}

func (s *Service) listPosts(ctx context.Context, f app.PostFilter, page app.Page, stored, versioned bool) ([]app.Post, []store.PostVersion, int, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, nil, 0, err
	}
	// Two round trips: the page's ids, then the posts with everything they show and the team's
	// check (a page of a deleted or foreign team is empty, so its 404 loses nothing by coming second).
	ids, total, err := store.ListPostIDs(ctx, s.db, listFilter(pr.OrganizationID, f, page))
	if err != nil {
		return nil, nil, 0, app.NotFoundOr(err, "Team", "app: list posts") // not a uuid: 404
	}
	var r store.PostReads
	if versioned {
		r, err = store.ReadPostsVersioned(ctx, s.db, pr.OrganizationID, ids, f.TeamID)
	} else {
		r, err = store.ReadPosts(ctx, s.db, pr.OrganizationID, ids, true, f.TeamID)
	}
	if err != nil {
		return nil, nil, 0, app.NotFoundOr(err, "Team", "app: list posts")
	}
	if !r.TeamLive {
		return nil, nil, 0, app.NotFound("Team")
	}
	return s.viewsInOrder(ctx, r, ids, stored), r.Versions, total, nil
}

func listFilter(orgID string, f app.PostFilter, page app.Page) store.PostListFilter {
	lf := store.PostListFilter{OrganizationID: orgID, TeamID: f.TeamID, OrderBy: f.OrderBy, Descending: f.Order != "ASC",
		Q: f.Q, Platforms: networkStrings(f.Platforms), PostDateFrom: f.PostDateFrom, PostDateTo: f.PostDateTo, Offset: page.Offset, Limit: page.Limit}
	if f.Status != nil {
		st := string(*f.Status)
		lf.Status = &st
	}
	return lf
}
