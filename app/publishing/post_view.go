package publishing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// postViewsWith builds the records of posts (with links: their uploads and social accounts), given
// the posts' targets and the organization's showVerboseErrors when already read (nil: read them).
// It reads statement by statement on q (a transaction's: the worker's outcome); plain reads use
// readPostViews, one round trip.
func (s *Service) postViewsWith(ctx context.Context, q *store.Queries, rows []store.Post, targets []store.PublishTarget, verbose *bool, links bool) ([]app.Post, error) {
	if len(rows) == 0 {
		return []app.Post{}, nil
	}
	r := store.PostReads{Targets: targets}
	if verbose == nil {
		org, err := q.GetOrganization(ctx, rows[0].OrganizationID)
		if err != nil {
			return nil, app.NotFoundOr(err, "Organization", "app: post view")
		}
		r.ShowVerboseErrors = org.ShowVerboseErrors
	} else {
		r.ShowVerboseErrors = *verbose
	}
	ids := make([]string, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var err error
	if targets == nil {
		if r.Targets, err = q.ListPostTargets(ctx, ids); err != nil {
			return nil, fmt.Errorf("app: post targets: %w", err)
		}
	}
	if links {
		if r.UploadLinks, err = q.ListPostUploadLinks(ctx, ids); err != nil {
			return nil, fmt.Errorf("app: post uploads: %w", err)
		}
		if len(r.UploadLinks) > 0 {
			upIDs := make([]string, 0, len(r.UploadLinks))
			for _, l := range r.UploadLinks {
				upIDs = append(upIDs, l.UploadID)
			}
			if r.Uploads, err = q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: rows[0].OrganizationID, Ids: upIDs}); err != nil {
				return nil, fmt.Errorf("app: post uploads: %w", err)
			}
		}
		if r.Accounts, err = q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: rows[0].OrganizationID, TeamIds: teamIDsOf(rows)}); err != nil {
			return nil, fmt.Errorf("app: post accounts: %w", err)
		}
	}
	return s.buildPostViews(ctx, rows, r, links, false), nil
}

// readPostViews answers the records of the organization's posts among ids, in the order of ids
// (absent ones left out), reading everything in one round trip (store.ReadPosts). teamID, when
// set, must be a live team of the organization: live reports it.
// With stored, each record's data is left in its stored form (StoredData) instead of decoded.
func (s *Service) readPostViews(ctx context.Context, orgID string, ids []string, teamID string, stored bool) (views []app.Post, live bool, err error) {
	return s.readPostViewsWith(ctx, s.db, orgID, ids, teamID, stored)
}

// postAsWritten is the record of the organization's post id read through tx before it commits:
// what the caller wrote, which a publish worker due at once may move on (PROCESSING) as soon as
// the transaction commits (an approval or a retry answers the post as approved or retried).
func (s *Service) postAsWritten(ctx context.Context, tx store.Batcher, orgID, id string) (*app.Post, error) {
	views, _, err := s.readPostViewsWith(ctx, tx, orgID, []string{id}, "", false)
	if err != nil {
		return nil, err
	}
	if len(views) == 0 {
		return nil, app.NotFound("Post")
	}
	return &views[0], nil
}

// readPostViewsWith is readPostViews through db.
func (s *Service) readPostViewsWith(ctx context.Context, db store.Batcher, orgID string, ids []string, teamID string, stored bool) (views []app.Post, live bool, err error) {
	r, err := store.ReadPosts(ctx, db, orgID, ids, true, teamID)
	if err != nil {
		return nil, false, err
	}
	return s.viewsInOrder(ctx, r, ids, stored), r.TeamLive, nil
}

// viewsInOrder builds the records of r's posts in the order of ids (absent ones left out).
func (s *Service) viewsInOrder(ctx context.Context, r store.PostReads, ids []string, stored bool) []app.Post {
	byID := make(map[string]store.Post, len(r.Posts))
	for _, p := range r.Posts {
		byID[p.ID] = p
	}
	rows := make([]store.Post, 0, len(ids))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			rows = append(rows, p)
		}
	}
	return s.buildPostViews(ctx, rows, r, true, stored)
}

// buildPostViews makes the records: targets become errors, externalData and (when the organization
// shows verbose errors) errorsVerbose; with links, uploads and social accounts; with stored, data
// in its stored form (StoredData) rather than decoded.
func (s *Service) buildPostViews(ctx context.Context, rows []store.Post, r store.PostReads, links, stored bool) []app.Post {
	byPost := targetsByPost(r.Targets)
	var upLinks map[string][]app.PostUploadLink
	var accounts map[string]app.SocialAccount
	if links {
		upLinks = s.postUploadLinks(ctx, r.UploadLinks, r.Uploads)
		accounts = map[string]app.SocialAccount{}
		for _, a := range r.Accounts {
			accounts[a.ID] = app.SocialAccountFromRow(a)
		}
	}
	out := make([]app.Post, len(rows))
	for i, row := range rows {
		var p app.Post
		if stored {
			p = postFields(row)
			p.StoredData = row.Data
		} else {
			p = postFromRow(row)
		}
		p.Targets, p.ExternalData, p.Errors, p.ErrorsVerbose = targetFields(byPost[row.ID], app.TargetPost, r.ShowVerboseErrors)
		if links {
			p.Uploads = upLinks[row.ID]
			if p.Uploads == nil {
				p.Uploads = []app.PostUploadLink{}
			}
			p.SocialAccounts = make([]app.PostSocialAccountLink, 0, len(byPost[row.ID]))
			for _, t := range byPost[row.ID] {
				if t.Kind != app.TargetPost || t.SocialAccountID == nil {
					continue
				}
				if a, ok := accounts[*t.SocialAccountID]; ok {
					p.SocialAccounts = append(p.SocialAccounts, app.PostSocialAccountLink{PostID: row.ID, SocialAccountID: a.ID,
						CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, SocialAccount: a})
				}
			}
		}
		out[i] = p
	}
	return out
}

