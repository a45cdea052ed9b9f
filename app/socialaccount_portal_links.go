package app

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// A team's open portal links can be listed and ended before they expire. A link's token is never
// stored, so a link is known by its networks and times; ending it sets its expiry to now.

// PortalLinkInfo is an open portal link as its team's page lists it.
type PortalLinkInfo struct {
	ID          string
	Types       []Network
	RedirectURL *string
	ExpiresAt   time.Time
	CreatedAt   time.Time
}

// ListPortalLinks answers the team's portal links that still work, newest first (at most 100).
func (s *Service) ListPortalLinks(ctx context.Context, teamID string) ([]PortalLinkInfo, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	if !IsUUID(teamID) {
		return nil, NotFound("Team")
	}
	rows, err := s.q.ListOpenPortalLinks(ctx, store.ListOpenPortalLinksParams{TeamID: teamID, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, fmt.Errorf("app: portal links: %w", err)
	}
	out := make([]PortalLinkInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, PortalLinkInfo{ID: r.ID, Types: networksOf(r.AllowedTypes), RedirectURL: r.RedirectUrl, ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt})
	}
	return out, nil
}

// EndPortalLink stops an open portal link of the team at once (404 when it is not open).
func (s *Service) EndPortalLink(ctx context.Context, teamID, id string) error {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return err
	}
	if !IsUUID(teamID) || !IsUUID(id) {
		return NotFound("Portal link")
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).EndPortalLink(ctx, store.EndPortalLinkParams{ID: id, TeamID: teamID, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Portal link", "app: end portal link")
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "social-account.portal-link-ended", TargetType: "team", TargetID: teamID,
			Metadata: map[string]any{"portalLinkId": row.ID, "types": row.AllowedTypes}}))
	})
}

func networksOf(types []string) []Network {
	out := make([]Network, 0, len(types))
	for _, t := range types {
		out = append(out, Network(t))
	}
	return out
}
