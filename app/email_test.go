package app_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
)

var tokenInLink = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// testBaseURL is the dashboard the mails of mailSetup link to.
const testBaseURL = "https://crier.test"

// mailSetup is setup with a BaseURL, so mailed links are absolute.
func mailSetup(t *testing.T) *testBundle {
	t.Helper()
	b := setup(t)
	b.svc = apptest.New(t, b.db, mailOptions(b))
	return b
}

// mailOptions are mailSetup's settings: the BaseURL, and the bundle's clock.
func mailOptions(b *testBundle) app.Options {
	return app.Options{BaseURL: testBaseURL, Now: func() time.Time { return b.now }}
}

// mailTo returns the newest outbox mail of kind to addr.
func (b *testBundle) mailTo(t *testing.T, addr string, kind app.MailKind) app.OutboxMail {
	t.Helper()
	ms, err := b.svc.Outbox(context.Background(), 100)
	require.NoError(t, err)
	for _, m := range ms {
		if strings.EqualFold(m.To, addr) && m.Kind == string(kind) {
			return m
		}
	}
	t.Fatalf("no %s mail to %s in the outbox", kind, addr)
	return app.OutboxMail{}
}

// auditActions lists the actions of the caller's audit log. (Tests run in one transaction, where
// now() does not move, so the log's order is not asserted.)
func (b *testBundle) auditActions(t *testing.T, ctx context.Context) []string {
	t.Helper()
	items, _, err := b.svc.AuditLog(ctx, app.Page{Limit: 100})
	require.NoError(t, err)
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Action)
	}
	return out
}

// countMails counts the outbox mails of kind to addr.
func (b *testBundle) countMails(t *testing.T, addr string, kind app.MailKind) int {
	t.Helper()
	ms, err := b.svc.Outbox(context.Background(), 500)
	require.NoError(t, err)
	n := 0
	for _, m := range ms {
		if strings.EqualFold(m.To, addr) && m.Kind == string(kind) {
			n++
		}
	}
	return n
}

// tokenOf extracts the token of the link in a mail, checking that the text and HTML agree.
func tokenOf(t *testing.T, m app.OutboxMail, path string) string {
	t.Helper()
	match := tokenInLink.FindStringSubmatch(m.Text)
	require.NotNil(t, match, m.Text)
	require.Contains(t, m.Text, path+"?token="+match[1])
	require.Contains(t, m.HTML, `href="`+testBaseURL+path+"?token="+match[1]+`"`)
	require.GreaterOrEqual(t, len(match[1]), 43, "32 random bytes, base64url")
	return match[1]
}

func requireTokenError(t *testing.T, err error, contains string) {
	t.Helper()
	require.Equal(t, app.EInvalid, app.ErrorCode(err), "%v", err)
	issues := app.ErrorIssues(err)
	require.Len(t, issues, 1)
	require.Equal(t, []any{"token"}, issues[0].Path)
	require.Contains(t, issues[0].Message, contains)
}

func TestSignupMailsVerificationAndVerifyEmailOnce(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, sess := b.signup(t)
	require.Nil(t, sess.User.EmailVerifiedAt)

	m := b.mailTo(t, sess.User.Email, app.MailVerifyEmail)
	require.Equal(t, "Verify your email address for Crier", m.Subject)
	require.Contains(t, m.Text, "Hi Ada,")
	require.Contains(t, m.Text, "24 hours")
	require.Nil(t, m.SentAt, "no mailer: the outbox row is the mail")
	token := tokenOf(t, m, app.VerifyEmailPath)

	requireTokenError(t, b.svc.VerifyEmail(context.Background(), "not-a-token"), "not valid")
	require.NoError(t, b.svc.VerifyEmail(context.Background(), token))
	me, err := b.svc.Me(ctx)
	require.NoError(t, err)
	require.NotNil(t, me.EmailVerifiedAt)
	require.Equal(t, b.now, me.EmailVerifiedAt.UTC())

	requireTokenError(t, b.svc.VerifyEmail(context.Background(), token), "already used")
	require.Contains(t, b.auditActions(t, ctx), "user.email_verified")
}

func TestVerificationLinkExpiresAfter24Hours(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	_, first := b.signup(t)
	_, second := b.signup(t)
	start := b.now
	b.now = start.Add(app.VerifyEmailTokenTTL - time.Second)
	require.NoError(t, b.svc.VerifyEmail(context.Background(), tokenOf(t, b.mailTo(t, first.User.Email, app.MailVerifyEmail), app.VerifyEmailPath)))
	b.now = start.Add(app.VerifyEmailTokenTTL)
	requireTokenError(t, b.svc.VerifyEmail(context.Background(), tokenOf(t, b.mailTo(t, second.User.Email, app.MailVerifyEmail), app.VerifyEmailPath)), "expired")
}

