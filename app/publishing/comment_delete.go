package publishing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// DeleteComment deletes a comment; its queued jobs become no-ops, and where it was POSTED it is
// removed from the network when the adapter can (a reply is deleted like a post).
func (s *Service) DeleteComment(ctx context.Context, id string) (*app.Comment, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	var posted []store.PublishTarget
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: delete comment")
		}
		targets, err := q.ListCommentTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: delete comment: %w", err)
		}
		for _, t := range targets {
			switch app.PostStatus(t.Status) {
			case app.PostPosted:
				posted = append(posted, t)
			case app.PostProcessing:
			default:
				if _, err := q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(app.PostDeleted)}); err != nil {
					return fmt.Errorf("app: delete comment: %w", err)
				}
			}
		}
		if _, err := q.DeleteComment(ctx, row.ID); err != nil {
			return fmt.Errorf("app: delete comment: %w", err)
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "comment.deleted", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	for _, t := range posted {
		s.deleteOnNetwork(ctx, t)
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// RetryComment re-runs the failed networks of a comment, now.
func (s *Service) RetryComment(ctx context.Context, id string) (*app.Comment, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: retry comment")
		}
		targets, err := q.ListCommentTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: retry comment: %w", err)
		}
		now := s.now().UTC()
		n := 0
		for _, t := range targets {
			if t.Status != string(app.PostError) {
				continue
			}
			nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(app.PostScheduled), DueAt: &now, Payload: t.Payload, SocialAccountID: t.SocialAccountID})
			if err != nil {
				return fmt.Errorf("app: retry comment: %w", err)
			}
			if err := s.enqueueTarget(ctx, tx, nt, now); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return app.Invalid("Validation failed: status: Only a comment with failed networks can be retried",
				app.Issue{Code: app.IssueCustom, Message: "Only a comment with failed networks can be retried (status " + row.Status + ")", Path: []any{"status"}})
		}
		if _, err := q.SetCommentStatus(ctx, store.SetCommentStatusParams{ID: row.ID, Status: string(app.PostScheduled)}); err != nil {
			return fmt.Errorf("app: retry comment: %w", err)
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "comment.retried", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// settleComment moves a comment along with its targets; comment.published when final.
func (s *Service) settleComment(ctx context.Context, tx pgx.Tx, id string) error {
	q := s.q.WithTx(tx)
	c, err := q.GetCommentByID(ctx, id)
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	if c.DeletedAt != nil {
		return nil
	}
	targets, err := q.ListCommentTargets(ctx, []string{id})
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	status, errText, postedAt := settle(targets, app.TargetComment)
	if status == app.PostStatus(c.Status) {
		return nil
	}
	row, err := q.SetCommentStatus(ctx, store.SetCommentStatusParams{ID: id, Status: string(status), Error: errText, PostedDate: postedAt})
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	if status != app.PostPosted && status != app.PostError {
		return nil
	}
	views, err := s.commentViews(ctx, q, []store.Comment{row})
	if err != nil {
		return err
	}
	return s.accounts.Emit(ctx, tx, row.OrganizationID, app.EventCommentPublished, views[0])
}
