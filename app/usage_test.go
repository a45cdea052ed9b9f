package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// Social accounts do not exist yet: every id is 404 through the lookup seam.
func TestDailyLimitsUsageAnswers404UntilSocialAccountsExist(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)
	day := time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC)
	for _, date := range []*time.Time{nil, &day} {
		_, err := b.svc.DailyLimitsUsage(ctx, "00000000-0000-0000-0000-000000000000", date)
		require.Equal(t, app.ENotFound, app.ErrorCode(err))
		require.Equal(t, "Social account not found", app.ErrorMessage(err))
	}
	_, err := b.svc.DailyLimitsUsage(as(ctx, app.RoleMember), "x", nil)
	require.Equal(t, app.ENotFound, app.ErrorCode(err), "members read usage too")
	_, err = b.svc.DailyLimitsUsage(context.Background(), "x", nil)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
}

func TestEveryNetworkHasDailyCapsAndEveryPlanAnImportLimit(t *testing.T) {
	t.Parallel()
	for _, n := range app.Networks {
		caps := app.DailyCapsOf(n)
		require.Positive(t, caps.Posts, n)
		require.Positive(t, caps.Comments, n)
	}
	for _, p := range []app.Plan{app.PlanFree, app.PlanPro, app.PlanBusiness, app.PlanEnterprise} {
		require.Positive(t, app.LimitsOf(p).MonthlyImportsPerAccount, p)
	}
}

func TestImportsUsagePagination(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)

	u, err := b.svc.ImportsUsage(ctx, app.ImportsUsageParams{})
	require.NoError(t, err)
	require.Equal(t, &app.ImportsUsage{LimitPerSocialAccount: app.LimitsOf(app.PlanFree).MonthlyImportsPerAccount,
		SocialAccounts: []app.AccountImportsUsage{}, Page: 1, PageSize: 20, Total: 0, TotalPages: 0}, u)

	tiktok := app.TikTok
	u, err = b.svc.ImportsUsage(as(ctx, app.RoleMember), app.ImportsUsageParams{Page: ptr(3.0), PageSize: ptr(5.0), Type: &tiktok, SocialAccountID: ptr("any")})
	require.NoError(t, err)
	require.Equal(t, 3, u.Page)
	require.Equal(t, 5, u.PageSize)
	require.Empty(t, u.SocialAccounts)

	for _, tc := range []struct {
		in    app.ImportsUsageParams
		code  string
		field string
	}{
		{app.ImportsUsageParams{Page: ptr(1.5)}, app.IssueInvalidType, "page"},
		{app.ImportsUsageParams{Page: ptr(0.0)}, app.IssueTooSmall, "page"},
		{app.ImportsUsageParams{PageSize: ptr(101.0)}, app.IssueTooBig, "pageSize"},
		{app.ImportsUsageParams{PageSize: ptr(0.0)}, app.IssueTooSmall, "pageSize"},
		{app.ImportsUsageParams{Type: ptr(app.Network("MYSPACE"))}, app.IssueInvalidEnumValue, "socialAccountType"},
	} {
		_, err := b.svc.ImportsUsage(ctx, tc.in)
		require.Equal(t, app.EInvalid, app.ErrorCode(err))
		require.Equal(t, tc.code, app.ErrorIssues(err)[0].Code)
		require.Equal(t, []any{tc.field}, app.ErrorIssues(err)[0].Path)
	}

	// A team filter must name one of the organization's teams.
	team, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("Brand")})
	require.NoError(t, err)
	_, err = b.svc.ImportsUsage(ctx, app.ImportsUsageParams{TeamID: &team.ID})
	require.NoError(t, err)
	ctxB, _ := b.signup(t)
	_, err = b.svc.ImportsUsage(ctxB, app.ImportsUsageParams{TeamID: &team.ID})
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	require.Equal(t, "Team not found", app.ErrorMessage(err))
	_, err = b.svc.ImportsUsage(context.Background(), app.ImportsUsageParams{})
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
}
