package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// as returns ctx acting as the same user with another role (the matrix is what is tested).
func as(ctx context.Context, role app.Role) context.Context {
	p := *app.PrincipalFrom(ctx)
	p.Role = role
	return app.WithPrincipal(ctx, &p)
}

func TestInvitationOfANewPersonCreatesTheirAccount(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, owner := b.signup(t)
	email := randomEmail()

	inv, err := b.svc.CreateInvitation(ctx, "  "+email+" ", app.RoleMember)
	require.NoError(t, err)
	require.Equal(t, email, inv.Email)
	require.Equal(t, app.RoleMember, inv.Role)
	require.Equal(t, b.now.Add(7*24*time.Hour), inv.ExpiresAt.UTC())
	list, total, err := b.svc.ListInvitations(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, inv.ID, list[0].ID)

	m := b.mailTo(t, email, app.MailInvitation)
	require.Equal(t, "Ada invited you to Ada's organization on Crier", m.Subject)
	require.Contains(t, m.Text, "as MEMBER")
	require.Contains(t, m.Text, "7 days")
	token := tokenOf(t, m, app.AcceptInvitationPath)

	info, err := b.svc.InvitationPreview(context.Background(), token)
	require.NoError(t, err)
	require.Equal(t, app.InvitationInfo{OrganizationName: "Ada's organization", Email: email, Role: app.RoleMember,
		InviterName: "Ada", UserExists: false, ExpiresAt: inv.ExpiresAt}, *info)

	// A new account needs a password and a first name.
	_, err = b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token})
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	issues := app.ErrorIssues(err)
	require.Len(t, issues, 2)
	require.Equal(t, []any{"password"}, issues[0].Path)
	require.Equal(t, app.IssueInvalidType, issues[0].Code)
	require.Equal(t, []any{"firstName"}, issues[1].Path)
	_, err = b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token, Password: ptr("short"), FirstName: ptr(" ")})
	issues = app.ErrorIssues(err)
	require.Equal(t, app.IssueTooSmall, issues[0].Code)
	require.Equal(t, app.IssueTooSmall, issues[1].Code)

	sess, err := b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token, Password: ptr("a-long-password"), FirstName: ptr(" Lin ")})
	require.NoError(t, err)
	require.Equal(t, email, sess.User.Email)
	require.Equal(t, "Lin", *sess.User.FirstName)
	require.NotNil(t, sess.User.EmailVerifiedAt, "the mailbox is proven")
	require.Equal(t, *owner.CurrentOrganizationID, *sess.CurrentOrganizationID)
	require.Len(t, sess.Memberships, 1)
	require.Equal(t, app.RoleMember, sess.Memberships[0].Role)
	_, err = b.svc.Login(context.Background(), email, "a-long-password")
	require.NoError(t, err)

	// Used once; no longer pending; audited.
	_, err = b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token, Password: ptr("a-long-password"), FirstName: ptr("Lin")})
	requireTokenError(t, err, "already used")
	_, err = b.svc.InvitationPreview(context.Background(), token)
	requireTokenError(t, err, "already used")
	_, total, err = b.svc.ListInvitations(ctx)
	require.NoError(t, err)
	require.Zero(t, total)
	members, _, err := b.svc.ListMembers(ctx, app.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, members, 2)
	actions := b.auditActions(t, ctx)
	require.Contains(t, actions, "invitation.accepted")
	require.Contains(t, actions, "invitation.created")
}

