package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
)

func randomEmail() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "user-" + hex.EncodeToString(b) + "@example.com"
}

// signup creates a user and returns a context acting as their OWNER membership.
func (b *testBundle) signup(t *testing.T) (context.Context, *app.Session) {
	t.Helper()
	ctx := context.Background()
	sess, err := b.svc.Signup(ctx, app.SignupParams{Email: randomEmail(), Password: "correct horse battery", FirstName: "Ada"})
	require.NoError(t, err)
	p, err := b.svc.AuthenticateSession(ctx, sess.User.ID, *sess.CurrentOrganizationID, sess.Generation)
	require.NoError(t, err)
	return app.WithPrincipal(ctx, p), sess
}

func TestSignupCreatesOwnerOfNamedOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, sess := b.signup(t)
	require.Len(t, sess.Memberships, 1)
	require.Equal(t, app.RoleOwner, sess.Memberships[0].Role)
	require.Equal(t, "Ada's organization", sess.Memberships[0].OrganizationName)
	require.Equal(t, sess.Memberships[0].OrganizationID, *sess.CurrentOrganizationID)
	me, err := b.svc.CurrentSession(ctx)
	require.NoError(t, err)
	require.Equal(t, sess.User.Email, me.User.Email)
}

// The organization named after its owner stays within the organization name's maximum, however
// long the first name (up to its own maximum).
func TestSignupNamesTheOrganizationWithinItsMaximum(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first := strings.Repeat("é", app.MaxPersonName)
	sess, err := b.svc.Signup(context.Background(), app.SignupParams{Email: randomEmail(), Password: "correct horse battery", FirstName: first})
	require.NoError(t, err)
	name := sess.Memberships[0].OrganizationName
	require.Equal(t, app.MaxOrganizationName, utf8.RuneCountInString(name), name)
	require.Equal(t, strings.Repeat("é", 85)+"'s organization", name)
	require.Equal(t, first, *sess.User.FirstName, "the person's name is kept whole")
}

func TestSignupRejectsDuplicateEmailAndBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	email := randomEmail()
	_, err := b.svc.Signup(ctx, app.SignupParams{Email: email, Password: "0123456789", FirstName: "A"})
	require.NoError(t, err)
	_, err = b.svc.Signup(ctx, app.SignupParams{Email: "  " + email, Password: "0123456789", FirstName: "B"})
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	require.Equal(t, []any{"email"}, app.ErrorIssues(err)[0].Path)

	_, err = b.svc.Signup(ctx, app.SignupParams{Email: "nope", Password: "short", FirstName: " "})
	require.Len(t, app.ErrorIssues(err), 3)
}

func TestLogin(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	email := randomEmail()
	_, err := b.svc.Signup(ctx, app.SignupParams{Email: email, Password: "0123456789", FirstName: "A"})
	require.NoError(t, err)
	sess, err := b.svc.Login(ctx, email, "0123456789")
	require.NoError(t, err)
	require.Equal(t, email, sess.User.Email)

	_, err = b.svc.Login(ctx, email, "wrong-password")
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	_, errUnknown := b.svc.Login(ctx, randomEmail(), "wrong-password")
	require.Equal(t, app.ErrorMessage(err), app.ErrorMessage(errUnknown))
}

func TestSessionOfAnOlderGenerationEnds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, sess := b.signup(t)
	_, err := b.svc.AuthenticateSession(context.Background(), sess.User.ID, *sess.CurrentOrganizationID, sess.Generation-1)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
}

func TestAPIKeyLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, sess := b.signup(t)

	created, err := b.svc.CreateAPIKey(ctx, "Zapier")
	require.NoError(t, err)
	require.Contains(t, created.Key, created.Prefix)

	p, err := b.svc.AuthenticateAPIKey(context.Background(), created.Key)
	require.NoError(t, err)
	require.Equal(t, *sess.CurrentOrganizationID, p.OrganizationID)
	require.Equal(t, app.RoleOwner, p.Role)
	require.Equal(t, created.ID, p.APIKeyID)

	keys, total, err := b.svc.ListAPIKeys(ctx, "zap", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.NotNil(t, keys[0].LastUsedAt)
	_, total, err = b.svc.ListAPIKeys(ctx, "nothing-like-it", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)

	rolled, err := b.svc.RollAPIKey(ctx, created.ID)
	require.NoError(t, err)
	_, err = b.svc.AuthenticateAPIKey(context.Background(), created.Key)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	_, err = b.svc.AuthenticateAPIKey(context.Background(), rolled.Key)
	require.NoError(t, err)

	require.NoError(t, b.svc.DeleteAPIKey(ctx, created.ID))
	_, err = b.svc.AuthenticateAPIKey(context.Background(), rolled.Key)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteAPIKey(ctx, created.ID)))
}

func TestAPIKeysAreIsolatedByOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctxA, _ := b.signup(t)
	ctxB, _ := b.signup(t)
	keyB, err := b.svc.CreateAPIKey(ctxB, "B's key")
	require.NoError(t, err)

	keys, total, err := b.svc.ListAPIKeys(ctxA, "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)
	require.Empty(t, keys)
	_, err = b.svc.RollAPIKey(ctxA, keyB.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteAPIKey(ctxA, keyB.ID)))
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteAPIKey(ctxA, "not-a-uuid")))
}

func TestMembersCannotManageKeys(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, _ := b.signup(t)
	p := *app.PrincipalFrom(ctx)
	p.Role = app.RoleMember
	_, err := b.svc.CreateAPIKey(app.WithPrincipal(ctx, &p), "x")
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	require.Equal(t, "Your role (MEMBER) cannot manage API keys", app.ErrorMessage(err))
	_, err = b.svc.CreateAPIKey(context.Background(), "x")
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
}

func TestPermissionMatrix(t *testing.T) {
	t.Parallel()
	require.True(t, app.Can(app.RoleOwner, app.ActDeleteOrg))
	require.False(t, app.Can(app.RoleAdmin, app.ActDeleteOrg))
	require.False(t, app.Can(app.RoleAdmin, app.ActManageBilling))
	require.True(t, app.Can(app.RoleAdmin, app.ActManageAPIKeys))
	require.False(t, app.Can(app.RoleMember, app.ActManageWebhooks))
	require.True(t, app.Can(app.RoleMember, app.ActContent))
}

func TestSeedDemoIsRepeatable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first, err := b.svc.SeedDemo(context.Background())
	require.NoError(t, err)
	second, err := b.svc.SeedDemo(context.Background())
	require.NoError(t, err)
	require.Equal(t, first.TeamID, second.TeamID)
	require.NotEqual(t, first.APIKey, second.APIKey)
	p, err := b.svc.AuthenticateAPIKey(context.Background(), second.APIKey)
	require.NoError(t, err)
	require.Equal(t, first.OrganizationID, p.OrganizationID)

	prod := apptest.New(t, b.db, app.Options{Production: true})
	_, err = prod.SeedDemo(context.Background())
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
}
