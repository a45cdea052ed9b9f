package publishing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// RetryPost re-runs the failed (ERROR) network targets of a post, now; POSTED ones are left alone.
func (s *Service) RetryPost(ctx context.Context, id string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	var retried *app.Post
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: retry post")
		}
		targets, err := q.ListPostTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: retry post: %w", err)
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		n := 0
		now := s.now().UTC()
		for _, t := range targets {
			if t.Status != string(app.PostError) || t.Kind == app.TargetComment {
				continue
			}
			acct := t.SocialAccountID
			if a := accounts[app.Network(t.Network)]; a != nil {
				acct = &a.ID
			}
			nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(app.PostScheduled), DueAt: &now, Payload: t.Payload, SocialAccountID: acct})
			if err != nil {
				return fmt.Errorf("app: retry post: %w", err)
			}
			if err := s.enqueueTarget(ctx, tx, nt, now); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return app.Invalid("Validation failed: status: Only a post with failed networks can be retried",
				app.Issue{Code: app.IssueCustom, Message: "Only a post with failed networks can be retried (status " + row.Status + ")", Path: []any{"status"}})
		}
		if _, err := q.BumpPostRetry(ctx, row.ID); err != nil {
			return fmt.Errorf("app: retry post: %w", err)
		}
		if err := s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.retried", TargetType: "post", TargetID: row.ID, Metadata: map[string]any{"targets": n}})); err != nil {
			return err
		}
		retried, err = s.postAsWritten(ctx, tx, pr.OrganizationID, row.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return retried, nil
}

func errOr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