func TestInvitationOfAnExistingUserNeedsNoPassword(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, owner := b.signup(t)
	_, other := b.signup(t)
	_, err := b.svc.CreateInvitation(ctx, strings.ToUpper(other.User.Email), app.RoleAdmin)
	require.NoError(t, err)
	token := tokenOf(t, b.mailTo(t, other.User.Email, app.MailInvitation), app.AcceptInvitationPath)
	info, err := b.svc.InvitationPreview(context.Background(), token)
	require.NoError(t, err)
	require.True(t, info.UserExists)

	sess, err := b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token})
	require.NoError(t, err)
	require.Equal(t, other.User.ID, sess.User.ID)
	require.Len(t, sess.Memberships, 2)
	require.Equal(t, *owner.CurrentOrganizationID, *sess.CurrentOrganizationID)
	for _, m := range sess.Memberships {
		if m.OrganizationID == *owner.CurrentOrganizationID {
			require.Equal(t, app.RoleAdmin, m.Role)
		}
	}
	// Their password is untouched, and they are now verified.
	again, err := b.svc.Login(context.Background(), other.User.Email, "correct horse battery")
	require.NoError(t, err)
	require.NotNil(t, again.User.EmailVerifiedAt)
	require.Equal(t, other.Generation, again.Generation, "accepting does not end sessions")

	// Now a member: inviting them again is refused on email.
	_, err = b.svc.CreateInvitation(ctx, other.User.Email, app.RoleMember)
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	require.Equal(t, []any{"email"}, app.ErrorIssues(err)[0].Path)
}

func TestInvitationRulesAndRoles(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, owner := b.signup(t)

	_, err := b.svc.CreateInvitation(ctx, owner.User.Email, app.RoleMember)
	require.Equal(t, []any{"email"}, app.ErrorIssues(err)[0].Path, "already a member")
	_, err = b.svc.CreateInvitation(ctx, "not an email", app.RoleMember)
	require.Equal(t, app.IssueInvalidString, app.ErrorIssues(err)[0].Code)
	_, err = b.svc.CreateInvitation(ctx, randomEmail(), app.Role("KING"))
	require.Equal(t, []any{"role"}, app.ErrorIssues(err)[0].Path)

	// MEMBER manages no invitations; ADMIN does, but cannot invite an OWNER.
	_, err = b.svc.CreateInvitation(as(ctx, app.RoleMember), randomEmail(), app.RoleMember)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	_, _, err = b.svc.ListInvitations(as(ctx, app.RoleMember))
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	_, err = b.svc.CreateInvitation(as(ctx, app.RoleAdmin), randomEmail(), app.RoleOwner)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	require.Contains(t, app.ErrorMessage(err), "OWNER")
	admins, err := b.svc.CreateInvitation(as(ctx, app.RoleAdmin), randomEmail(), app.RoleAdmin)
	require.NoError(t, err)
	_, err = b.svc.CreateInvitation(context.Background(), randomEmail(), app.RoleMember)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))

	// Inviting a pending address again refreshes that invitation: same id, new role, new link.
	email := randomEmail()
	first, err := b.svc.CreateInvitation(ctx, email, app.RoleMember)
	require.NoError(t, err)
	oldToken := tokenOf(t, b.mailTo(t, email, app.MailInvitation), app.AcceptInvitationPath)
	b.now = b.now.Add(time.Hour)
	second, err := b.svc.CreateInvitation(ctx, strings.ToUpper(email), app.RoleOwner)
	require.NoError(t, err)
	require.Equal(t, first.ID, second.ID)
	require.Equal(t, app.RoleOwner, second.Role)
	require.Equal(t, b.now.Add(app.InvitationTokenTTL), second.ExpiresAt.UTC())
	require.Equal(t, 2, b.countMails(t, email, app.MailInvitation))
	newToken := tokenOf(t, b.mailTo(t, strings.ToUpper(email), app.MailInvitation), app.AcceptInvitationPath)
	require.NotEqual(t, oldToken, newToken)
	_, err = b.svc.InvitationPreview(context.Background(), oldToken)
	requireTokenError(t, err, "not valid")
	_, total, err := b.svc.ListInvitations(ctx)
	require.NoError(t, err)
	require.Equal(t, 2, total)
	require.Contains(t, b.auditActions(t, ctx), "invitation.refreshed")

	// Revoking: the link stops working; revoking again or a foreign id is 404.
	require.NoError(t, b.svc.DeleteInvitation(as(ctx, app.RoleAdmin), admins.ID))
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteInvitation(ctx, admins.ID)))
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteInvitation(ctx, "not-a-uuid")))
	require.Equal(t, app.EForbidden, app.ErrorCode(b.svc.DeleteInvitation(as(ctx, app.RoleMember), second.ID)))
	require.NoError(t, b.svc.DeleteInvitation(ctx, second.ID))
	require.Contains(t, b.auditActions(t, ctx), "invitation.revoked")
	_, err = b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: newToken, Password: ptr("a-long-password"), FirstName: ptr("X")})
	requireTokenError(t, err, "revoked")

	ctxB, _ := b.signup(t)
	foreign, err := b.svc.CreateInvitation(ctxB, randomEmail(), app.RoleMember)
	require.NoError(t, err)
	require.Equal(t, app.ENotFound, app.ErrorCode(b.svc.DeleteInvitation(ctx, foreign.ID)))
	list, _, err := b.svc.ListInvitations(ctx)
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestInvitationExpiresAfterSevenDays(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, _ := b.signup(t)
	email := randomEmail()
	_, err := b.svc.CreateInvitation(ctx, email, app.RoleMember)
	require.NoError(t, err)
	token := tokenOf(t, b.mailTo(t, email, app.MailInvitation), app.AcceptInvitationPath)
	start := b.now
	b.now = start.Add(app.InvitationTokenTTL - time.Minute)
	_, err = b.svc.InvitationPreview(context.Background(), token)
	require.NoError(t, err)
	b.now = start.Add(app.InvitationTokenTTL)
	_, err = b.svc.InvitationPreview(context.Background(), token)
	requireTokenError(t, err, "expired")
	_, err = b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{Token: token, Password: ptr("a-long-password"), FirstName: ptr("X")})
	requireTokenError(t, err, "expired")
	// Still listed (expired, not accepted), so it can be sent again.
	list, _, err := b.svc.ListInvitations(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
}

