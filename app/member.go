package app

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Member is a membership with its user.
type Member struct {
	ID        string
	UserID    string
	Email     string
	FirstName *string
	LastName  *string
	Role      Role
	CreatedAt time.Time
}

// DefaultMemberListLimit is the page size of GET /user/members.
const DefaultMemberListLimit = 20

// ListMembers answers the organization's members, oldest first.
func (s *Service) ListMembers(ctx context.Context, page Page) ([]Member, int, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActListMembers)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	total, err := s.q.CountMembers(ctx, p.OrganizationID)
	if err != nil {
		return nil, 0, fmt.Errorf("app: members: %w", err)
	}
	rows, err := s.q.ListMembers(ctx, store.ListMembersParams{OrganizationID: p.OrganizationID, Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: members: %w", err)
	}
	out := make([]Member, 0, len(rows))
	for _, r := range rows {
		out = append(out, Member{ID: r.ID, UserID: r.UserID, Email: r.Email, FirstName: r.FirstName, LastName: r.LastName, Role: Role(r.Role), CreatedAt: r.CreatedAt})
	}
	return out, int(total), nil
}

// UpdateMemberRole changes a member's role. Granting or removing OWNER needs an OWNER, and the last
// OWNER cannot be demoted.
func (s *Service) UpdateMemberRole(ctx context.Context, id string, role Role) (*Member, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageMembers)
	if err != nil {
		return nil, err
	}
	if role != RoleOwner && role != RoleAdmin && role != RoleMember {
		return nil, Invalid("Validation failed: role: Invalid enum value",
			Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'OWNER' | 'ADMIN' | 'MEMBER', received '" + string(role) + "'", Path: []any{"role"}})
	}
	var out Member
	defer s.keys.forgetOrg(p.OrganizationID) // the keys acting as the member (keycache.go)
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		m, err := q.GetMember(ctx, store.GetMemberParams{ID: id, OrganizationID: p.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Member", "app: update member")
		}
		if err := s.checkOwnerChange(ctx, q, p, Role(m.Role), role); err != nil {
			return err
		}
		if err := q.UpdateMemberRole(ctx, store.UpdateMemberRoleParams{ID: id, OrganizationID: p.OrganizationID, Role: string(role)}); err != nil {
			return fmt.Errorf("app: update member: %w", err)
		}
		out = Member{ID: m.ID, UserID: m.UserID, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName, Role: role, CreatedAt: m.CreatedAt}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "member.role_changed", TargetType: "member", TargetID: id,
			Metadata: map[string]any{"from": m.Role, "to": role, "email": m.Email}}))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// RemoveMember removes a member (and the API keys acting as them). The last OWNER stays.
func (s *Service) RemoveMember(ctx context.Context, id string) error {
	p, err := Authorize(PrincipalFrom(ctx), ActManageMembers)
	if err != nil {
		return err
	}
	defer s.keys.forgetOrg(p.OrganizationID) // the keys acting as the member (keycache.go)
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		m, err := q.GetMember(ctx, store.GetMemberParams{ID: id, OrganizationID: p.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Member", "app: remove member")
		}
		if err := s.checkOwnerChange(ctx, q, p, Role(m.Role), ""); err != nil {
			return err
		}
		if err := q.DeleteMember(ctx, store.DeleteMemberParams{ID: id, OrganizationID: p.OrganizationID}); err != nil {
			return fmt.Errorf("app: remove member: %w", err)
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "member.removed", TargetType: "member", TargetID: id, Metadata: map[string]any{"email": m.Email}}))
	})
}

// checkOwnerChange guards moves from role `from` to `to` ("" = removal) that touch OWNER.
func (s *Service) checkOwnerChange(ctx context.Context, q *store.Queries, p *Principal, from, to Role) error {
	if from != RoleOwner && to != RoleOwner {
		return nil
	}
	if _, err := Authorize(p, ActManageOwners); err != nil {
		return err
	}
	if from == RoleOwner && to != RoleOwner {
		if err := q.LockOrganization(ctx, p.OrganizationID); err != nil {
			return fmt.Errorf("app: owners: %w", err)
		}
		n, err := q.CountOwners(ctx, p.OrganizationID)
		if err != nil {
			return fmt.Errorf("app: owners: %w", err)
		}
		if n <= 1 {
			return Errorf(EForbidden, "The last OWNER cannot be removed or demoted; make someone else OWNER first")
		}
	}
	return nil
}

// ChangePassword sets a new password after checking the current one; the user's other sessions
// end. It answers the new session generation, so the caller's own session can stay signed in.
func (s *Service) ChangePassword(ctx context.Context, current, next string) (int, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return 0, err
	}
	if err := checkLength("newPassword", next, MinPasswordLength, 200); err != nil {
		return 0, err
	}
	u, err := s.q.GetUser(ctx, p.UserID)
	if err != nil {
		return 0, NotFoundOr(err, "User", "app: change password")
	}
	if !checkPassword(u.PasswordHash, current) {
		return 0, Invalid("Validation failed: currentPassword: The current password is wrong",
			Issue{Code: IssueCustom, Message: "The current password is wrong", Path: []any{"currentPassword"}})
	}
	hash, err := hashPassword(next)
	if err != nil {
		return 0, fmt.Errorf("app: change password: %w", err)
	}
	var gen int32
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if gen, err = s.q.WithTx(tx).SetPassword(ctx, store.SetPasswordParams{ID: p.UserID, PasswordHash: hash}); err != nil {
			return fmt.Errorf("app: change password: %w", err)
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "user.password_changed", TargetType: "user", TargetID: p.UserID}))
	})
	return int(gen), err
}
