package publishing

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// ReconnectCandidates lists a team's live posts to a network whose target is not attached to the
// team's current account of that network, or failed (e.g. while the account was disconnected).
func (s *Service) ReconnectCandidates(ctx context.Context, teamID string, n app.Network, page app.Page) ([]app.ReconnectCandidate, int, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	acct, err := s.accounts.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
		AccountID: acct.ID, Lim: int32(page.Limit), Off: int32(page.Offset)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: reconnect candidates: %w", err)
	}
	out := make([]app.ReconnectCandidate, 0, len(rows))
	total := 0
	for _, r := range rows {
		d := r.PostDate
		out = append(out, app.ReconnectCandidate{ID: r.ID, Title: r.Title, PostDate: &d, Status: app.PostStatus(r.Status), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
		total = int(r.Total)
	}
	if len(rows) == 0 && page.Offset > 0 {
		all, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
			AccountID: acct.ID, Lim: 1, Off: 0})
		if err == nil && len(all) > 0 {
			total = int(all[0].Total)
		}
	}
	return out, total, nil
}

// ReconnectSocialAccount re-attaches the team's posts to a network (postIds, or every candidate) to
// the team's current account of it; failed targets are scheduled again (now, or at postDate when it
// is still ahead).
func (s *Service) ReconnectSocialAccount(ctx context.Context, teamID string, n app.Network, postIDs []string) (*app.ReconnectSummary, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	acct, err := s.accounts.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	if postIDs == nil {
		rows, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
			AccountID: acct.ID, Lim: 1000, Off: 0})
		if err != nil {
			return nil, fmt.Errorf("app: reconnect: %w", err)
		}
		for _, r := range rows {
			postIDs = append(postIDs, r.ID)
		}
	}
	out := &app.ReconnectSummary{Results: []app.ReconnectResult{}}
	for _, id := range postIDs {
		res := app.ReconnectResult{PostID: id}
		err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
			if err != nil || row.DeletedAt != nil || row.TeamID != teamID {
				return app.NotFound("Post")
			}
			res.Title, res.StatusBefore, res.StatusAfter = &row.Title, app.PostStatus(row.Status), app.PostStatus(row.Status)
			targets, err := q.ListPostTargets(ctx, []string{row.ID})
			if err != nil {
				return err
			}
			found := false
			rescheduled := false
			for _, t := range targets {
				if app.Network(t.Network) != n || t.Kind == app.TargetComment {
					continue
				}
				found = true
				switch app.PostStatus(t.Status) {
				case app.PostError:
					due := row.PostDate
					if due.Before(s.now()) {
						due = s.now().UTC()
					}
					nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(app.PostScheduled), DueAt: &due, Payload: t.Payload, SocialAccountID: &acct.ID})
					if err != nil {
						return err
					}
					if t.Kind == app.TargetPost {
						if err := s.enqueueTarget(ctx, tx, nt, due); err != nil {
							return err
						}
						rescheduled = true
					}
				case app.PostPosted, app.PostProcessing, app.PostDeleted:
				default:
					if _, err := q.SetTargetAccount(ctx, store.SetTargetAccountParams{ID: t.ID, SocialAccountID: &acct.ID}); err != nil {
						return err
					}
				}
			}
			if !found {
				return app.Invalid("The post does not publish to " + n.DisplayName())
			}
			if rescheduled {
				if _, err := q.SetPostStatus(ctx, store.SetPostStatusParams{ID: row.ID, Status: string(app.PostScheduled)}); err != nil {
					return err
				}
				res.StatusAfter = app.PostScheduled
			}
			return nil
		})
		out.Total++
		if err != nil {
			res.Message = app.ErrorMessage(err)
			out.Failed++
		} else {
			res.Success = true
			res.Message = "Attached to the " + n.DisplayName() + " account"
			out.Succeeded++
		}
		out.Results = append(out.Results, res)
	}
	return out, nil
}
