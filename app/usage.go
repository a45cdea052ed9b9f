package app

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/crier/crier/store"
)

// Per-social-account usage: the daily caps of a network (GET /organization/usage/daily-limits) and
// the monthly import quota (GET /organization/usage/imports).
//
// The accounts come from the social accounts capability (socialAccount, socialAccounts); the
// publishing, comments and imports capabilities register their counters (dailyUsageCounters,
// importsUsageCounter). Nothing else here changes.

// SocialAccountRef is what usage needs to know of a social account.
type SocialAccountRef struct {
	ID          string
	Type        Network
	Username    *string
	DisplayName *string
}

// SocialAccountFilter narrows socialAccounts; nil fields do not filter.
type SocialAccountFilter struct {
	TeamID *string
	Type   *Network
	ID     *string
}

// socialAccount finds a live social account of the organization (404 otherwise).
func (s *Service) socialAccount(ctx context.Context, q *store.Queries, orgID, id string) (SocialAccountRef, error) {
	row, err := q.GetSocialAccount(ctx, store.GetSocialAccountParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return SocialAccountRef{}, NotFoundOr(err, "Social account", "app: social account")
	}
	return SocialAccountRef{ID: row.ID, Type: Network(row.Type), Username: row.Username, DisplayName: row.DisplayName}, nil
}

