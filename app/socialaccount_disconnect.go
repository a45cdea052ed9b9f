package app

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// DisconnectSocialAccount soft-deletes the team's account of a network; it is purged after the
// organization's deleteAccountAfter hours (deleteOn), and a reconnect before that revives it.
func (s *Service) DisconnectSocialAccount(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	return s.disconnect(ctx, pr.OrganizationID, teamID, n, func(item AuditItem) AuditItem { return AuditBy(pr, item) })
}

func (s *Service) disconnect(ctx context.Context, orgID, teamID string, n Network, by func(AuditItem) AuditItem) (*SocialAccount, error) {
	var out SocialAccount
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := s.AccountByType(ctx, q, orgID, teamID, n)
		if err != nil {
			return err
		}
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return NotFoundOr(err, "Organization", "app: disconnect")
		}
		deleteOn := s.now().UTC().Add(time.Duration(org.DeleteAccountAfter) * time.Hour)
		if row, err = q.DisconnectSocialAccount(ctx, store.DisconnectSocialAccountParams{ID: row.ID, DeleteOn: &deleteOn}); err != nil {
			return NotFoundOr(err, "Social account", "app: disconnect")
		}
		out = SocialAccountFromRow(row)
		if err := s.Audit(ctx, tx, by(AuditItem{Action: EventSocialAccountDeleted, TargetType: "social_account", TargetID: out.ID,
			Metadata: map[string]any{"type": out.Type, "teamId": out.TeamID}})); err != nil {
			return err
		}
		return s.emit(ctx, tx, orgID, EventSocialAccountDeleted, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
