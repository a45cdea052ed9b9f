package app

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Plan is an organization's subscription plan.
type Plan string

const (
	PlanFree       Plan = "FREE"
	PlanPro        Plan = "PRO"
	PlanBusiness   Plan = "BUSINESS"
	PlanEnterprise Plan = "ENTERPRISE"
)

// PlanLimits are a plan's quotas; Teams 0 means unlimited.
type PlanLimits struct {
	Teams           int
	MonthlyPosts    int
	MonthlyComments int
	MonthlyUploads  int
	// MonthlyImportsPerAccount caps the posts imported per social account a month
	// (the spec's monthlyImportLimitPerAccount).
	MonthlyImportsPerAccount int
}

// planLimits: FREE is the spec's (20 posts, 200 uploads a month, 3 teams); the rest are ours.
var planLimits = map[Plan]PlanLimits{
	PlanFree:       {Teams: 3, MonthlyPosts: 20, MonthlyComments: 50, MonthlyUploads: 200, MonthlyImportsPerAccount: 100},
	PlanPro:        {Teams: 10, MonthlyPosts: 1000, MonthlyComments: 2000, MonthlyUploads: 5000, MonthlyImportsPerAccount: 1000},
	PlanBusiness:   {Teams: 50, MonthlyPosts: 10000, MonthlyComments: 20000, MonthlyUploads: 50000, MonthlyImportsPerAccount: 5000},
	PlanEnterprise: {Teams: 0, MonthlyPosts: 1000000, MonthlyComments: 1000000, MonthlyUploads: 1000000, MonthlyImportsPerAccount: 50000},
}

// LimitsOf answers plan's quotas.
func LimitsOf(plan Plan) PlanLimits { return planLimits[plan] }

// Organization is an organization's record as embedded in a team (the spec's Organization without
// createdBy, subscription and teams).
type Organization struct {
	ID                        string
	CreatedByID               string
	Name                      string
	AvatarURL                 *string
	Ref                       *string
	Plan                      Plan
	APIAccess                 bool
	Suspended                 bool
	AnalyticsDisabled         bool
	AnalyticsPostsDisabled    bool
	UploadsCompressionEnabled bool
	ShowVerboseErrors         bool
	DisconnectCheckEnabled    bool
	DeleteAccountAfter        int
	PortalBrandName           *string
	PortalLogoURL             *string
	PortalAccentColor         *string
	CreatedAt                 time.Time
	UpdatedAt                 time.Time
	DeletedAt                 *time.Time
}

// OrgOwner is the user who created an organization (the spec's OrgOwner record).
type OrgOwner struct {
	User
	UpdatedAt time.Time
	DeletedAt *time.Time
}

func organizationFromRow(o store.Organization) Organization {
	return Organization{ID: o.ID, CreatedByID: o.CreatedByID, Name: o.Name, AvatarURL: o.AvatarUrl, Ref: o.Ref,
		Plan: Plan(o.Plan), APIAccess: o.ApiAccess, Suspended: o.Suspended, AnalyticsDisabled: o.AnalyticsDisabled,
		AnalyticsPostsDisabled: o.AnalyticsPostsDisabled, UploadsCompressionEnabled: o.UploadsCompressionEnabled,
		ShowVerboseErrors: o.ShowVerboseErrors, DisconnectCheckEnabled: o.DisconnectCheckEnabled,
		DeleteAccountAfter: int(o.DeleteAccountAfter), PortalBrandName: o.PortalBrandName, PortalLogoURL: o.PortalLogoUrl,
		PortalAccentColor: o.PortalAccentColor, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, DeletedAt: o.DeletedAt}
}

// organizationAndOwner loads an organization and its creator.
func (s *Service) organizationAndOwner(ctx context.Context, db store.DBTX, orgID string) (Organization, OrgOwner, error) {
	q := store.New(db)
	o, err := q.GetOrganization(ctx, orgID)
	if err != nil {
		return Organization{}, OrgOwner{}, NotFoundOr(err, "Organization", "app: organization")
	}
	u, err := q.GetUser(ctx, o.CreatedByID)
	if err != nil {
		// A deleted creator is still the creator: show the record without failing the read.
		return organizationFromRow(o), OrgOwner{User: User{ID: o.CreatedByID}}, nil
	}
	return organizationFromRow(o), OrgOwner{User: userFromRow(u), UpdatedAt: u.UpdatedAt, DeletedAt: u.DeletedAt}, nil
}