func TestResendVerificationThrottlesAndStopsOnceVerified(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, sess := b.signup(t)
	email := sess.User.Email

	err := b.svc.ResendVerification(ctx)
	require.Equal(t, app.ERateLimited, app.ErrorCode(err), "signup just sent one")
	require.Contains(t, app.ErrorMessage(err), "try again in 60 seconds")
	require.Equal(t, 1, b.countMails(t, email, app.MailVerifyEmail))

	b.now = b.now.Add(app.MailThrottle)
	require.NoError(t, b.svc.ResendVerification(ctx))
	require.Equal(t, 2, b.countMails(t, email, app.MailVerifyEmail))
	newest := tokenOf(t, b.mailTo(t, email, app.MailVerifyEmail), app.VerifyEmailPath)
	require.NoError(t, b.svc.VerifyEmail(context.Background(), newest))

	b.now = b.now.Add(time.Hour)
	err = b.svc.ResendVerification(ctx)
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	require.Equal(t, "Your email address is already verified", app.ErrorMessage(err))
	require.Equal(t, app.EUnauthorized, app.ErrorCode(b.svc.ResendVerification(context.Background())))
}

// One verification ends every verification link of the user.
func TestVerifyingEndsTheOtherVerificationLinks(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, sess := b.signup(t)
	first := tokenOf(t, b.mailTo(t, sess.User.Email, app.MailVerifyEmail), app.VerifyEmailPath)
	b.now = b.now.Add(2 * time.Minute)
	require.NoError(t, b.svc.ResendVerification(ctx))
	second := tokenOf(t, b.mailTo(t, sess.User.Email, app.MailVerifyEmail), app.VerifyEmailPath)
	require.NotEqual(t, first, second)
	require.NoError(t, b.svc.VerifyEmail(context.Background(), second))
	requireTokenError(t, b.svc.VerifyEmail(context.Background(), first), "already used")
}

func TestForgotAndResetPassword(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx := context.Background()
	userCtx, sess := b.signup(t)
	email := sess.User.Email

	// Unknown addresses answer the same, and no mail goes out.
	unknown := randomEmail()
	require.NoError(t, b.svc.ForgotPassword(ctx, unknown))
	require.NoError(t, b.svc.ForgotPassword(ctx, "not even an email"))
	require.Zero(t, b.countMails(t, unknown, app.MailResetPassword))

	require.NoError(t, b.svc.ForgotPassword(ctx, "  "+strings.ToUpper(email)+" "))
	m := b.mailTo(t, email, app.MailResetPassword)
	require.Equal(t, "Reset your Crier password", m.Subject)
	require.Contains(t, m.Text, "1 hour")
	token := tokenOf(t, m, app.ResetPasswordPath)
	// A second request within the minute is silently dropped.
	require.NoError(t, b.svc.ForgotPassword(ctx, email))
	require.Equal(t, 1, b.countMails(t, email, app.MailResetPassword))

	err := b.svc.ResetPassword(ctx, token, "short")
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	require.Equal(t, app.IssueTooSmall, app.ErrorIssues(err)[0].Code)
	require.Equal(t, []any{"password"}, app.ErrorIssues(err)[0].Path)
	requireTokenError(t, b.svc.ResetPassword(ctx, "forged-token-forged-token-forged-token-000", "a-brand-new-password"), "not valid")

	require.NoError(t, b.svc.ResetPassword(ctx, token, "a-brand-new-password"))
	// Other sessions end; the new password works, the old one does not; the address is verified.
	_, err = b.svc.AuthenticateSession(ctx, sess.User.ID, *sess.CurrentOrganizationID, sess.Generation)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	_, err = b.svc.Login(ctx, email, "correct horse battery")
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	fresh, err := b.svc.Login(ctx, email, "a-brand-new-password")
	require.NoError(t, err)
	require.Equal(t, sess.Generation+1, fresh.Generation)
	require.NotNil(t, fresh.User.EmailVerifiedAt)
	requireTokenError(t, b.svc.ResetPassword(ctx, token, "another-new-password"), "already used")

	p, err := b.svc.AuthenticateSession(ctx, fresh.User.ID, *fresh.CurrentOrganizationID, fresh.Generation)
	require.NoError(t, err)
	actions := b.auditActions(t, app.WithPrincipal(userCtx, p))
	require.Contains(t, actions, "user.password_reset")
	require.Contains(t, actions, "user.password_reset_requested")
}

