package app

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/crier/crier/store"
)

// Invitation is a pending invitation to join the caller's organization (the spec's Invitation).
type Invitation struct {
	ID        string
	Email     string
	Role      Role
	ExpiresAt time.Time
	CreatedAt time.Time
}

func invitationFromRow(r store.Invitation) Invitation {
	return Invitation{ID: r.ID, Email: r.Email, Role: Role(r.Role), ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt}
}

const invitationName = "This invitation"

// ListInvitations answers the organization's pending invitations (neither accepted nor revoked;
// expired ones included, so they can be seen and sent again), newest first.
func (s *Service) ListInvitations(ctx context.Context) ([]Invitation, int, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageMembers)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.q.ListInvitations(ctx, p.OrganizationID)
	if err != nil {
		return nil, 0, fmt.Errorf("app: invitations: %w", err)
	}
	out := make([]Invitation, 0, len(rows))
	for _, r := range rows {
		out = append(out, invitationFromRow(r))
	}
	return out, len(out), nil
}

// CreateInvitation invites email into the caller's organization with role and mails the link (one
// transaction). Inviting as OWNER needs an OWNER. An address that is already a member is refused
// (400 on email). Inviting an address that has a pending invitation refreshes that invitation: same
// id, the new role, a new link (the old one stops working), a new expiry, and a new mail.
func (s *Service) CreateInvitation(ctx context.Context, email string, role Role) (*Invitation, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageMembers)
	if err != nil {
		return nil, err
	}
	email = strings.TrimSpace(email)
	var issues []Issue
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		issues = append(issues, InvalidString("email", "email"))
	}
	if role != RoleOwner && role != RoleAdmin && role != RoleMember {
		issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'OWNER' | 'ADMIN' | 'MEMBER', received '" + string(role) + "'", Path: []any{"role"}})
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	if role == RoleOwner {
		if _, err := Authorize(p, ActManageOwners); err != nil {
			return nil, err
		}
	}
	token, hash, err := newToken()
	if err != nil {
		return nil, err
	}
	var out Invitation
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		org, err := q.GetOrganization(ctx, p.OrganizationID)
		if err != nil {
			return NotFoundOr(err, "Organization", "app: invite")
		}
		member, err := q.IsMemberByEmail(ctx, store.IsMemberByEmailParams{OrganizationID: p.OrganizationID, Email: email})
		if err != nil {
			return fmt.Errorf("app: invite: %w", err)
		}
		if member {
			return Invalid("Validation failed: email: This person is already a member of the organization",
				Issue{Code: IssueCustom, Message: "This person is already a member of the organization", Path: []any{"email"}})
		}
		now := s.now().UTC()
		action := "invitation.created"
		var row store.Invitation
		pending, err := q.GetPendingInvitationByEmail(ctx, store.GetPendingInvitationByEmailParams{OrganizationID: p.OrganizationID, Email: email})
		switch {
		case err == nil:
			action = "invitation.refreshed"
			row, err = q.RefreshInvitation(ctx, store.RefreshInvitationParams{ID: pending.ID, OrganizationID: p.OrganizationID, Email: email,
				Role: string(role), TokenHash: hash, InvitedByID: &p.UserID, CreatedAt: now, ExpiresAt: now.Add(InvitationTokenTTL)})
		case errors.Is(err, pgx.ErrNoRows):
			row, err = q.CreateInvitation(ctx, store.CreateInvitationParams{OrganizationID: p.OrganizationID, Email: email,
				Role: string(role), TokenHash: hash, InvitedByID: &p.UserID, CreatedAt: now, ExpiresAt: now.Add(InvitationTokenTTL)})
		}
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" { // a concurrent invite of the same address won
			return Errorf(EConflict, "An invitation to %s is being sent already; try again", email)
		}
		if err != nil {
			return fmt.Errorf("app: invite: %w", err)
		}
		out = invitationFromRow(row)
		inviter, err := q.GetUser(ctx, p.UserID)
		if err != nil {
			return NotFoundOr(err, "User", "app: invite")
		}
		if err := s.sendMail(ctx, tx, MailInvitation, email, mailData{
			Link: s.link(AcceptInvitationPath, token), ButtonLabel: "Accept the invitation", Lifetime: lifetimeText(InvitationTokenTTL),
			OrganizationName: org.Name, InviterName: fullName(inviter.FirstName, inviter.LastName, inviter.Email), Role: role,
			owner: outboxOwner{organization: p.OrganizationID, tokenTTL: InvitationTokenTTL},
		}); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: action, TargetType: "invitation", TargetID: row.ID,
			Metadata: map[string]any{"email": email, "role": role}}))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteInvitation revokes a pending invitation of the caller's organization; its link stops working.
