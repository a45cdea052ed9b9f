package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/account"
)

// newOrganizationPage serves GET /organizations/new.
func (h *Handler) newOrganizationPage(c echo.Context) error {
	return h.renderNewOrganization(c, account.NewForm("name"))
}

func (h *Handler) renderNewOrganization(c echo.Context, f account.Form) error {
	d := account.NewOrganizationData{Form: f, Action: pathNewOrganization, Cancel: templ.SafeURL(pathHome)}
	return renderForm(c, f.Invalid(), account.NewOrganization(h.shell(c, "", "Create an organization"), d), account.NewOrganizationCard(d))
}

// createOrganization serves POST /organizations/new: the organization, then the session moves to it.
func (h *Handler) createOrganization(c echo.Context) error {
	f, in := bindForm(c, "name")
	ctx := c.Request().Context()
	m, err := h.svc.CreateOrganization(ctx, in["name"])
	if err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderNewOrganization(c, f)
	}
	s, err := h.svc.SwitchOrganization(ctx, m.OrganizationID)
	if err != nil {
		return err
	}
	if err := h.signIn(c, s); err != nil {
		return err
	}
	if err := addFlash(c, components.FlashSuccess, m.OrganizationName+" is ready. You are now working in it."); err != nil {
		return err
	}
	return redirect(c, pathHome)
}

// switchOrganization serves POST /organizations/switch (the top bar's switcher): the session moves
// to organizationId, and the dashboard starts again from home there.
func (h *Handler) switchOrganization(c echo.Context) error {
	s, err := h.svc.SwitchOrganization(c.Request().Context(), c.FormValue("organizationId"))
	if err != nil {
		switch app.ErrorCode(err) {
		case app.ENotFound, app.EInvalid:
			if err := addFlash(c, components.FlashError, "That organization is not one of yours."); err != nil {
				return err
			}
			return redirect(c, pathHome)
		}
		return err
	}
	if err := h.signIn(c, s); err != nil {
		return err
	}
	if err := addFlash(c, components.FlashSuccess, "Switched to "+currentOrgName(s)+"."); err != nil {
		return err
	}
	return redirect(c, pathHome)
}
