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
	ActorName      string // for the audit log: the user's email, or the key's name
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