// socialAccounts lists the organization's live social accounts matching f, oldest first, with the total.
func (s *Service) socialAccounts(ctx context.Context, q *store.Queries, orgID string, f SocialAccountFilter, page Page) ([]SocialAccountRef, int, error) {
	var typ *string
	if f.Type != nil {
		t := string(*f.Type)
		typ = &t
	}
	if f.ID != nil && !IsUUID(*f.ID) {
		return []SocialAccountRef{}, 0, nil
	}
	total, err := q.CountSocialAccounts(ctx, store.CountSocialAccountsParams{OrganizationID: orgID, TeamID: f.TeamID, Type: typ, ID: f.ID})
	if err != nil {
		return nil, 0, err
	}
	rows, err := q.ListSocialAccounts(ctx, store.ListSocialAccountsParams{OrganizationID: orgID, TeamID: f.TeamID, Type: typ, ID: f.ID,
		Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, err
	}
	out := make([]SocialAccountRef, 0, len(rows))
	for _, r := range rows {
		out = append(out, SocialAccountRef{ID: r.ID, Type: Network(r.Type), Username: r.Username, DisplayName: r.DisplayName})
	}
	return out, int(total), nil
}

// dailyUsageCounters count what a social account published in [from, to) (UsagePosts, UsageComments);
// the publishing and comments capabilities register theirs. A kind without a counter has no use yet.
var dailyUsageCounters = map[UsageKind]func(ctx context.Context, q *store.Queries, socialAccountID string, from, to time.Time) (int, error){}

// importsUsageCounter counts the posts imported for a social account since a time; the imports
// capability sets it. Nil: nothing can be imported yet.
var importsUsageCounter func(ctx context.Context, q *store.Queries, socialAccountID string, since time.Time) (int, error)

// DailyCaps are what Crier lets one social account publish a day (UTC) on a network: at or below
// the network's own published caps, so a schedule never runs into them.
type DailyCaps struct {
	Posts, Comments int
}

// DailyCapsOf answers a network's daily caps.
func DailyCapsOf(n Network) DailyCaps {
	if s := SpecOf(n); s != nil {
		return s.DailyCaps
	}
	return DailyCaps{}
}

// DailyLimits is one social account's use of its network's daily caps on one UTC day.
type DailyLimits struct {
	Date            time.Time // midnight UTC of the day
	SocialAccountID string
	Type            Network
	Posts           Usage
	Comments        Usage
}

// DailyLimitsUsage answers a social account's posts and comments on the UTC day of date (today when
// nil) against its network's daily caps. Another organization's account is 404.
func (s *Service) DailyLimitsUsage(ctx context.Context, socialAccountID string, date *time.Time) (*DailyLimits, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	acct, err := s.socialAccount(ctx, s.q, p.OrganizationID, socialAccountID)
	if err != nil {
		return nil, err
	}
	day := s.now().UTC()
	if date != nil {
		day = date.UTC()
	}
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	caps := DailyCapsOf(acct.Type)
	out := &DailyLimits{Date: day, SocialAccountID: acct.ID, Type: acct.Type}
	for kind, dst := range map[UsageKind]*Usage{UsagePosts: &out.Posts, UsageComments: &out.Comments} {
		limit := caps.Posts
		if kind == UsageComments {
			limit = caps.Comments
		}
		used := 0
		if count, ok := dailyUsageCounters[kind]; ok {
			if used, err = count(ctx, s.q, acct.ID, day, day.AddDate(0, 0, 1)); err != nil {
				return nil, fmt.Errorf("app: daily usage %s: %w", kind, err)
			}
		}
		*dst = Usage{Used: used, Limit: limit, Remaining: max(limit-used, 0)}
	}
	return out, nil
}

// ImportsUsageParams is the query of GET /organization/usage/imports. Page and PageSize are numbers
// in the contract; they must be whole.
type ImportsUsageParams struct {
	Page            *float64 // default 1
	PageSize        *float64 // default 20, at most 100
	TeamID          *string
	Type            *Network
	SocialAccountID *string
}

// Defaults of ImportsUsageParams (the spec's).
const (
	DefaultImportsUsagePageSize = 20
	MaxImportsUsagePageSize     = 100
)

// AccountImportsUsage is one social account's imports this month.
type AccountImportsUsage struct {
	SocialAccountRef
	Usage
}

// ImportsUsage is a page of social accounts with their imports this month.
type ImportsUsage struct {
	LimitPerSocialAccount int
	SocialAccounts        []AccountImportsUsage
	Page, PageSize        int
	Total, TotalPages     int
}

// ImportsUsage answers, per social account of the organization (filtered by team, network or id),
// the posts imported this calendar month (UTC) against the plan's per-account limit.
func (s *Service) ImportsUsage(ctx context.Context, in ImportsUsageParams) (*ImportsUsage, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	var issues []Issue
	whole := func(v *float64, def, lo, hi int, field string) int {
		if v == nil {
			return def
		}
		switch {
		case *v != math.Trunc(*v):
			issues = append(issues, Issue{Code: IssueInvalidType, Message: "Expected integer, received float", Path: []any{field}})
		case *v < float64(lo):
			issues = append(issues, Issue{Code: IssueTooSmall, Message: fmt.Sprintf("Number must be greater than or equal to %d", lo), Path: []any{field}})
		case *v > float64(hi):
			issues = append(issues, Issue{Code: IssueTooBig, Message: fmt.Sprintf("Number must be less than or equal to %d", hi), Path: []any{field}})
		}
		return int(*v)
	}
	page := whole(in.Page, 1, 1, math.MaxInt32, "page")
	size := whole(in.PageSize, DefaultImportsUsagePageSize, 1, MaxImportsUsagePageSize, "pageSize")
	if in.Type != nil && !in.Type.Valid() {
		issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value '" + string(*in.Type) + "'", Path: []any{"socialAccountType"}})
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	org, err := s.q.GetOrganization(ctx, p.OrganizationID)
	if err != nil {
		return nil, NotFoundOr(err, "Organization", "app: imports usage")
	}
	if in.TeamID != nil {
		if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: *in.TeamID, OrganizationID: p.OrganizationID}); err != nil {
			return nil, NotFoundOr(err, "Team", "app: imports usage")
		}
	}
	limit := LimitsOf(Plan(org.Plan)).MonthlyImportsPerAccount
	accounts, total, err := s.socialAccounts(ctx, s.q, p.OrganizationID,
		SocialAccountFilter{TeamID: in.TeamID, Type: in.Type, ID: in.SocialAccountID}, Page{Offset: (page - 1) * size, Limit: size})
	if err != nil {
		return nil, fmt.Errorf("app: imports usage: %w", err)
	}
	now := s.now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	out := &ImportsUsage{LimitPerSocialAccount: limit, SocialAccounts: make([]AccountImportsUsage, 0, len(accounts)),
		Page: page, PageSize: size, Total: total, TotalPages: (total + size - 1) / size}
	for _, a := range accounts {
		used := 0
		if importsUsageCounter != nil {
			if used, err = importsUsageCounter(ctx, s.q, a.ID, month); err != nil {
				return nil, fmt.Errorf("app: imports usage: %w", err)
			}
		}
		out.SocialAccounts = append(out.SocialAccounts, AccountImportsUsage{SocialAccountRef: a, Usage: Usage{Used: used, Limit: limit, Remaining: max(limit-used, 0)}})
	}
	return out, nil
}
