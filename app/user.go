package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// UpdateMeParams is the body of PATCH /user/me; nil leaves a field, "" clears a nullable one.
type UpdateMeParams struct {
	FirstName *string
	LastName  *string
	Timezone  *string
	AvatarURL *string
}

// Me answers the caller's user record.
func (s *Service) Me(ctx context.Context) (*User, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return nil, err
	}
	u, err := s.q.GetUser(ctx, p.UserID)
	if err != nil {
		return nil, NotFoundOr(err, "User", "app: me")
	}
	out := userFromRow(u)
	return &out, nil
}

// UpdateMe changes the caller's name, timezone (an IANA name) or avatar.
func (s *Service) UpdateMe(ctx context.Context, in UpdateMeParams) (*User, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return nil, err
	}
	var issues []Issue
	if in.FirstName != nil && strings.TrimSpace(*in.FirstName) == "" {
		issues = append(issues, StringMin(1, "firstName"))
	}
	issues = checkMax(issues, in.FirstName, MaxPersonName, "firstName")
	issues = checkMax(issues, in.LastName, MaxPersonName, "lastName")
	if in.Timezone != nil {
		if _, err := time.LoadLocation(*in.Timezone); err != nil || *in.Timezone == "" || strings.EqualFold(*in.Timezone, "local") {
			issues = append(issues, Issue{Code: IssueCustom, Message: "Unknown timezone; use an IANA name such as Europe/Paris", Path: []any{"timezone"}})
		}
	}
	if in.AvatarURL != nil && *in.AvatarURL != "" {
		if u, err := url.Parse(*in.AvatarURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			issues = append(issues, InvalidString("url", "avatarUrl"))
		}
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	var out User
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		cur, err := q.GetUser(ctx, p.UserID)
		if err != nil {
			return NotFoundOr(err, "User", "app: update me")
		}
		trimmed := func(v *string) *string { t := strings.TrimSpace(*v); return &t }
		params := store.UpdateUserParams{ID: p.UserID, FirstName: cur.FirstName, LastName: cur.LastName, Timezone: cur.Timezone, AvatarUrl: cur.AvatarUrl}
		if in.FirstName != nil {
			params.FirstName = trimmed(in.FirstName)
		}
		if in.LastName != nil {
			params.LastName = trimmed(in.LastName)
			if *params.LastName == "" {
				params.LastName = nil
			}
		}
		if in.Timezone != nil {
			params.Timezone = in.Timezone
		}
		if in.AvatarURL != nil {
			params.AvatarUrl = in.AvatarURL
			if *in.AvatarURL == "" {
				params.AvatarUrl = nil
			}
		}
		u, err := q.UpdateUser(ctx, params)
		if err != nil {
			return fmt.Errorf("app: update me: %w", err)
		}
		out = userFromRow(u)
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "user.updated", TargetType: "user", TargetID: p.UserID}))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CompleteOnboarding marks the caller onboarded (once) and answers the session.
func (s *Service) CompleteOnboarding(ctx context.Context) (*Session, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return nil, err
	}
	if err := s.q.SetUserOnboarded(ctx, p.UserID); err != nil {
		return nil, fmt.Errorf("app: onboarding: %w", err)
	}
	return s.sessionFor(ctx, p.UserID, p.OrganizationID)
}

// SwitchOrganization makes orgID the session's current organization; the caller must belong to it.
// API keys belong to one organization and cannot switch.
func (s *Service) SwitchOrganization(ctx context.Context, orgID string) (*Session, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return nil, err
	}
	if p.APIKeyID != "" {
		return nil, Invalid("Validation failed: organizationId: API keys belong to one organization; switch with the dashboard session",
			Issue{Code: IssueCustom, Message: "API keys belong to one organization; switch with the dashboard session", Path: []any{"organizationId"}})
	}
	if _, err := s.q.GetMembership(ctx, store.GetMembershipParams{UserID: p.UserID, OrganizationID: orgID}); err != nil {
		return nil, NotFoundOr(err, "Organization", "app: switch organization")
	}
	return s.sessionFor(ctx, p.UserID, orgID)
}

// CreateOrganization creates another organization (FREE plan) owned by the caller.
func (s *Service) CreateOrganization(ctx context.Context, name string) (*Membership, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActCreateOrg)
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if err := checkLength("name", name, 1, MaxOrganizationName); err != nil {
		return nil, err
	}
	var out Membership
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		org, err := q.CreateOrganization(ctx, store.CreateOrganizationParams{CreatedByID: p.UserID, Name: name})
		if err != nil {
			return fmt.Errorf("app: create organization: %w", err)
		}
		m, err := q.CreateMembership(ctx, store.CreateMembershipParams{OrganizationID: org.ID, UserID: p.UserID, Role: string(RoleOwner)})
		if err != nil {
			return fmt.Errorf("app: create organization: %w", err)
		}
		out = Membership{ID: m.ID, OrganizationID: org.ID, OrganizationName: org.Name, Role: RoleOwner}
		item := AuditBy(p, AuditItem{Action: "organization.created", TargetType: "organization", TargetID: org.ID})
		item.OrganizationID = org.ID
		return s.Audit(ctx, tx, item)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
