package app

import (
	"context"
	"fmt"
)

// Demo credentials, for development only (Seed refuses in production).
const (
	DemoEmail    = "demo@crier.local"
	DemoPassword = "crier-demo-password"
)

// DemoSeed is what Seed made or found.
type DemoSeed struct {
	Email, Password string
	OrganizationID  string
	TeamID          string
	APIKey          string
}

// SeedDemo makes sure the demo user, organization and team exist, and makes a fresh API key.
// Running it again reuses the user and team.
func (s *Service) SeedDemo(ctx context.Context) (*DemoSeed, error) {
	if s.opts.Production {
		return nil, Errorf(EForbidden, "the demo organization is for development only")
	}
	sess, err := s.Login(ctx, DemoEmail, DemoPassword)
	if ErrorCode(err) == EUnauthorized {
		org := "Demo Agency"
		last := "Marketer"
		sess, err = s.Signup(ctx, SignupParams{Email: DemoEmail, Password: DemoPassword, FirstName: "Dana", LastName: &last, OrganizationName: &org})
	}
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	p, err := s.AuthenticateSession(ctx, sess.User.ID, "", sess.Generation)
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	ctx = WithPrincipal(ctx, p)
	teams, _, err := s.ListTeams(ctx, "", Page{Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	var teamID string
	if len(teams) > 0 {
		teamID = teams[0].ID
	} else {
		name := "Demo brand"
		t, err := s.CreateTeam(ctx, TeamParams{Name: &name})
		if err != nil {
			return nil, fmt.Errorf("app: demo: %w", err)
		}
		teamID = t.ID
	}
	key, err := s.CreateAPIKey(ctx, "demo")
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	return &DemoSeed{Email: DemoEmail, Password: DemoPassword, OrganizationID: p.OrganizationID, TeamID: teamID, APIKey: key.Key}, nil
}
