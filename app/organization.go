package app

import (
	"context"
	"time"

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

// PlanLimits are a plan's quotas; 0 means unlimited.
type PlanLimits struct {
	Teams          int
	MonthlyPosts   int
	MonthlyUploads int
}

// planLimits: FREE is the spec's (20 posts, 200 uploads a month, 3 teams); the others are ours.
var planLimits = map[Plan]PlanLimits{
	PlanFree:       {Teams: 3, MonthlyPosts: 20, MonthlyUploads: 200},
	PlanPro:        {Teams: 10, MonthlyPosts: 1000, MonthlyUploads: 5000},
	PlanBusiness:   {Teams: 50, MonthlyPosts: 10000, MonthlyUploads: 50000},
	PlanEnterprise: {},
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
		DeleteAccountAfter: int(o.DeleteAccountAfter), CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, DeletedAt: o.DeletedAt}
}

// organizationAndOwner loads an organization and its creator.
func (s *Service) organizationAndOwner(ctx context.Context, db store.DBTX, orgID string) (Organization, OrgOwner, error) {
	q := store.New(db)
	o, err := q.GetOrganization(ctx, orgID)
	if err != nil {
		return Organization{}, OrgOwner{}, notFoundOr(err, "Organization", "app: organization")
	}
	u, err := q.GetUser(ctx, o.CreatedByID)
	if err != nil {
		// A deleted creator is still the creator: show the record without failing the read.
		return organizationFromRow(o), OrgOwner{User: User{ID: o.CreatedByID}}, nil
	}
	return organizationFromRow(o), OrgOwner{User: userFromRow(u), UpdatedAt: u.UpdatedAt, DeletedAt: u.DeletedAt}, nil
}
