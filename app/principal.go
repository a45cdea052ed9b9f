package app

import "context"

// Role is a membership's role in an organization.
type Role string

const (
	RoleOwner  Role = "OWNER"
	RoleAdmin  Role = "ADMIN"
	RoleMember Role = "MEMBER"
)

// Principal is who calls: a user's membership, through the dashboard session or an API key.
type Principal struct {
	UserID         string
	OrganizationID string
	MembershipID   string
	Role           Role
	APIKeyID       string // empty for session calls
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller in ctx, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// AuthenticateAPIKey resolves an x-api-key secret to its principal.
//
// API keys are created by the identity capability (POST /api/v1/api-key), which replaces this
// body with the lookup by prefix and hash; until then no key exists, so every key is invalid.
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string) (*Principal, error) {
	return nil, Errorf(EUnauthorized, "Invalid API key")
}
