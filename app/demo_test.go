package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// The demo's address is verified through its mailed link, also on a database where the first
// demo signed up days ago (its link expired): a new link is mailed and followed.
func TestSeedDemoVerifiesOldDemoUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	last, org := "Marketer", "Demo Agency"
	_, err := b.svc.Signup(ctx, app.SignupParams{Email: app.DemoEmail, Password: app.DemoPassword, FirstName: "Dana", LastName: &last, OrganizationName: &org})
	require.NoError(t, err)
	b.now = b.now.Add(app.VerifyEmailTokenTTL + time.Hour)

	d, err := b.svc.SeedDemo(ctx)
	require.NoError(t, err)
	p, err := b.svc.AuthenticateAPIKey(ctx, d.APIKey)
	require.NoError(t, err)
	me, err := b.svc.Me(app.WithPrincipal(ctx, p))
	require.NoError(t, err)
	require.NotNil(t, me.EmailVerifiedAt)
}
