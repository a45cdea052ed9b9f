package publishing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// lockPostInReview locks a live post of the organization for a review decision (done: "approved",
// "sent back"); only a post in REVIEW can take one.
func lockPostInReview(ctx context.Context, q *store.Queries, orgID, id, done string) (store.Post, error) {
	row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: orgID})
	if err != nil || row.DeletedAt != nil {
		return row, app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: review post")
	}
	if row.Status != string(app.PostReview) {
		msg := "Only a post in REVIEW can be " + done
		return row, app.Invalid("Validation failed: status: "+msg, app.Issue{Code: app.IssueCustom, Message: msg, Path: []any{"status"}})
	}
	return row, nil
}

// ApprovePost schedules a post awaiting review (ADMIN or OWNER). A date already past publishes now.
func (s *Service) ApprovePost(ctx context.Context, id string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActReviewPosts)
	if err != nil {
		return nil, err
	}
	var approved *app.Post
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := lockPostInReview(ctx, q, pr.OrganizationID, id, "approved")
		if err != nil {
			return err
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, app.PostParams{Status: ptr(app.PostScheduled)})
		if err != nil {
			return err
		}
		if in.postDate.Before(s.now()) {
			in.postDate = s.now().UTC()
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		if err := s.checkPost(ctx, q, pr.OrganizationID, row.TeamID, in, accounts); err != nil {
			return err
		}
		if err := q.LockOrganizationQuota(ctx, pr.OrganizationID); err != nil {
			return fmt.Errorf("app: approve post: %w", err)
		}
		if err := s.checkQuotas(ctx, q, pr.OrganizationID, row.CountedAt == nil, &row.ID, in.postDate, in.types, accounts); err != nil {
			return err
		}
		now := s.now().UTC()
		counted := row.CountedAt
		if counted == nil {
			counted = &now
		}
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: row.Title, ReferenceKey: row.ReferenceKey, PostDate: in.postDate,
			Status: string(app.PostScheduled), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment, CountedAt: counted})
		if err != nil {
			return fmt.Errorf("app: approve post: %w", err)
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		if err := s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.approved", TargetType: "post", TargetID: row.ID})); err != nil {
			return err
		}
		approved, err = s.postAsWritten(ctx, tx, pr.OrganizationID, row.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return approved, nil
}

// RejectPost sends a post awaiting review back to DRAFT with a note (ADMIN or OWNER).
func (s *Service) RejectPost(ctx context.Context, id, note string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActReviewPosts)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := lockPostInReview(ctx, q, pr.OrganizationID, id, "sent back")
		if err != nil {
			return err
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, app.PostParams{Status: ptr(app.PostDraft)})
		if err != nil {
			return err
		}
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: row.Title, ReferenceKey: row.ReferenceKey, PostDate: row.PostDate,
			Status: string(app.PostDraft), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment,
			CountedAt: row.CountedAt, ReviewNote: nonEmpty(note)})
		if err != nil {
			return fmt.Errorf("app: reject post: %w", err)
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.rejected", TargetType: "post", TargetID: row.ID, Metadata: map[string]any{"note": note}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}
