package app_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// The README's role table is the permission matrix, row for row: an action added or a role changed
// in app/permission.go without the README (or the reverse) fails here.
func TestReadmeRoleTableIsTheMatrix(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(readme), "| Action | OWNER | ADMIN | MEMBER |\n|---|---|---|---|\n")
	require.True(t, ok, "the README has the role table")
	table, _, _ := strings.Cut(after, "\n\n")
	rows := map[string][]bool{}
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		require.Len(t, cells, 4, line)
		rows[strings.TrimSpace(cells[0])] = []bool{strings.TrimSpace(cells[1]) == "✓", strings.TrimSpace(cells[2]) == "✓", strings.TrimSpace(cells[3]) == "✓"}
	}
	require.Len(t, rows, len(app.Actions()), "one row per action")
	for _, act := range app.Actions() {
		row, ok := rows[string(act)]
		require.True(t, ok, "no README row for %q", act)
		require.Equal(t, []bool{app.Can(app.RoleOwner, act), app.Can(app.RoleAdmin, act), app.Can(app.RoleMember, act)}, row, act)
	}
}

// A MEMBER reads the member list, but changes no one's role and removes no one.
func TestMembersListMembersButDoNotManageThem(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)
	member := as(ctx, app.RoleMember)
	list, total, err := b.svc.ListMembers(member, app.Page{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	_, err = b.svc.UpdateMemberRole(member, list[0].ID, app.RoleAdmin)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	require.Equal(t, app.EForbidden, app.ErrorCode(b.svc.RemoveMember(member, list[0].ID)))
	_, _, err = b.svc.ListMembers(context.Background(), app.Page{Limit: 10})
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
}