func (s *Service) DeleteInvitation(ctx context.Context, id string) error {
	p, err := Authorize(PrincipalFrom(ctx), ActManageMembers)
	if err != nil {
		return err
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		now := s.now().UTC()
		row, err := s.q.WithTx(tx).RevokeInvitation(ctx, store.RevokeInvitationParams{ID: id, OrganizationID: p.OrganizationID, RevokedAt: &now})
		if err != nil {
			return NotFoundOr(err, "Invitation", "app: revoke invitation")
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "invitation.revoked", TargetType: "invitation", TargetID: id,
			Metadata: map[string]any{"email": row.Email, "role": row.Role}}))
	})
}

// InvitationInfo is what the accept page shows about an invitation.
type InvitationInfo struct {
	OrganizationName string
	Email            string
	Role             Role
	InviterName      string
	UserExists       bool // the address has an account: accepting needs no password
	ExpiresAt        time.Time
}

// invitationByToken loads and checks a token's invitation (locked, in db).
func (s *Service) invitationByToken(ctx context.Context, q *store.Queries, token string) (store.GetInvitationByTokenRow, error) {
	inv, err := q.GetInvitationByToken(ctx, hashToken(token))
	if errors.Is(err, pgx.ErrNoRows) {
		return inv, tokenError(invitationName, "is not valid; ask for a new one")
	}
	if err != nil {
		return inv, fmt.Errorf("app: invitation: %w", err)
	}
	switch {
	case inv.RevokedAt != nil:
		return inv, tokenError(invitationName, "was revoked; ask for a new one")
	case inv.OrganizationDeletedAt != nil:
		return inv, tokenError(invitationName, "is for an organization that no longer exists")
	}
	return inv, checkToken(invitationName, inv.AcceptedAt, inv.ExpiresAt, s.now())
}

// InvitationPreview answers what an invitation token is for (the dashboard's accept page); bad,
// used, revoked or expired tokens answer 400 on token. It needs no caller: the token is the proof.
func (s *Service) InvitationPreview(ctx context.Context, token string) (*InvitationInfo, error) {
	var out *InvitationInfo
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		inv, err := s.invitationByToken(ctx, q, token)
		if err != nil {
			return err
		}
		exists := true
		if _, err := q.GetUserByEmail(ctx, inv.Email); errors.Is(err, pgx.ErrNoRows) {
			exists = false
		} else if err != nil {
			return fmt.Errorf("app: invitation preview: %w", err)
		}
		inviter := "Someone"
		if inv.InviterEmail != nil {
			inviter = fullName(inv.InviterFirstName, inv.InviterLastName, *inv.InviterEmail)
		}
		out = &InvitationInfo{OrganizationName: inv.OrganizationName, Email: inv.Email, Role: Role(inv.Role),
			InviterName: inviter, UserExists: exists, ExpiresAt: inv.ExpiresAt}
		return nil
	})
	return out, err
}

// AcceptInvitationParams is the body of POST /user/invitations/accept.
type AcceptInvitationParams struct {
	Token     string
	Password  *string // required (min 10) when the address has no account yet
	FirstName *string // required when the address has no account yet
}

