package publishing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// postViews builds the records of posts: targets become errors, externalData and (when the
// organization shows verbose errors) errorsVerbose; links adds uploads and social accounts.
func (s *Service) postViews(ctx context.Context, q *store.Queries, rows []store.Post, links bool) ([]app.Post, error) {
	return s.postViewsWith(ctx, q, rows, nil, nil, links)
}

// postViewsWith is postViews with the posts' targets and the organization's showVerboseErrors
// already read (nil: read them).
func (s *Service) postViewsWith(ctx context.Context, q *store.Queries, rows []store.Post, targets []store.PublishTarget, verbose *bool, links bool) ([]app.Post, error) {
	if len(rows) == 0 {
		return []app.Post{}, nil
	}
	var err error
	if verbose == nil {
		org, err := q.GetOrganization(ctx, rows[0].OrganizationID)
		if err != nil {
			return nil, app.NotFoundOr(err, "Organization", "app: post view")
		}
		verbose = &org.ShowVerboseErrors
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	if targets == nil {
		if targets, err = q.ListPostTargets(ctx, ids); err != nil {
			return nil, fmt.Errorf("app: post targets: %w", err)
		}
	}
	byPost := map[string][]store.PublishTarget{}
	for _, t := range targets {
		byPost[*t.PostID] = append(byPost[*t.PostID], t)
	}
	var upLinks map[string][]app.PostUploadLink
	var accounts map[string]app.SocialAccount
	if links {
		if upLinks, err = s.postUploadLinks(ctx, q, rows[0].OrganizationID, ids); err != nil {
			return nil, err
		}
		accs, err := q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: rows[0].OrganizationID, TeamIds: teamIDsOf(rows)})
		if err != nil {
			return nil, fmt.Errorf("app: post accounts: %w", err)
		}
		accounts = map[string]app.SocialAccount{}
		for _, a := range accs {
			accounts[a.ID] = app.SocialAccountFromRow(a)
		}
	}
	out := make([]app.Post, len(rows))
	for i, r := range rows {
		p := postFromRow(r)
		p.Targets, p.ExternalData, p.Errors, p.ErrorsVerbose = targetFields(byPost[r.ID], app.TargetPost, *verbose)
		if links {
			p.Uploads = upLinks[r.ID]
			if p.Uploads == nil {
				p.Uploads = []app.PostUploadLink{}
			}
			p.SocialAccounts = []app.PostSocialAccountLink{}
			for _, t := range byPost[r.ID] {
				if t.Kind != app.TargetPost || t.SocialAccountID == nil {
					continue
				}
				if a, ok := accounts[*t.SocialAccountID]; ok {
					p.SocialAccounts = append(p.SocialAccounts, app.PostSocialAccountLink{PostID: r.ID, SocialAccountID: a.ID,
						CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, SocialAccount: a})
				}
			}
		}
		out[i] = p
	}
	return out, nil
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

func (s *Service) postUploadLinks(ctx context.Context, q *store.Queries, orgID string, postIDs []string) (map[string][]app.PostUploadLink, error) {
	links, err := q.ListPostUploadLinks(ctx, postIDs)
	if err != nil {
		return nil, fmt.Errorf("app: post uploads: %w", err)
	}
	if len(links) == 0 {
		return map[string][]app.PostUploadLink{}, nil
	}
	ids := make([]string, 0, len(links))
	for _, l := range links {
		ids = append(ids, l.UploadID)
	}
	ups, err := q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("app: post uploads: %w", err)
	}
	byID := map[string]*app.Upload{}
	for _, u := range ups {
		byID[u.ID] = s.accounts.UploadFromRow(ctx, u)
	}
	out := map[string][]app.PostUploadLink{}
	for _, l := range links {
		if u := byID[l.UploadID]; u != nil {
			out[l.PostID] = append(out[l.PostID], app.PostUploadLink{PostID: l.PostID, UploadID: l.UploadID, CreatedAt: l.CreatedAt,
				UpdatedAt: l.UpdatedAt, DeletedAt: l.DeletedAt, Upload: *u})
		}
	}
	return out, nil
}

func postFromRow(r store.Post) app.Post {
	p := app.Post{ID: r.ID, TeamID: r.TeamID, OrganizationID: &r.OrganizationID, Title: r.Title, ReferenceKey: r.ReferenceKey,
		PostedDate: r.PostedDate, Status: app.PostStatus(r.Status), Error: r.Error, RetryCount: int(r.RetryCount), ReviewNote: r.ReviewNote,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
	d := r.PostDate
	p.PostDate = &d
	_ = json.Unmarshal(r.Data, &p.Data)
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
