package app

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// ReconnectCandidates lists a team's live posts to a network whose target is not attached to the
// team's current account of that network, or failed (e.g. while the account was disconnected).
func (s *Service) ReconnectCandidates(ctx context.Context, teamID string, n Network, page Page) ([]ReconnectCandidate, int, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.validate(); err != nil {
		return nil, 0, err
	}
	acct, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
		AccountID: acct.ID, Lim: int32(page.Limit), Off: int32(page.Offset)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: reconnect candidates: %w", err)
	}
	out := make([]ReconnectCandidate, 0, len(rows))
	total := 0
	for _, r := range rows {
		d := r.PostDate
		out = append(out, ReconnectCandidate{ID: r.ID, Title: r.Title, PostDate: &d, Status: PostStatus(r.Status), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
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
func (s *Service) ReconnectSocialAccount(ctx context.Context, teamID string, n Network, postIDs []string) (*ReconnectSummary, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	acct, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
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
	out := &ReconnectSummary{Results: []ReconnectResult{}}
	for _, id := range postIDs {
		res := ReconnectResult{PostID: id}
		err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
			if err != nil || row.DeletedAt != nil || row.TeamID != teamID {
				return NotFound("Post")
			}
			res.Title, res.StatusBefore, res.StatusAfter = &row.Title, PostStatus(row.Status), PostStatus(row.Status)
			targets, err := q.ListPostTargets(ctx, []string{row.ID})
			if err != nil {
				return err
			}
			found := false
			rescheduled := false
			for _, t := range targets {
				if Network(t.Network) != n || t.Kind == targetComment {
					continue
				}
				found = true
				switch PostStatus(t.Status) {
				case PostError:
					due := row.PostDate
					if due.Before(s.now()) {
						due = s.now().UTC()
					}
					nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(PostScheduled), DueAt: &due, Payload: t.Payload, SocialAccountID: &acct.ID})
					if err != nil {
						return err
					}
					if t.Kind == targetPost {
						if err := s.enqueueTarget(ctx, tx, nt, due); err != nil {
							return err
						}
						rescheduled = true
					}
				case PostPosted, PostProcessing, PostDeleted:
				default:
					if _, err := q.SetTargetAccount(ctx, store.SetTargetAccountParams{ID: t.ID, SocialAccountID: &acct.ID}); err != nil {
						return err
					}
				}
			}
			if !found {
				return Invalid("The post does not publish to " + n.DisplayName())
			}
			if rescheduled {
				if _, err := q.SetPostStatus(ctx, store.SetPostStatusParams{ID: row.ID, Status: string(PostScheduled)}); err != nil {
					return err
				}
				res.StatusAfter = PostScheduled
			}
			return nil
		})
		out.Total++
		if err != nil {
			res.Message = ErrorMessage(err)
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