// OrganizationDetail is the full Organization record: with its creator and teams. Subscription and
// promotion code are nil until the billing capability lands.
type OrganizationDetail struct {
	Organization
	CreatedBy OrgOwner
	Teams     []Team
}

// GetOrganization answers the caller's organization.
func (s *Service) GetOrganization(ctx context.Context) (*OrganizationDetail, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	org, owner, err := s.organizationAndOwner(ctx, s.db, p.OrganizationID)
	if err != nil {
		return nil, err
	}
	rows, err := s.q.ListOrganizationTeams(ctx, p.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("app: organization teams: %w", err)
	}
	out := &OrganizationDetail{Organization: org, CreatedBy: owner, Teams: make([]Team, 0, len(rows))}
	for _, r := range rows {
		out.Teams = append(out.Teams, teamFromRow(r))
	}
	return out, nil
}

// UsageKind is a monthly quota.
type UsageKind string

const (
	UsagePosts    UsageKind = "posts"
	UsageComments UsageKind = "comments"
	UsageUploads  UsageKind = "uploads"
)

// Usage is a quota's state this month.
type Usage struct {
	Used, Limit, Remaining int
}

// usageCounters count a kind's use by an organization since a time. Each capability registers its
// counter here (posts, comments, uploads); a kind without one has no use yet, because nothing can
// create it.
var usageCounters = map[UsageKind]func(ctx context.Context, q *store.Queries, orgID string, since time.Time) (int, error){}

// MonthlyUsage answers used, limit and remaining of a monthly quota (the calendar month, UTC).
func (s *Service) MonthlyUsage(ctx context.Context, kind UsageKind) (*Usage, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	org, err := s.q.GetOrganization(ctx, p.OrganizationID)
	if err != nil {
		return nil, NotFoundOr(err, "Organization", "app: usage")
	}
	limits := LimitsOf(Plan(org.Plan))
	limit := map[UsageKind]int{UsagePosts: limits.MonthlyPosts, UsageComments: limits.MonthlyComments, UsageUploads: limits.MonthlyUploads}[kind]
	used := 0
	if count, ok := usageCounters[kind]; ok {
		now := s.now().UTC()
		if used, err = count(ctx, s.q, p.OrganizationID, time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)); err != nil {
			return nil, fmt.Errorf("app: usage %s: %w", kind, err)
		}
	}
	return &Usage{Used: used, Limit: limit, Remaining: max(limit-used, 0)}, nil
}

