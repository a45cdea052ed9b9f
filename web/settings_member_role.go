package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/settings"
)

// A member's role changes after a confirmation that says what the new role may do: the row's
// select asks (GET, a dialog to htmx, a page otherwise), the dialog's button changes it (POST).

// memberRoleConfirm serves GET /settings/members/:id/role?role=. Choosing the role the member has
// (or none) asks nothing.
func (h *Handler) memberRoleConfirm(c echo.Context) error {
	m, err := h.findMember(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	role := app.Role(c.QueryParam("role"))
	if role == "" || role == m.Role {
		if isHTMX(c) {
			return c.NoContent(http.StatusNoContent)
		}
		return redirect(c, pathMembers)
	}
	return h.confirm(c, areaSettings, "Members", memberRoleConfirmation(*m, role))
}

func memberRoleConfirmation(m app.Member, role app.Role) components.Confirm {
	name := personName(m.FirstName, m.LastName, m.Email)
	label := settings.RoleLabel(string(role))
	text := name + " becomes " + article(strings.ToLower(label)) + ". "
	switch role {
	case app.RoleOwner:
		text += "Owners can do everything, billing and deleting the organization included, and grant or remove the Owner role."
	case app.RoleAdmin:
		text += "Admins manage API keys, members, webhooks, settings and teams, but not billing or owners."
	case app.RoleMember:
		text += "Members work on content and connect accounts; they cannot manage API keys, members, webhooks, settings or teams."
	}
	return components.Confirm{
		ID:     "confirm-member-role",
		Title:  "Make " + name + " " + article(strings.ToLower(label)) + "?",
		Text:   text,
		Button: "Make " + strings.ToLower(label),
		Action: idURL(pathMembers, m.ID, suffixRole),
		Cancel: pathMembers,
		Icon:   "teams",
		Fields: []components.Hidden{{Name: "role", Value: string(role)}},
	}
}

// memberRoleDialog answers the confirmation dialog's POST: the dialog closes and the members reload,
// or the dialog says why the Service refused. A change of one's own role reloads the whole page
// (what it offers changes).
func (h *Handler) memberRoleDialog(c echo.Context) error {
	ctx := c.Request().Context()
	before, err := h.findMember(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	role := app.Role(c.FormValue("role"))
	m, err := h.svc.UpdateMemberRole(ctx, before.ID, role)
	if err != nil {
		return h.confirmFailed(c, areaSettings, "Members", memberRoleConfirmation(*before, role), err)
	}
	msg := "Role of " + personName(m.FirstName, m.LastName, m.Email) + " changed to " + settings.RoleLabel(string(m.Role)) + "."
	if m.UserID == principal(c).UserID {
		return flashRedirect(c, msg, pathMembers)
	}
	return dialogDone(c, msg, eventMembersChanged)
}

// memberRole serves POST /settings/members/:id/role: from the confirmation dialog (memberRoleDialog),
// from the full confirmation page, or from a script swapping the member's row: saved, or with the
// Service's refusal beside the select (e.g. the last OWNER cannot be demoted).
func (h *Handler) memberRole(c echo.Context) error {
	if hxTarget(c) == components.DialogSlot {
		return h.memberRoleDialog(c)
	}
	ctx := c.Request().Context()
	id := c.Param("id")
	m, err := h.svc.UpdateMemberRole(ctx, id, app.Role(c.FormValue("role")))
	if app.ErrorCode(err) == app.ENotFound {
		return pageError(err)
	}
	var f components.Form = components.NewForm(nil)
	if err != nil && !refused(&f, err, "role") {
		return err
	}
	problem := f.Message
	if problem == "" {
		problem = f.Error("role")
	}
	you := m != nil && m.UserID == principal(c).UserID
	if err == nil && (!isHTMX(c) || you) {
		// A change of one's own role changes what the page offers: reload it whole.
		return flashRedirect(c, "Role of "+personName(m.FirstName, m.LastName, m.Email)+" changed to "+settings.RoleLabel(string(m.Role))+".", pathMembers)
	}
	if isHTMX(c) {
		row := m
		if row == nil {
			var ferr error
			if row, ferr = h.findMember(ctx, id); ferr != nil {
				return pageError(ferr)
			}
		}
		r := h.memberRow(c, *row)
		r.Error, r.Saved = problem, err == nil
		return render(c, http.StatusOK, settings.MemberRow(r), nil)
	}
	d, derr := h.membersData(c, 1)
	if derr != nil {
		return derr
	}
	for i := range d.Rows {
		if d.Rows[i].ID == id {
			d.Rows[i].Error = problem
		}
	}
	status := refusedStatus(err)
	return h.renderMembers(c, status, d)
}
