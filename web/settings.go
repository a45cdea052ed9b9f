package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/settings"
)

// Fields of the general settings forms, named as the Service's issues name them.
var (
	settingsFields = []string{"name", "uploadsCompression", "verboseErrors", "remoteDisconnectChecks", "deleteDisconnectedAfterHours"}
	brandingFields = []string{"portalBrandName", "portalLogoUrl", "portalAccentColor"}
)

// defaultAccent is Crier's accent, which the portal uses while none is set (--color-accent).
const defaultAccent = "#4f46e5"

// settingsFrame is the organization and the tabs the caller's role may open.
func settingsFrame(c echo.Context, org *app.OrganizationDetail, active string) settings.Frame {
	r := callerRole(c)
	f := settings.Frame{OrgName: org.Name, Plan: string(org.Plan), Active: active, Tabs: []settings.Tab{
		{ID: settings.TabGeneral, Label: "General", Href: pathSettings, Icon: "settings"},
		{ID: settings.TabMembers, Label: "Members", Href: pathMembers, Icon: "teams"},
	}}
	if app.Can(r, app.ActManageAPIKeys) {
		f.Tabs = append(f.Tabs, settings.Tab{ID: settings.TabAPIKeys, Label: "API keys", Href: pathAPIKeys, Icon: "key"})
	}
	if app.Can(r, app.ActReadAuditLog) {
		f.Tabs = append(f.Tabs, settings.Tab{ID: settings.TabAuditLog, Label: "Audit log", Href: pathAuditLog, Icon: "activity"})
	}
	return f
}

// settingsShow serves GET /settings: settings, portal branding, usage and the danger zone.
func (h *Handler) settingsShow(c echo.Context) error {
	d, err := h.generalData(c)
	if err != nil {
		return err
	}
	return h.renderGeneral(c, http.StatusOK, d)
}

// settingsUpdate serves POST /settings (name, switches, hours). htmx swaps the card alone.
func (h *Handler) settingsUpdate(c echo.Context) error {
	form := components.NewForm(formValues(c, settingsFields...))
	in := app.SettingsParams{
		Name:                   pointerTo(form.Value("name")),
		UploadsCompression:     pointerTo(form.Checked("uploadsCompression")),
		VerboseErrors:          pointerTo(form.Checked("verboseErrors")),
		RemoteDisconnectChecks: pointerTo(form.Checked("remoteDisconnectChecks")),
	}
	hours, err := strconv.Atoi(strings.TrimSpace(form.Value("deleteDisconnectedAfterHours")))
	if err != nil {
		form.Errors["deleteDisconnectedAfterHours"] = "Enter a whole number of hours between 0 and 168"
		form.Focus = "deleteDisconnectedAfterHours"
	} else {
		in.DeleteDisconnectedAfterHours = &hours
	}
	return h.saveSettings(c, "settings-general", form, in, settingsFields, "Settings saved.")
}

// brandingUpdate serves POST /settings/branding (the client portal's name, logo and accent).
func (h *Handler) brandingUpdate(c echo.Context) error {
	form := components.NewForm(formValues(c, brandingFields...))
	in := app.SettingsParams{
		PortalBrandName:   pointerTo(strings.TrimSpace(form.Value("portalBrandName"))),
		PortalLogoURL:     pointerTo(strings.TrimSpace(form.Value("portalLogoUrl"))),
		PortalAccentColor: pointerTo(strings.TrimSpace(form.Value("portalAccentColor"))),
	}
	return h.saveSettings(c, "settings-branding", form, in, brandingFields, "Branding saved.")
}

// saveSettings saves one settings card. Success: htmx gets the card with a confirmation, a
// browser the page again (See Other) with a flash. Refused: the card or the page with the errors
// beside their fields and what was typed.
func (h *Handler) saveSettings(c echo.Context, card string, form components.Form, in app.SettingsParams, fields []string, saved string) error {
	if !form.Invalid() {
		_, err := h.svc.UpdateSettings(c.Request().Context(), in)
		if err != nil && !refused(&form, err, fields...) {
			return err
		}
		if err == nil && !isHTMX(c) {
			return flashRedirect(c, saved, pathSettings)
		}
		if err == nil {
			form.Saved = saved
		}
	}
	d, err := h.generalData(c)
	if err != nil {
		return err
	}
	if card == "settings-general" {
		d.Settings = form
	} else {
		d.Branding = form
	}
	if isHTMX(c) {
		if card == "settings-general" {
			return render(c, http.StatusOK, settings.SettingsCard(d), nil)
		}
		return render(c, http.StatusOK, settings.BrandingCard(d), nil)
	}
	return h.renderGeneral(c, formStatus(c, form), d)
}