// SettingsParams is the body of PATCH /organization/settings; nil leaves a setting, "" clears a
// portal branding field.
type SettingsParams struct {
	Name                         *string
	UploadsCompression           *bool
	VerboseErrors                *bool
	RemoteDisconnectChecks       *bool
	DeleteDisconnectedAfterHours *int
	PortalBrandName              *string
	PortalLogoURL                *string
	PortalAccentColor            *string
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// UpdateSettings changes the organization's settings and answers them all.
func (s *Service) UpdateSettings(ctx context.Context, in SettingsParams) (map[string]any, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageSettings)
	if err != nil {
		return nil, err
	}
	var issues []Issue
	add := func(code, msg, field string) {
		issues = append(issues, Issue{Code: code, Message: msg, Path: []any{field}})
	}
	if in.Name != nil {
		if err := checkLength("name", strings.TrimSpace(*in.Name), 1, MaxOrganizationName); err != nil {
			issues = append(issues, ErrorIssues(err)...)
		}
	}
	if h := in.DeleteDisconnectedAfterHours; h != nil && (*h < 0 || *h > 168) {
		add(IssueTooBig, "Number must be between 0 and 168", "deleteDisconnectedAfterHours")
	}
	if v := in.PortalBrandName; v != nil && len([]rune(*v)) > 80 {
		issues = append(issues, StringMax(80, "portalBrandName"))
	}
	if v := in.PortalLogoURL; v != nil && *v != "" {
		if u, err := url.Parse(*v); err != nil || u.Scheme != "https" || u.Host == "" {
			add(IssueInvalidString, "Invalid url: the logo must be an https URL", "portalLogoUrl")
		}
	}
	if v := in.PortalAccentColor; v != nil && *v != "" && !hexColor.MatchString(*v) {
		add(IssueInvalidString, "Invalid color: use #RRGGBB", "portalAccentColor")
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	var out map[string]any
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		cur, err := q.GetOrganization(ctx, p.OrganizationID)
		if err != nil {
			return NotFoundOr(err, "Organization", "app: settings")
		}
		params := store.UpdateOrganizationSettingsParams{ID: cur.ID, Name: cur.Name, UploadsCompressionEnabled: cur.UploadsCompressionEnabled,
			ShowVerboseErrors: cur.ShowVerboseErrors, DisconnectCheckEnabled: cur.DisconnectCheckEnabled, DeleteAccountAfter: cur.DeleteAccountAfter,
			PortalBrandName: cur.PortalBrandName, PortalLogoUrl: cur.PortalLogoUrl, PortalAccentColor: cur.PortalAccentColor}
		if in.Name != nil {
			params.Name = strings.TrimSpace(*in.Name)
		}
		setBool := func(dst *bool, v *bool) {
			if v != nil {
				*dst = *v
			}
		}
		setBool(&params.UploadsCompressionEnabled, in.UploadsCompression)
		setBool(&params.ShowVerboseErrors, in.VerboseErrors)
		setBool(&params.DisconnectCheckEnabled, in.RemoteDisconnectChecks)
		if in.DeleteDisconnectedAfterHours != nil {
			params.DeleteAccountAfter = int32(*in.DeleteDisconnectedAfterHours)
		}
		setText := func(dst **string, v *string) {
			if v != nil {
				*dst = nilIfEmpty(strings.TrimSpace(*v))
			}
		}
		setText(&params.PortalBrandName, in.PortalBrandName)
		setText(&params.PortalLogoUrl, in.PortalLogoURL)
		setText(&params.PortalAccentColor, in.PortalAccentColor)
		o, err := q.UpdateOrganizationSettings(ctx, params)
		if err != nil {
			return fmt.Errorf("app: settings: %w", err)
		}
		out = map[string]any{
			"name": o.Name, "uploadsCompression": o.UploadsCompressionEnabled, "verboseErrors": o.ShowVerboseErrors,
			"remoteDisconnectChecks": o.DisconnectCheckEnabled, "deleteDisconnectedAfterHours": int(o.DeleteAccountAfter),
			"portalBrandName": o.PortalBrandName, "portalLogoUrl": o.PortalLogoUrl, "portalAccentColor": o.PortalAccentColor,
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "organization.settings_updated", TargetType: "organization", TargetID: o.ID}))
	})
	return out, err
}

// DeleteOrganization soft-deletes the caller's organization and revokes its keys; confirmName must
// repeat the organization's name.
func (s *Service) DeleteOrganization(ctx context.Context, confirmName string) error {
	p, err := Authorize(PrincipalFrom(ctx), ActDeleteOrg)
	if err != nil {
		return err
	}
	defer s.keys.forgetOrg(p.OrganizationID) // its keys (keycache.go)
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		o, err := q.GetOrganization(ctx, p.OrganizationID)
		if err != nil {
			return NotFoundOr(err, "Organization", "app: delete organization")
		}
		if confirmName != o.Name {
			return Invalid("Validation failed: confirmName: Type the organization's name exactly to confirm",
				Issue{Code: IssueCustom, Message: "Type the organization's name exactly to confirm", Path: []any{"confirmName"}})
		}
		if err := s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "organization.deleted", TargetType: "organization", TargetID: o.ID})); err != nil {
			return err
		}
		if err := q.RevokeOrganizationKeys(ctx, o.ID); err != nil {
			return fmt.Errorf("app: delete organization: %w", err)
		}
		if err := q.SoftDeleteOrganization(ctx, o.ID); err != nil {
			return fmt.Errorf("app: delete organization: %w", err)
		}
		return nil
	})
}
