package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/account"
)

var invitationFields = []string{"firstName", "password"}

// invitationPage serves GET /invitations/accept?token=…: what the invitation is for, and the form
// that accepts it.
func (h *Handler) invitationPage(c echo.Context) error {
	token := strings.TrimSpace(c.QueryParam("token"))
	return h.renderInvitation(c, account.NewForm(invitationFields...), token)
}

// renderInvitation loads the invitation behind token and shows it with f (or why it cannot be used).
func (h *Handler) renderInvitation(c echo.Context, f account.Form, token string) error {
	d := account.InvitationData{Form: f, Action: pathAcceptInvitation, Token: token, Links: accountLinks()}
	if p := h.sessionUser(c); p != nil {
		d.SignedInAs = p.ActorName
	}
	status := http.StatusOK
	if token == "" {
		d.Problem = "This invitation link is incomplete"
	} else if info, err := h.svc.InvitationPreview(c.Request().Context(), token); err != nil {
		pf := account.NewForm()
		if err := formError(&pf, err); err != nil {
			return err
		}
		d.Problem = pf.Message
	} else {
		d.Invitation = &account.Invitation{OrganizationName: info.OrganizationName, Email: info.Email, Role: roleLabel(info.Role),
			InviterName: info.InviterName, NeedsAccount: !info.UserExists, ExpiresAt: info.ExpiresAt}
	}
	if d.Invitation == nil {
		status = http.StatusBadRequest
	} else if f.Invalid() && !isFragmentRequest(c.Request()) {
		status = http.StatusUnprocessableEntity
	}
	return render(c, status, account.AcceptInvitation(h.authFrame(c, "Accept invitation"), d), account.InvitationCard(d))
}

// invitationSubmit serves POST /invitations/accept: joins the organization (creating the account
// when the address has none), signs in there, and goes home.
func (h *Handler) invitationSubmit(c echo.Context) error {
	f, in := bindForm(c, invitationFields...)
	params := app.AcceptInvitationParams{Token: strings.TrimSpace(c.FormValue("token"))}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	if _, ok := form["password"]; ok {
		params.Password = &[]string{in["password"]}[0]
	}
	if _, ok := form["firstName"]; ok {
		params.FirstName = &[]string{in["firstName"]}[0]
	}
	s, err := h.svc.AcceptInvitation(c.Request().Context(), params)
	if err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderInvitation(c, f, params.Token)
	}
	if err := h.signIn(c, s); err != nil {
		return err
	}
	if err := addFlash(c, components.FlashSuccess, "Welcome aboard! You joined "+currentOrgName(s)+"."); err != nil {
		return err
	}
	return redirect(c, pathHome)
}

// currentOrgName is the name of a session's current organization.
func currentOrgName(s *app.Session) string {
	for _, m := range s.Memberships {
		if s.CurrentOrganizationID != nil && m.OrganizationID == *s.CurrentOrganizationID {
			return m.OrganizationName
		}
	}
	return "the organization"
}
