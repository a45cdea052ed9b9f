package publishing

import (
	"context"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// CheckPost answers the issues a create of p would be refused with (schema-level and per-network
// rules, against p.TeamID's accounts and the organization's uploads), saving nothing: the composer
// checks the form as the user picks networks and media. Quotas are not checked (they count posts
// at save time).
func (s *Service) CheckPost(ctx context.Context, p app.PostParams) ([]app.Issue, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	in, err := s.postInput(nil, p)
	if err != nil {
		if app.ErrorCode(err) == app.EInvalid {
			return app.ErrorIssues(err), nil
		}
		return nil, err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return nil, app.NotFoundOr(err, "Team", "app: check post")
	}
	accounts, _, err := s.teamAccounts(ctx, s.q, pr.OrganizationID, p.TeamID)
	if err != nil {
		return nil, err
	}
	return s.ruleIssues(ctx, s.q, pr.OrganizationID, in, accounts)
}