// organizationDelete serves POST /settings/delete: the OWNER typed the organization's name. The
// session moves to another of the user's organizations, or ends when there is none.
func (h *Handler) organizationDelete(c echo.Context) error {
	ctx := c.Request().Context()
	form := components.NewForm(formValues(c, "confirmName"))
	err := h.svc.DeleteOrganization(ctx, form.Value("confirmName"))
	if err != nil {
		if !refused(&form, err, "confirmName") {
			return err
		}
		d, derr := h.generalData(c)
		if derr != nil {
			return derr
		}
		d.Delete = form
		status := refusedStatus(err)
		return h.renderGeneral(c, status, d)
	}
	name := viewerOrgName(c)
	sess, err := h.svc.CurrentSession(ctx)
	if err != nil {
		return err
	}
	if sess.CurrentOrganizationID == nil || *sess.CurrentOrganizationID == principal(c).OrganizationID {
		if err := h.signOut(c); err != nil {
			return err
		}
		if err := addFlash(c, components.FlashSuccess, "Organization “"+name+"” deleted."); err != nil {
			return err
		}
		return redirect(c, pathLogin)
	}
	if err := h.signIn(c, sess); err != nil {
		return err
	}
	return flashRedirect(c, "Organization “"+name+"” deleted.", pathHome)
}

// viewerOrgName is the name of the caller's current organization, from their session.
func viewerOrgName(c echo.Context) string {
	v, p := viewer(c), principal(c)
	if v == nil || p == nil {
		return ""
	}
	for _, m := range v.Memberships {
		if m.OrganizationID == p.OrganizationID {
			return m.OrganizationName
		}
	}
	return ""
}

// generalData builds the general settings page from the saved settings.
func (h *Handler) generalData(c echo.Context) (settings.General, error) {
	ctx := c.Request().Context()
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return settings.General{}, err
	}
	r := callerRole(c)
	d := settings.General{
		Frame:     settingsFrame(c, org, settings.TabGeneral),
		CanEdit:   app.Can(r, app.ActManageSettings),
		CanDelete: app.Can(r, app.ActDeleteOrg),
		Settings: components.NewForm(map[string]string{
			"name":                         org.Name,
			"uploadsCompression":           strconv.FormatBool(org.UploadsCompressionEnabled),
			"verboseErrors":                strconv.FormatBool(org.ShowVerboseErrors),
			"remoteDisconnectChecks":       strconv.FormatBool(org.DisconnectCheckEnabled),
			"deleteDisconnectedAfterHours": strconv.Itoa(org.DeleteAccountAfter),
		}),
		Branding: components.NewForm(map[string]string{
			"portalBrandName":   valueOf(org.PortalBrandName),
			"portalLogoUrl":     valueOf(org.PortalLogoURL),
			"portalAccentColor": valueOf(org.PortalAccentColor),
		}),
		Delete:        components.NewForm(nil),
		DefaultAccent: defaultAccent,
		SaveSettings:  pathSettings,
		SaveBranding:  pathBranding,
		DeleteOrg:     pathDeleteOrg,
	}
	for _, k := range []struct {
		kind  app.UsageKind
		label string
	}{{app.UsagePosts, "Posts"}, {app.UsageComments, "Comments"}, {app.UsageUploads, "Uploads"}} {
		u, err := h.svc.MonthlyUsage(ctx, k.kind)
		if err != nil {
			return settings.General{}, err
		}
		d.Usage = append(d.Usage, settings.Usage{ID: string(k.kind), Label: k.label, Used: u.Used, Limit: u.Limit})
	}
	return d, nil
}

func (h *Handler) renderGeneral(c echo.Context, status int, d settings.General) error {
	return render(c, status, settings.GeneralPage(h.orgShell(c, areaSettings, "Settings"), d), settings.GeneralContent(d))
}

// valueOf is *s, or "".
func valueOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
