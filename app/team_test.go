package app_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

func ptr[T any](v T) *T { return &v }

func TestTeamsLifecycleWritesAuditAndEvents(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, sess := b.signup(t)

	team, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("  Brand A  "), AvatarURL: ptr("https://cdn.example.com/a.png")})
	require.NoError(t, err)
	require.Equal(t, "Brand A", team.Name)
	require.Equal(t, *sess.CurrentOrganizationID, team.OrganizationID)

	copied, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("Brand A copy"), CopyTeamID: &team.ID})
	require.NoError(t, err)
	require.Equal(t, team.AvatarURL, copied.AvatarURL)

	updated, err := b.svc.UpdateTeam(ctx, team.ID, app.TeamParams{Name: ptr("Brand B"), AvatarURL: ptr("")})
	require.NoError(t, err)
	require.Equal(t, "Brand B", updated.Name)
	require.Nil(t, updated.AvatarURL)

	list, total, err := b.svc.ListTeams(ctx, "brand b", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, team.ID, list[0].ID)
	require.Equal(t, sess.User.Email, list[0].CreatedBy.Email)
	require.Equal(t, app.PlanFree, list[0].Organization.Plan)

	deleted, err := b.svc.DeleteTeam(ctx, team.ID)
	require.NoError(t, err)
	require.NotNil(t, deleted.DeletedAt)
	_, err = b.svc.GetTeam(ctx, team.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))

	kinds, err := b.eventKinds(ctx, team.OrganizationID)
	require.NoError(t, err)
	// One transaction here, so one now(): compare as a multiset.
	require.ElementsMatch(t, []string{"team.created", "team.created", "team.updated", "team.deleted"}, kinds)
}

func TestTeamValidationAndFreePlanLimit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)

	_, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("ab")})
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	require.Equal(t, app.Issue{Code: "too_small", Message: "String must contain at least 3 character(s)", Path: []any{"name"},
		Type: "string", Minimum: 3, Inclusive: true}, app.ErrorIssues(err)[0])

	for _, n := range []string{"One", "Two", "Three"} {
		_, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr(n)})
		require.NoError(t, err)
	}
	_, err = b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("Four")})
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	require.Contains(t, app.ErrorMessage(err), "at most 3 teams")
}

func TestTeamsAreIsolatedByOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctxA, _ := b.signup(t)
	ctxB, _ := b.signup(t)
	teamB, err := b.svc.CreateTeam(ctxB, app.TeamParams{Name: ptr("B's team")})
	require.NoError(t, err)

	_, err = b.svc.GetTeam(ctxA, teamB.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, err = b.svc.UpdateTeam(ctxA, teamB.ID, app.TeamParams{Name: ptr("Mine now")})
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, err = b.svc.DeleteTeam(ctxA, teamB.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, err = b.svc.CreateTeam(ctxA, app.TeamParams{Name: ptr("Copy"), CopyTeamID: &teamB.ID})
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, total, err := b.svc.ListTeams(ctxA, "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)
}

func TestMembersCannotManageTeams(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)
	p := *app.PrincipalFrom(ctx)
	p.Role = app.RoleMember
	_, err := b.svc.CreateTeam(app.WithPrincipal(ctx, &p), app.TeamParams{Name: ptr("Nope")})
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	_, _, err = b.svc.ListTeams(app.WithPrincipal(ctx, &p), "", app.Page{Limit: 10})
	require.NoError(t, err)
}
