package publishing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// GetComment answers a comment of the caller's organization.
func (s *Service) GetComment(ctx context.Context, id string) (*app.Comment, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

func (s *Service) getComment(ctx context.Context, orgID, id string) (*app.Comment, error) {
	row, err := s.q.GetComment(ctx, store.GetCommentParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return nil, app.NotFoundOr(err, "Comment", "app: get comment")
	}
	out, err := s.commentViews(ctx, s.q, []store.Comment{row})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

func (s *Service) commentViews(ctx context.Context, q *store.Queries, rows []store.Comment) ([]app.Comment, error) {
	if len(rows) == 0 {
		return []app.Comment{}, nil
	}
	org, err := q.GetOrganization(ctx, rows[0].OrganizationID)
	if err != nil {
		return nil, app.NotFoundOr(err, "Organization", "app: comment view")
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	targets, err := q.ListCommentTargets(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("app: comment targets: %w", err)
	}
	by := map[string][]store.PublishTarget{}
	for _, t := range targets {
		by[*t.CommentID] = append(by[*t.CommentID], t)
	}
	out := make([]app.Comment, len(rows))
	for i, r := range rows {
		d := r.PostDate
		c := app.Comment{ID: r.ID, TeamID: r.TeamID, OrganizationID: &r.OrganizationID, InternalPostID: r.InternalPostID, ImportedPostID: r.ImportedPostID,
			InternalParentCommentID: r.InternalParentCommentID, FetchedParentCommentID: r.FetchedParentCommentID, Title: r.Title, PostDate: &d,
			PostedDate: r.PostedDate, Status: app.PostStatus(r.Status), Error: r.Error, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
		_ = json.Unmarshal(r.Data, &c.Data)
		c.Targets, c.ExternalData, c.Errors, c.ErrorsVerbose = targetFields(by[r.ID], app.TargetComment, org.ShowVerboseErrors)
		out[i] = c
	}
	return out, nil
}

// ListComments answers a page of a team's comments matching f, with the total.
func (s *Service) ListComments(ctx context.Context, f app.CommentFilter, page app.Page) ([]app.Comment, int, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: f.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return nil, 0, app.NotFoundOr(err, "Team", "app: list comments")
	}
	if f.PostID != nil && !app.IsUUID(*f.PostID) {
		return []app.Comment{}, 0, nil
	}
	var status *string
	if f.Status != nil {
		st := string(*f.Status)
		status = &st
	}
	var platforms []string
	if len(f.Platforms) > 0 {
		platforms = networkStrings(f.Platforms)
	}
	orderBy := f.OrderBy
	if orderBy == "" {
		orderBy = "createdAt"
	}
	rows, err := s.q.ListComments(ctx, store.ListCommentsParams{OrganizationID: pr.OrganizationID, TeamID: f.TeamID, PostID: f.PostID,
		ImportedPostID: f.ImportedPostID, Status: status, Q: f.Q, Platforms: platforms, OrderBy: orderBy, Descending: f.Order != "ASC",
		Lim: int32(page.Limit), Off: int32(page.Offset)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list comments: %w", err)
	}
	total := 0
	comments := make([]store.Comment, len(rows))
	for i, r := range rows {
		total = int(r.Total)
		comments[i] = r.Comment
	}
	if len(rows) == 0 && page.Offset > 0 {
		all, err := s.q.ListComments(ctx, store.ListCommentsParams{OrganizationID: pr.OrganizationID, TeamID: f.TeamID, PostID: f.PostID,
			ImportedPostID: f.ImportedPostID, Status: status, Q: f.Q, Platforms: platforms, OrderBy: orderBy, Lim: 1})
		if err == nil && len(all) > 0 {
			total = int(all[0].Total)
		}
	}
	out, err := s.commentViews(ctx, s.q, comments)
	return out, total, err
}
