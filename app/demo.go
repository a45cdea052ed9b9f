package app

import (
	"context"
	"fmt"
	"regexp"

	"github.com/crier/crier/store"
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

// SeedDemo makes sure the demo user (email verified), organization and team exist, and makes a
// fresh API key. Running it again reuses the user and team. SeedLivingDemo fills the organization.
func (s *Service) SeedDemo(ctx context.Context) (*DemoSeed, error) {
	d, ctx, err := s.demoOwner(ctx)
	if err != nil {
		return nil, err
	}
	key, err := s.CreateAPIKey(ctx, "demo")
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	d.APIKey = key.Key
	return d, nil
}

// demoOwner signs the demo user in (signing up and verifying the address the first time) and
// answers the seed so far with a context acting as that user.
func (s *Service) demoOwner(ctx context.Context) (*DemoSeed, context.Context, error) {
	if s.opts.Production {
		return nil, ctx, Errorf(EForbidden, "the demo organization is for development only")
	}
	sess, err := s.Login(ctx, DemoEmail, DemoPassword)
	if ErrorCode(err) == EUnauthorized {
		org := "Demo Agency"
		last := "Marketer"
		sess, err = s.Signup(ctx, SignupParams{Email: DemoEmail, Password: DemoPassword, FirstName: "Dana", LastName: &last, OrganizationName: &org})
	}
	if err != nil {
		return nil, ctx, fmt.Errorf("app: demo: %w", err)
	}
	p, err := s.AuthenticateSession(ctx, sess.User.ID, "", sess.Generation)
	if err != nil {
		return nil, ctx, fmt.Errorf("app: demo: %w", err)
	}
	ctx = WithPrincipal(ctx, p)
	if sess.User.EmailVerifiedAt == nil {
		if err := s.demoVerify(ctx); err != nil {
			return nil, ctx, fmt.Errorf("app: demo: verify email: %w", err)
		}
	}
	teams, _, err := s.ListTeams(ctx, "", Page{Limit: 1})
	if err != nil {
		return nil, ctx, fmt.Errorf("app: demo: %w", err)
	}
	var teamID string
	if len(teams) > 0 {
		teamID = teams[0].ID
	} else {
		name := "Demo brand"
		t, err := s.CreateTeam(ctx, TeamParams{Name: &name})
		if err != nil {
			return nil, ctx, fmt.Errorf("app: demo: %w", err)
		}
		teamID = t.ID
	}
	return &DemoSeed{Email: DemoEmail, Password: DemoPassword, OrganizationID: p.OrganizationID, TeamID: teamID}, ctx, nil
}

// demoVerify follows the mailed verification link, as the user would from the dev mailbox (no
// banner in the demo); a link too old (a database the first demo seeded days ago) is sent again.
func (s *Service) demoVerify(ctx context.Context) error {
	token, err := s.demoMailToken(ctx, DemoEmail, MailVerifyEmail)
	if err == nil && s.VerifyEmail(ctx, token) == nil {
		return nil
	}
	if err := s.ResendVerification(ctx); err != nil {
		return err
	}
	if token, err = s.demoMailToken(ctx, DemoEmail, MailVerifyEmail); err != nil {
		return err
	}
	return s.VerifyEmail(ctx, token)
}

var demoTokenInLink = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// demoMailToken reads the token of the newest mail of a kind to an address from the outbox.
func (s *Service) demoMailToken(ctx context.Context, to string, kind MailKind) (string, error) {
	body, err := s.q.DemoLatestMail(ctx, store.DemoLatestMailParams{ToAddress: to, Kind: string(kind)})
	if err != nil {
		return "", fmt.Errorf("app: demo: no %s mail to %s: %w", kind, to, err)
	}
	m := demoTokenInLink.FindStringSubmatch(body)
	if m == nil {
		return "", fmt.Errorf("app: demo: no link in the %s mail to %s", kind, to)
	}
	return m[1], nil
}