// An OWNER who joined by invitation counts for the last-OWNER rule like any other.
func TestInvitedOwnerAndTheLastOwnerRule(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx, owner := b.signup(t)
	email := randomEmail()
	_, err := b.svc.CreateInvitation(ctx, email, app.RoleOwner)
	require.NoError(t, err)
	sess, err := b.svc.AcceptInvitation(context.Background(), app.AcceptInvitationParams{
		Token: tokenOf(t, b.mailTo(t, email, app.MailInvitation), app.AcceptInvitationPath), Password: ptr("a-long-password"), FirstName: ptr("Olu")})
	require.NoError(t, err)
	p, err := b.svc.AuthenticateSession(context.Background(), sess.User.ID, *sess.CurrentOrganizationID, sess.Generation)
	require.NoError(t, err)
	newOwner := app.WithPrincipal(context.Background(), p)
	require.Equal(t, app.RoleOwner, p.Role)

	members, _, err := b.svc.ListMembers(ctx, app.Page{Limit: 10})
	require.NoError(t, err)
	var first, second string
	for _, m := range members {
		if m.UserID == owner.User.ID {
			first = m.ID
		} else {
			second = m.ID
		}
	}
	_, err = b.svc.UpdateMemberRole(newOwner, first, app.RoleAdmin)
	require.NoError(t, err)
	_, err = b.svc.UpdateMemberRole(newOwner, second, app.RoleAdmin)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	require.Contains(t, app.ErrorMessage(err), "last OWNER")
}

// Names in invitation mails are escaped in HTML and kept verbatim in text.
func TestInvitationMailEscapesHTML(t *testing.T) {
	t.Parallel()
	b := mailSetup(t)
	ctx := context.Background()
	sess, err := b.svc.Signup(ctx, app.SignupParams{Email: randomEmail(), Password: "correct horse battery", FirstName: "Eve", OrganizationName: ptr(`<script>alert(1)</script> & Co`)})
	require.NoError(t, err)
	p, err := b.svc.AuthenticateSession(ctx, sess.User.ID, *sess.CurrentOrganizationID, sess.Generation)
	require.NoError(t, err)
	email := randomEmail()
	_, err = b.svc.CreateInvitation(app.WithPrincipal(ctx, p), email, app.RoleAdmin)
	require.NoError(t, err)
	m := b.mailTo(t, email, app.MailInvitation)
	require.NotContains(t, m.HTML, "<script>")
	require.Contains(t, m.HTML, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co")
	require.Contains(t, m.Text, "<script>alert(1)</script> & Co")
	require.Equal(t, "Eve invited you to <script>alert(1)</script> & Co on Crier", m.Subject)
}
