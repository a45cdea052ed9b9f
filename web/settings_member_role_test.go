package web_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// A role change asks first: the row's select opens a dialog saying what the role may do; its button
// changes the role (the members reload); choosing the current role asks nothing; a refusal shows in
// the dialog; without JavaScript the same confirmation is a page.
func TestMemberRoleChangeIsConfirmed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, memberID := b.addMember(t, app.RoleMember, "Mia")

	// The row's form asks (GET) into the dialog slot; it no longer posts on change.
	doc := parse(t, b.get(t, "/settings/members"))
	form := doc.Find(`#member-` + memberID + ` [data-testid="role-form"]`)
	require.Equal(t, "/settings/members/"+memberID+"/role", form.AttrOr("hx-get", ""))
	require.Empty(t, form.AttrOr("hx-post", ""))
	require.Equal(t, "#org-dialog", form.AttrOr("hx-target", ""))

	doc = parse(t, b.get(t, "/settings/members/"+memberID+"/role?role=ADMIN", hx("org-dialog")...))
	require.Equal(t, "Make Mia an admin?", doc.Find("dialog h2").Text())
	require.Contains(t, doc.Find("dialog").Text(), "Admins manage API keys, members, webhooks, settings and teams")
	require.Equal(t, "ADMIN", doc.Find(`dialog input[type="hidden"][name="role"]`).AttrOr("value", ""))
	require.Equal(t, "Make admin", doc.Find(`[data-testid="confirm-submit"]`).Text())

	// Nothing changed yet.
	members, _, err := b.svc.ListMembers(b.ctx(t), app.Page{Limit: 10})
	require.NoError(t, err)
	for _, m := range members {
		if m.ID == memberID {
			require.Equal(t, app.RoleMember, m.Role)
		}
	}

	// The current role: nothing to confirm.
	rec := b.get(t, "/settings/members/"+memberID+"/role?role=MEMBER", hx("org-dialog")...)
	require.Equal(t, http.StatusNoContent, rec.Code)

	// Confirmed: the dialog closes, the members reload, the role is saved.
	rec = b.post(t, "/settings/members/"+memberID+"/role", url.Values{"role": {"ADMIN"}}, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "membersChanged")
	require.Contains(t, rec.Body.String(), "Role of Mia changed to Admin.")
	doc = parse(t, b.get(t, "/settings/members"))
	require.Equal(t, "ADMIN", doc.Find(`#member-`+memberID+` option[selected]`).AttrOr("value", ""))

	// The only owner demoting themselves: the dialog says why not.
	me := doc.Find(`[data-testid="member-row"]`).First().AttrOr("data-member-id", "")
	rec = b.post(t, "/settings/members/"+me+"/role", url.Values{"role": {"MEMBER"}}, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-error"]`).Text(), "last OWNER")

	// Without JavaScript: a confirmation page whose form posts the role.
	doc = parse(t, b.get(t, "/settings/members/"+memberID+"/role?role=MEMBER"))
	require.Equal(t, "Make Mia a member?", doc.Find("h1").Text())
	require.Equal(t, "MEMBER", doc.Find(`[data-testid="confirm-page"] input[name="role"]`).AttrOr("value", ""))
	rec = b.post(t, "/settings/members/"+memberID+"/role", url.Values{"role": {"MEMBER"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
}

// A pending invitation can be sent again: a fresh link (the old one stops working), the same role,
// a new mail; the invitations reload.
func TestInvitationResend(t *testing.T) {
	t.Parallel()
	b := setup(t)
	inv, err := b.svc.CreateInvitation(b.ctx(t), "grace@example.com", app.RoleAdmin)
	require.NoError(t, err)
	mails := func() int {
		var n int
		require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE to_address = 'grace@example.com'`).Scan(&n))
		return n
	}
	var hashBefore []byte
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT token_hash FROM invitations WHERE id = $1`, inv.ID).Scan(&hashBefore))
	before := mails()

	doc := parse(t, b.get(t, "/settings/members"))
	resend := doc.Find(`#invitation-` + inv.ID + ` [data-testid="invitation-resend"]`)
	require.Equal(t, "Resend the invitation to grace@example.com", resend.AttrOr("aria-label", ""))

	rec := b.post(t, "/settings/invitations/"+inv.ID+"/resend", nil, hx("")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "invitationsChanged")
	require.Contains(t, rec.Body.String(), "Invitation sent again to grace@example.com.")
	require.Equal(t, before+1, mails())
	var hashAfter []byte
	var role string
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT token_hash, role FROM invitations WHERE id = $1`, inv.ID).Scan(&hashAfter, &role))
	require.NotEqual(t, hashBefore, hashAfter)
	require.Equal(t, "ADMIN", role)

	// Another organization's invitation: not found.
	rec = b.post(t, "/settings/invitations/00000000-0000-0000-0000-000000000000/resend", nil)
	require.Equal(t, http.StatusNotFound, rec.Code)
}
