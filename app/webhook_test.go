package app_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
)

// jobRecorder is an Enqueuer that records what the service enqueues.
type jobRecorder struct{ args []river.JobArgs }

func (r *jobRecorder) InsertTx(_ context.Context, _ pgx.Tx, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	r.args = append(r.args, args)
	return &rivertype.JobInsertResult{Job: &rivertype.JobRow{}}, nil
}

func (r *jobRecorder) kinds() []string {
	var out []string
	for _, a := range r.args {
		out = append(out, a.Kind())
	}
	return out
}

func setupWebhooks(t *testing.T) (*testBundle, *jobRecorder) {
	t.Helper()
	b := setup(t)
	jobs := &jobRecorder{}
	b.svc = apptest.New(t, b.db, app.Options{Secret: []byte(strings.Repeat("k", 32)), Webhooks: app.WebhookOptions{AllowPrivateURLs: true},
		Now: func() time.Time { return b.now }}, func(d *app.Deps) { d.Jobs = jobs })
	return b, jobs
}

// Emit enqueues a fan-out (in the transaction) only when something consumes the event; the fan-out
// creates one delivery per subscribed active webhook with its job, and creates nothing when run again.
func TestEmitFansOutToSubscribedWebhooks(t *testing.T) {
	t.Parallel()
	b, jobs := setupWebhooks(t)
	ctx, _ := b.signup(t)

	_, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("No hooks yet")})
	require.NoError(t, err)
	require.Empty(t, jobs.kinds(), "no subscriber: no fan-out")

	sub, err := b.svc.CreateWebhook(ctx, app.WebhookParams{URL: ptr("https://hooks.example.com/a"), Events: &[]string{app.EventTeamCreated}})
	require.NoError(t, err)
	_, err = b.svc.CreateWebhook(ctx, app.WebhookParams{URL: ptr("https://hooks.example.com/b"), Events: &[]string{app.EventTeamDeleted}})
	require.NoError(t, err)
	_, err = b.svc.CreateWebhook(ctx, app.WebhookParams{URL: ptr("https://hooks.example.com/c"), Events: &[]string{app.EventTeamCreated}, Active: ptr(false)})
	require.NoError(t, err)

	team, err := b.svc.CreateTeam(ctx, app.TeamParams{Name: ptr("Hooked")})
	require.NoError(t, err)
	require.Equal(t, []string{"webhook_fan_out"}, jobs.kinds())
	fan := jobs.args[0].(app.FanOutEventArgs)
	jobs.args = nil

	require.NoError(t, b.svc.FanOutEvent(context.Background(), fan.EventID))
	require.Equal(t, []string{"webhook_deliver"}, jobs.kinds(), "one delivery: the active subscriber only")
	require.NoError(t, b.svc.FanOutEvent(context.Background(), fan.EventID))
	require.Len(t, jobs.args, 1, "a second fan-out creates nothing")

	ds, total, err := b.svc.ListWebhookDeliveries(ctx, sub.ID, "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, app.EventTeamCreated, ds[0].Event)
	require.Equal(t, fan.EventID, ds[0].EventID)
	require.Equal(t, app.DeliveryPending, ds[0].Status)
	require.Zero(t, ds[0].Attempt)
	require.Equal(t, app.EventTeamCreated, ds[0].Payload["type"])
	require.Equal(t, team.ID, ds[0].Payload["data"].(map[string]any)["id"])
}

// Secrets are stored encrypted, shown to their organization, and a MEMBER cannot see them.
func TestWebhookSecretsAreEncryptedAtRest(t *testing.T) {
	t.Parallel()
	b, _ := setupWebhooks(t)
	ctx, _ := b.signup(t)
	hook, err := b.svc.CreateWebhook(ctx, app.WebhookParams{URL: ptr("https://hooks.example.com/a"), Events: &[]string{app.EventTeamCreated}})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(hook.Secret, "whsec_"))
	var enc []byte
	require.NoError(t, b.db.QueryRow(context.Background(), "SELECT secret_enc FROM webhooks WHERE id = $1", hook.ID).Scan(&enc))
	require.False(t, bytes.Contains(enc, []byte(hook.Secret)))
	require.False(t, bytes.Contains(enc, []byte(strings.TrimPrefix(hook.Secret, "whsec_"))))
	got, err := b.svc.GetWebhook(ctx, hook.ID)
	require.NoError(t, err)
	require.Equal(t, hook.Secret, got.Secret)

	p := app.PrincipalFrom(ctx)
	member := app.WithPrincipal(context.Background(), &app.Principal{UserID: p.UserID, OrganizationID: p.OrganizationID, MembershipID: p.MembershipID, Role: app.RoleMember})
	_, err = b.svc.GetWebhook(member, hook.ID)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
}

// SignWebhook's headers verify with the published Standard Webhooks library, for each secret.
func TestSignWebhookVerifiesWithStandardWebhooks(t *testing.T) {
	t.Parallel()
	cur, prev := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_"+strings.Repeat("QUJD", 8)
	body := []byte(`{"type":"team.created","data":{"id":"t1"}}`)
	h := app.SignWebhook([]string{cur, prev}, "msg_1", time.Now(), body)
	for _, secret := range []string{cur, prev} {
		wh, err := standardwebhooks.NewWebhook(secret)
		require.NoError(t, err)
		require.NoError(t, wh.Verify(body, h))
	}
	wh, err := standardwebhooks.NewWebhook("whsec_" + strings.Repeat("WFla", 8))
	require.NoError(t, err)
	require.Error(t, wh.Verify(body, h))
	require.Equal(t, "msg_1", h.Get("webhook-id"))
	require.Len(t, h.Get(http.CanonicalHeaderKey("x-signature")), 64)
}
