package app

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// lockPostInReview locks a live post of the organization for a review decision (done: "approved",
// "sent back"); only a post in REVIEW can take one.
func lockPostInReview(ctx context.Context, q *store.Queries, orgID, id, done string) (store.Post, error) {
	row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: orgID})
	if err != nil || row.DeletedAt != nil {
		return row, notFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: review post")
	}
	if row.Status != string(PostReview) {
		msg := "Only a post in REVIEW can be " + done
		return row, Invalid("Validation failed: status: "+msg, Issue{Code: IssueCustom, Message: msg, Path: []any{"status"}})
	}
	return row, nil
}

// ApprovePost schedules a post awaiting review (ADMIN or OWNER). A date already past publishes now.
func (s *Service) ApprovePost(ctx context.Context, id string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReviewPosts)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := lockPostInReview(ctx, q, pr.OrganizationID, id, "approved")
		if err != nil {
			return err
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, PostParams{Status: ptr(PostScheduled)})
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
			Status: string(PostScheduled), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment, CountedAt: counted})
		if err != nil {
			return fmt.Errorf("app: approve post: %w", err)
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.approved", TargetType: "post", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

// RejectPost sends a post awaiting review back to DRAFT with a note (ADMIN or OWNER).
func (s *Service) RejectPost(ctx context.Context, id, note string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReviewPosts)
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
		in, err := s.postInput(&cur, PostParams{Status: ptr(PostDraft)})
		if err != nil {
			return err
		}
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: row.Title, ReferenceKey: row.ReferenceKey, PostDate: row.PostDate,
			Status: string(PostDraft), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment,
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
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.rejected", TargetType: "post", TargetID: row.ID, Metadata: map[string]any{"note": note}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}
