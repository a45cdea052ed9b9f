package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/settings"
)

// membersPageSize is the members table's page size.
const membersPageSize = app.DefaultMemberListLimit

// membersShow serves GET /settings/members: the members and, for those who manage them, the
// invitations. htmx reloads either card alone (after a removal or a revocation).
func (h *Handler) membersShow(c echo.Context) error {
	d, err := h.membersData(c, pageNumber(c))
	if err != nil {
		return err
	}
	switch hxTarget(c) {
	case "members":
		return render(c, http.StatusOK, settings.MembersCard(d), nil)
	case "invitations":
		return render(c, http.StatusOK, settings.InvitationsCard(d.Invitations), nil)
	}
	return h.renderMembers(c, http.StatusOK, d)
}

// memberRemoveConfirm serves GET /settings/members/:id/remove.
func (h *Handler) memberRemoveConfirm(c echo.Context) error {
	m, err := h.findMember(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaSettings, "Members", memberRemoveConfirmation(*m))
}

// memberRemove serves POST /settings/members/:id/remove.
func (h *Handler) memberRemove(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := h.findMember(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if err := h.svc.RemoveMember(ctx, m.ID); err != nil {
		return h.confirmFailed(c, areaSettings, "Members", memberRemoveConfirmation(*m), err)
	}
	msg := personName(m.FirstName, m.LastName, m.Email) + " was removed from the organization."
	if isHTMX(c) {
		return dialogDone(c, msg, eventMembersChanged)
	}
	return flashRedirect(c, msg, pathMembers)
}

func memberRemoveConfirmation(m app.Member) components.Confirm {
	name := personName(m.FirstName, m.LastName, m.Email)
	return components.Confirm{
		ID:     "confirm-remove-member",
		Title:  "Remove " + name + "?",
		Text:   name + " (" + m.Email + ") loses access to this organization at once, and the API keys they created stop working. You can invite them again later.",
		Button: "Remove member",
		Action: idURL(pathMembers, m.ID, suffixRemove),
		Cancel: pathMembers,
	}
}

// invitationCreate serves POST /settings/invitations. The form keeps what was typed when the
// Service refuses it (an invalid address, a member already, OWNER invited by an ADMIN).
func (h *Handler) invitationCreate(c echo.Context) error {
	form := components.NewForm(formValues(c, "email", "role"))
	inv, err := h.svc.CreateInvitation(c.Request().Context(), strings.TrimSpace(form.Value("email")), app.Role(form.Value("role")))
	if err != nil && !refused(&form, err, "email", "role") {
		return err
	}
	if err == nil {
		msg := "Invitation sent to " + inv.Email + "."
		if !isHTMX(c) {
			return flashRedirect(c, msg, pathMembers)
		}
		form = components.NewForm(map[string]string{"role": string(app.RoleMember)})
		form.Saved = msg
	}
	d, derr := h.membersData(c, 1)
	if derr != nil {
		return derr
	}
	d.Invitations.Form = form
	if isHTMX(c) {
		return render(c, http.StatusOK, settings.InvitationsCard(d.Invitations), nil)
	}
	return h.renderMembers(c, formStatus(c, form), d)
}

// invitationRevokeConfirm serves GET /settings/invitations/:id/revoke.
func (h *Handler) invitationRevokeConfirm(c echo.Context) error {
	inv, err := h.findInvitation(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaSettings, "Members", invitationRevokeConfirmation(*inv))
}

// invitationRevoke serves POST /settings/invitations/:id/revoke.
func (h *Handler) invitationRevoke(c echo.Context) error {
	ctx := c.Request().Context()
	inv, err := h.findInvitation(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if err := h.svc.DeleteInvitation(ctx, inv.ID); err != nil {
		return h.confirmFailed(c, areaSettings, "Members", invitationRevokeConfirmation(*inv), err)
	}
	msg := "Invitation to " + inv.Email + " revoked."
	if isHTMX(c) {
		return dialogDone(c, msg, eventInvitationsChanged)
	}
	return flashRedirect(c, msg, pathMembers)
}

// invitationResend serves POST /settings/invitations/:id/resend: a fresh link (the old one stops
// working) valid for another 7 days, mailed again with the same role.
func (h *Handler) invitationResend(c echo.Context) error {
	ctx := c.Request().Context()
	inv, err := h.findInvitation(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if _, err := h.svc.CreateInvitation(ctx, inv.Email, inv.Role); err != nil {
		if !refusal(err) {
			return err
		}
		if isHTMX(c) {
			return render(c, http.StatusOK, components.OOBFlash(components.Flash{Kind: components.FlashError, Text: app.ErrorMessage(err)}), nil)
		}
		if ferr := addFlash(c, components.FlashError, app.ErrorMessage(err)); ferr != nil {
			return ferr
		}
		return redirect(c, pathMembers)
	}
	msg := "Invitation sent again to " + inv.Email + "."
	if isHTMX(c) {
		return dialogDone(c, msg, eventInvitationsChanged)
	}
	return flashRedirect(c, msg, pathMembers)
}

func invitationRevokeConfirmation(inv app.Invitation) components.Confirm {
	return components.Confirm{
		ID:     "confirm-revoke-invitation",
		Title:  "Revoke the invitation to " + inv.Email + "?",
		Text:   "The link in their email stops working. You can invite them again later.",
		Button: "Revoke invitation",
		Action: idURL(pathInvitations, inv.ID, suffixRevoke),
		Cancel: pathMembers,
	}
}

// membersData builds the members page (page n of the members).
func (h *Handler) membersData(c echo.Context, n int) (settings.Members, error) {
	ctx := c.Request().Context()
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return settings.Members{}, err
	}
	members, total, err := h.svc.ListMembers(ctx, servicePage(n, membersPageSize))
	if err != nil {
		return settings.Members{}, err
	}
	d := settings.Members{
		Frame:     settingsFrame(c, org, settings.TabMembers),
		CanManage: app.Can(callerRole(c), app.ActManageMembers),
		Self:      withQuery(pathMembers, "page", strconv.Itoa(n)),
	}
	for _, m := range members {
		d.Rows = append(d.Rows, h.memberRow(c, m))
	}
	d.Pager = components.NewPager(n, membersPageSize, total, "member/members", "members", func(p int) templ.SafeURL {
		return withQuery(pathMembers, "page", strconv.Itoa(p))
	})
	if d.CanManage {
		invs, _, err := h.svc.ListInvitations(ctx)
		if err != nil {
			return settings.Members{}, err
		}
		d.Invitations = settings.Invitations{
			Form:   components.NewForm(map[string]string{"role": string(app.RoleMember)}),
			Roles:  roleOptions(callerRole(c)),
			Create: pathInvitations,
			Self:   pathMembers,
		}
		now := time.Now()
		for _, inv := range invs {
			d.Invitations.Rows = append(d.Invitations.Rows, settings.Invitation{
				ID: inv.ID, Email: inv.Email, Role: string(inv.Role),
				Sent: viewerDay(c, inv.CreatedAt), Expires: viewerMoment(c, inv.ExpiresAt), Expired: !inv.ExpiresAt.After(now),
				Revoke: idURL(pathInvitations, inv.ID, suffixRevoke),
				Resend: idURL(pathInvitations, inv.ID, suffixResend),
			})
		}
	}
	return d, nil
}

// memberRow is a member as the caller sees it: the role select only where the Service would
// accept a change (an ADMIN cannot touch an OWNER).
func (h *Handler) memberRow(c echo.Context, m app.Member) settings.Member {
	r := callerRole(c)
	canEdit := app.Can(r, app.ActManageMembers) && (m.Role != app.RoleOwner || app.Can(r, app.ActManageOwners))
	return settings.Member{
		ID:       m.ID,
		Name:     personName(m.FirstName, m.LastName, m.Email),
		Email:    m.Email,
		Initials: components.Initials(personName(m.FirstName, m.LastName, m.Email)),
		Role:     string(m.Role),
		Joined:   viewerDay(c, m.CreatedAt),
		You:      m.UserID == principal(c).UserID,
		CanEdit:  canEdit,
		Roles:    roleOptions(r),
		RoleURL:  idURL(pathMembers, m.ID, suffixRole),
		Remove:   idURL(pathMembers, m.ID, suffixRemove),
	}
}

// roleOptions are the roles the caller may give: OWNER only by an OWNER.
func roleOptions(r app.Role) []settings.Role {
	var out []settings.Role
	for _, v := range []app.Role{app.RoleOwner, app.RoleAdmin, app.RoleMember} {
		if v == app.RoleOwner && !app.Can(r, app.ActManageOwners) {
			continue
		}
		out = append(out, settings.Role{Value: string(v), Label: settings.RoleLabel(string(v))})
	}
	return out
}

// findMember finds a member of the caller's organization by id (the Service lists, it has no
// single-member read); absent is the Service's 404.
func (h *Handler) findMember(ctx context.Context, id string) (*app.Member, error) {
	for n := 1; ; n++ {
		list, total, err := h.svc.ListMembers(ctx, servicePage(n, app.MaxPageLimit))
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			if m.ID == id {
				return &m, nil
			}
		}
		if n*app.MaxPageLimit >= total || len(list) == 0 {
			return nil, app.NotFound("Member")
		}
	}
}

// findInvitation finds a pending invitation of the caller's organization by id.
func (h *Handler) findInvitation(ctx context.Context, id string) (*app.Invitation, error) {
	list, _, err := h.svc.ListInvitations(ctx)
	if err != nil {
		return nil, err
	}
	for _, inv := range list {
		if inv.ID == id {
			return &inv, nil
		}
	}
	return nil, app.NotFound("Invitation")
}

func (h *Handler) renderMembers(c echo.Context, status int, d settings.Members) error {
	return render(c, status, settings.MembersPage(h.orgShell(c, areaSettings, "Members"), d), settings.MembersContent(d))
}