func TestResetLinkExpiresAfterAnHour(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	_, sess := b.signup(t)
	require.NoError(t, b.svc.ForgotPassword(context.Background(), sess.User.Email))
	token := tokenOf(t, b.mailTo(t, sess.User.Email, app.MailResetPassword), app.ResetPasswordPath)
	b.now = b.now.Add(app.ResetPasswordTokenTTL)
	requireTokenError(t, b.svc.ResetPassword(context.Background(), token, "a-brand-new-password"), "expired")
	// And a new request after the throttle works.
	require.NoError(t, b.svc.ForgotPassword(context.Background(), sess.User.Email))
	require.Equal(t, 2, b.countMails(t, sess.User.Email, app.MailResetPassword))
	require.NoError(t, b.svc.ResetPassword(context.Background(), tokenOf(t, b.mailTo(t, sess.User.Email, app.MailResetPassword), app.ResetPasswordPath), "a-brand-new-password"))
}

// A verification token is not a reset token, nor the reverse.
func TestTokensHaveOnePurpose(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	_, sess := b.signup(t)
	verify := tokenOf(t, b.mailTo(t, sess.User.Email, app.MailVerifyEmail), app.VerifyEmailPath)
	requireTokenError(t, b.svc.ResetPassword(context.Background(), verify, "a-brand-new-password"), "not valid")
	require.NoError(t, b.svc.ForgotPassword(context.Background(), sess.User.Email))
	reset := tokenOf(t, b.mailTo(t, sess.User.Email, app.MailResetPassword), app.ResetPasswordPath)
	requireTokenError(t, b.svc.VerifyEmail(context.Background(), reset), "not valid")
}

// recordingEnqueuer captures the jobs a service inserts.
type recordingEnqueuer struct{ args []river.JobArgs }

func (r *recordingEnqueuer) InsertTx(_ context.Context, _ pgx.Tx, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	r.args = append(r.args, args)
	return &rivertype.JobInsertResult{Job: &rivertype.JobRow{}}, nil
}

type fakeMailer struct {
	fail error
	sent []app.Email
}

func (f *fakeMailer) Send(_ context.Context, m app.Email) error {
	if f.fail != nil {
		return f.fail
	}
	f.sent = append(f.sent, m)
	return nil
}

// With a mailer, every outbox mail gets a delivery job in its transaction; delivery records failures
// for River's retries, marks success, and never sends a mail twice.
func TestOutboxDeliveryJobs(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	jobs := &recordingEnqueuer{}
	b.svc = apptest.New(t, b.db, mailOptions(b), func(d *app.Deps) { d.Jobs = jobs })
	_, sess := b.signup(t)
	require.Empty(t, jobs.args, "no mailer: nothing to deliver")

	mailer := &fakeMailer{fail: errors.New("451 try later")}
	b.svc = apptest.New(t, b.db, mailOptions(b), func(d *app.Deps) { d.Jobs, d.Mailer = jobs, mailer })
	require.NoError(t, b.svc.ForgotPassword(context.Background(), sess.User.Email))
	require.Len(t, jobs.args, 1)
	id := jobs.args[0].(app.DeliverMailArgs).MailID

	err := b.svc.DeliverMail(context.Background(), id)
	require.ErrorContains(t, err, "451 try later")
	var attempts int
	var lastError *string
	require.NoError(t, b.db.QueryRow(context.Background(), "SELECT attempts, last_error FROM mail_outbox WHERE id = $1", id).Scan(&attempts, &lastError))
	require.Equal(t, 1, attempts)
	require.Equal(t, "451 try later", *lastError)

	mailer.fail = nil
	require.NoError(t, b.svc.DeliverMail(context.Background(), id))
	require.NoError(t, b.svc.DeliverMail(context.Background(), id))
	require.Len(t, mailer.sent, 1, "sent once")
	sent := mailer.sent[0]
	require.Equal(t, id, sent.ID)
	require.Equal(t, sess.User.Email, sent.To)
	require.Equal(t, "Reset your Crier password", sent.Subject)
	require.Contains(t, sent.HTML, "<html")
	m := b.mailTo(t, sess.User.Email, app.MailResetPassword)
	require.Equal(t, id, m.ID)
	require.NotNil(t, m.SentAt)

	require.Error(t, b.svc.DeliverMail(context.Background(), "00000000-0000-0000-0000-000000000000"))
}