// targetsByPost groups targets by post, in their order: runs of the slice itself when it comes
// sorted by post (as the reads sort it), so no target is copied.
func targetsByPost(targets []store.PublishTarget) map[string][]store.PublishTarget {
	out := map[string][]store.PublishTarget{}
	for i := 0; i < len(targets); {
		id := *targets[i].PostID
		j := i + 1
		for j < len(targets) && *targets[j].PostID == id {
			j++
		}
		if _, seen := out[id]; seen { // not sorted after all: append a copy
			out[id] = append(out[id][:len(out[id]):len(out[id])], targets[i:j]...)
		} else {
			out[id] = targets[i:j:j]
		}
		i = j
	}
	return out
}

func teamIDsOf(rows []store.Post) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if !seen[r.TeamID] {
			seen[r.TeamID] = true
			out = append(out, r.TeamID)
		}
	}
	return out
}

// postUploadLinks joins the posts' upload links to their live uploads, by post.
func (s *Service) postUploadLinks(ctx context.Context, links []store.PostUpload, uploads []store.Upload) map[string][]app.PostUploadLink {
	byID := map[string]*app.Upload{}
	for _, u := range uploads {
		if byID[u.ID] == nil { // an upload used by several posts of a page comes once per link: sign its URLs once
			byID[u.ID] = s.accounts.UploadFromRow(ctx, u)
		}
	}
	out := map[string][]app.PostUploadLink{}
	for _, l := range links {
		if u := byID[l.UploadID]; u != nil {
			out[l.PostID] = append(out[l.PostID], app.PostUploadLink{PostID: l.PostID, UploadID: l.UploadID, CreatedAt: l.CreatedAt,
				UpdatedAt: l.UpdatedAt, DeletedAt: l.DeletedAt, Upload: *u})
		}
	}
	return out
}

func postFromRow(r store.Post) app.Post {
	p := postFields(r)
	_ = json.Unmarshal(r.Data, &p.Data)
	return p
}

// postFields is a post's record but its data.
func postFields(r store.Post) app.Post {
	p := app.Post{ID: r.ID, TeamID: r.TeamID, OrganizationID: &r.OrganizationID, Title: r.Title, ReferenceKey: r.ReferenceKey,
		PostedDate: r.PostedDate, Status: app.PostStatus(r.Status), Error: r.Error, RetryCount: int(r.RetryCount), ReviewNote: r.ReviewNote,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
	d := r.PostDate
	p.PostDate = &d
	if r.FirstComment != nil {
		_ = json.Unmarshal(r.FirstComment, &p.FirstComment)
	}
	for _, n := range r.SocialAccountTypes {
		p.SocialAccountTypes = append(p.SocialAccountTypes, app.Network(n))
	}
	return p
}

func targetFromRow(t store.PublishTarget) app.PostTarget {
	out := app.PostTarget{ID: t.ID, Kind: t.Kind, Network: app.Network(t.Network), SocialAccountID: t.SocialAccountID, Status: app.PostStatus(t.Status),
		Attempts: int(t.Attempts), NextAttemptAt: t.NextAttemptAt, ExternalID: t.ExternalID, Permalink: t.Permalink, Error: t.Error, PostedAt: t.PostedAt}
	if t.ErrorVerbose != nil {
		var v app.ErrorVerbose
		if json.Unmarshal(t.ErrorVerbose, &v) == nil {
			out.ErrorVerbose = &v
		}
	}
	return out
}

// targetFields are the per-network fields of a post or comment record: all its targets, and where
// the targets of kind (POST for a post, COMMENT for a comment) landed or why they failed
// (errorsVerbose only when verbose).
func targetFields(targets []store.PublishTarget, kind string, verbose bool) (all []app.PostTarget, external map[app.Network]*app.ExternalRef,
	errs map[app.Network]*string, errsVerbose map[app.Network]*app.ErrorVerbose) {
	all = make([]app.PostTarget, 0, len(targets))
	var firstComments []app.PostTarget // a post's first comments that failed: shown under their network unless the post failed there too
	for _, t := range targets {
		pt := targetFromRow(t)
		all = append(all, pt)
		if kind == app.TargetPost && t.Kind == app.TargetFirstComment && t.Error != nil {
			firstComments = append(firstComments, pt)
		}
		if t.Kind != kind {
			continue
		}
		n := app.Network(t.Network)
		if t.ExternalID != nil || t.Permalink != nil {
			if external == nil {
				external = map[app.Network]*app.ExternalRef{}
			}
			external[n] = &app.ExternalRef{ID: t.ExternalID, Permalink: t.Permalink}
		}
		if t.Error != nil {
			if errs == nil {
				errs = map[app.Network]*string{}
			}
			errs[n] = t.Error
			if verbose && pt.ErrorVerbose != nil {
				if errsVerbose == nil {
					errsVerbose = map[app.Network]*app.ErrorVerbose{}
				}
				errsVerbose[n] = pt.ErrorVerbose
			}
		}
	}
	for _, fc := range firstComments {
		if _, failed := errs[fc.Network]; failed {
			continue
		}
		if errs == nil {
			errs = map[app.Network]*string{}
		}
		msg := "First comment: " + *fc.Error
		errs[fc.Network] = &msg
		if verbose && fc.ErrorVerbose != nil {
			if errsVerbose == nil {
				errsVerbose = map[app.Network]*app.ErrorVerbose{}
			}
			errsVerbose[fc.Network] = fc.ErrorVerbose
		}
	}
	return all, external, errs, errsVerbose
}