// acceptInvitation joins the invitation's organization and answers the session there (the caller is
// signed in: holding the mailed token proves the mailbox). An address without an account gets one,
// with Password and FirstName, its email counting as verified; an existing account needs neither and
// gets the membership (a person who is already a member keeps their role). The token works once.
func (s *Service) acceptInvitation(ctx context.Context, in AcceptInvitationParams) (*Session, error) {
	var userID, orgID string
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		inv, err := s.invitationByToken(ctx, q, in.Token)
		if err != nil {
			return err
		}
		orgID = inv.OrganizationID
		now := s.now().UTC()
		u, err := q.GetUserByEmail(ctx, inv.Email)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if err := checkNewUser(in); err != nil {
				return err
			}
			hash, err := hashPassword(*in.Password)
			if err != nil {
				return fmt.Errorf("app: accept invitation: %w", err)
			}
			first := strings.TrimSpace(*in.FirstName)
			u, err = q.CreateVerifiedUser(ctx, store.CreateVerifiedUserParams{Email: inv.Email, PasswordHash: hash, FirstName: &first, EmailVerifiedAt: &now})
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" {
				return Errorf(EConflict, "An account for %s was just created; accept the invitation again", inv.Email)
			}
			if err != nil {
				return fmt.Errorf("app: accept invitation: create user: %w", err)
			}
		case err != nil:
			return fmt.Errorf("app: accept invitation: %w", err)
		default:
			if _, err := q.SetEmailVerified(ctx, store.SetEmailVerifiedParams{ID: u.ID, Email: inv.Email, VerifiedAt: &now}); err != nil {
				return fmt.Errorf("app: accept invitation: %w", err)
			}
		}
		userID = u.ID
		if _, err := q.GetMembership(ctx, store.GetMembershipParams{UserID: u.ID, OrganizationID: inv.OrganizationID}); errors.Is(err, pgx.ErrNoRows) {
			if _, err := q.CreateMembership(ctx, store.CreateMembershipParams{OrganizationID: inv.OrganizationID, UserID: u.ID, Role: inv.Role}); err != nil {
				return fmt.Errorf("app: accept invitation: membership: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("app: accept invitation: %w", err)
		}
		if err := q.AcceptInvitation(ctx, store.AcceptInvitationParams{ID: inv.ID, AcceptedAt: &now, AcceptedByID: &u.ID}); err != nil {
			return fmt.Errorf("app: accept invitation: %w", err)
		}
		return s.Audit(ctx, tx, AuditItem{OrganizationID: inv.OrganizationID, ActorType: "USER", ActorID: u.ID, ActorName: u.Email,
			Action: "invitation.accepted", TargetType: "invitation", TargetID: inv.ID, Metadata: map[string]any{"email": inv.Email, "role": inv.Role}})
	})
	if err != nil {
		return nil, err
	}
	return s.sessionFor(ctx, userID, orgID)
}

// checkNewUser asks for what a new account needs.
func checkNewUser(in AcceptInvitationParams) error {
	var issues []Issue
	if in.Password == nil {
		issues = append(issues, Issue{Code: IssueInvalidType, Message: "Required", Path: []any{"password"}})
	} else if err := checkLength("password", *in.Password, MinPasswordLength, 200); err != nil {
		issues = append(issues, ErrorIssues(err)...)
	}
	if in.FirstName == nil {
		issues = append(issues, Issue{Code: IssueInvalidType, Message: "Required", Path: []any{"firstName"}})
	} else if strings.TrimSpace(*in.FirstName) == "" {
		issues = append(issues, StringMin(1, "firstName"))
	}
	long := checkMax(nil, in.FirstName, MaxPersonName, "firstName")
	if len(issues) > 0 {
		return Invalid("This address has no Crier account yet: choose a password (at least 10 characters) and give your first name", append(issues, long...)...)
	}
	if len(long) > 0 {
		return Invalid("Validation failed: firstName: "+long[0].Message, long...)
	}
	return nil
}

// fullName is "First Last", else the email.
func fullName(first, last *string, email string) string {
	var parts []string
	for _, p := range []*string{first, last} {
		if p != nil && strings.TrimSpace(*p) != "" {
			parts = append(parts, strings.TrimSpace(*p))
		}
	}
	if len(parts) == 0 {
		return email
	}
	return strings.Join(parts, " ")
}