// The dev mailbox shows a signed-in user only their own mail and, to those who manage invitations,
// the invitations their organization sent: never another user's reset link (account takeover).
func TestDevMailboxIsScopedToTheCaller(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, first := b.signup(t)
	otherCtx, second := b.signup(t)
	require.NoError(t, b.svc.ForgotPassword(context.Background(), second.User.Email))
	invitee := randomEmail()
	_, err := b.svc.CreateInvitation(ctx, invitee, app.RoleMember)
	require.NoError(t, err)

	ids := func(ctx context.Context) map[string]string { // mail id → kind, for the mail of these users
		ms, err := b.svc.DevMailbox(ctx, 0)
		require.NoError(t, err)
		out := map[string]string{}
		for _, m := range ms {
			out[m.To+" "+m.Kind] = m.ID
		}
		return out
	}
	mine := ids(ctx)
	require.Len(t, mine, 2)
	require.Contains(t, mine, first.User.Email+" verify_email")
	require.Contains(t, mine, invitee+" invitation")
	theirs := ids(otherCtx)
	require.Len(t, theirs, 2)
	require.Contains(t, theirs, second.User.Email+" verify_email")
	require.Contains(t, theirs, second.User.Email+" reset_password")

	// One mail: the caller's opens; another user's does not exist for them.
	m, err := b.svc.DevMail(ctx, mine[invitee+" invitation"])
	require.NoError(t, err)
	require.Contains(t, m.Text, "/invitations/accept?token=")
	_, err = b.svc.DevMail(ctx, theirs[second.User.Email+" reset_password"])
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, err = b.svc.DevMail(ctx, "nope")
	require.Equal(t, app.ENotFound, app.ErrorCode(err))

	// A MEMBER (who cannot manage invitations) sees only their own; nobody signed in sees nothing.
	member := ids(as(ctx, app.RoleMember))
	require.Len(t, member, 1)
	require.Contains(t, member, first.User.Email+" verify_email")
	_, err = b.svc.DevMailbox(context.Background(), 0)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))

	prod := apptest.New(t, b.db, app.Options{Production: true})
	_, err = prod.DevMailbox(ctx, 10)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	_, err = prod.DevMail(ctx, m.ID)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))

	all, err := b.svc.Outbox(context.Background(), 1)
	require.NoError(t, err)
	require.Len(t, all, 1, "the operator's outbox is bounded by its limit")
}

// The outbox never keeps a link longer than its token lives: bodies are cleared once sent, and
// past the token's lifetime by the purge; a cleared mail is not delivered (its link expired).
func TestMailBodiesAreClearedWhenSentOrExpired(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	mailer := &fakeMailer{}
	b.svc = apptest.New(t, b.db, mailOptions(b), func(d *app.Deps) { d.Mailer, d.Jobs = mailer, &recordingEnqueuer{} })
	_, sess := b.signup(t)
	verify := b.mailTo(t, sess.User.Email, app.MailVerifyEmail)
	require.NotEmpty(t, verify.Text)
	require.NoError(t, b.svc.DeliverMail(context.Background(), verify.ID))
	require.Len(t, mailer.sent, 1)
	require.Contains(t, mailer.sent[0].Text, "/verify-email?token=")
	sent := b.mailTo(t, sess.User.Email, app.MailVerifyEmail)
	require.NotNil(t, sent.SentAt)
	require.True(t, sent.Cleared)
	require.Empty(t, sent.Text+sent.HTML)

	require.NoError(t, b.svc.ForgotPassword(context.Background(), sess.User.Email))
	n, err := b.svc.PurgeMailBodies(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "a live link stays")
	require.False(t, b.mailTo(t, sess.User.Email, app.MailResetPassword).Cleared)

	b.now = b.now.Add(app.ResetPasswordTokenTTL)
	n, err = b.svc.PurgeMailBodies(context.Background())
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	reset := b.mailTo(t, sess.User.Email, app.MailResetPassword)
	require.True(t, reset.Cleared)
	require.Empty(t, reset.Text+reset.HTML)

	err = b.svc.DeliverMail(context.Background(), reset.ID)
	var cancel *rivertype.JobCancelError
	require.ErrorAs(t, err, &cancel)
	require.Len(t, mailer.sent, 1, "an expired link is not mailed")
}
