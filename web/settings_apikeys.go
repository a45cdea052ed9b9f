package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/settings"
)

// apiKeysPageSize is the keys table's page size.
const apiKeysPageSize = 20

// apiKeysShow serves GET /settings/api-keys. Roles without access get the tab's 403 page; htmx
// reloads the keys card alone after a change.
func (h *Handler) apiKeysShow(c echo.Context) error {
	d, err := h.apiKeysData(c, pageNumber(c))
	if app.ErrorCode(err) == app.EForbidden {
		return h.settingsForbidden(c, settings.TabAPIKeys, "API keys", err)
	}
	if err != nil {
		return err
	}
	if hxTarget(c) == "api-keys-list" {
		return render(c, http.StatusOK, settings.KeysCard(d), nil)
	}
	return h.renderAPIKeys(c, http.StatusOK, d)
}

// apiKeyCreate serves POST /settings/api-keys: the page answers with the key's secret, the only
// time it is shown (never stored, never redirected through the session).
func (h *Handler) apiKeyCreate(c echo.Context) error {
	form := components.NewForm(formValues(c, "name"))
	key, err := h.svc.CreateAPIKey(c.Request().Context(), form.Value("name"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.settingsForbidden(c, settings.TabAPIKeys, "API keys", err)
	}
	if err != nil && !refused(&form, err, "name") {
		return err
	}
	d, derr := h.apiKeysData(c, 1)
	if derr != nil {
		return derr
	}
	if err == nil {
		form = components.NewForm(nil)
		d.Secret = &settings.Secret{Name: key.Name, Key: key.Key}
		c.Response().Header().Set("Cache-Control", "no-store")
	}
	d.Create = form
	if isHTMX(c) {
		return render(c, http.StatusOK, settings.APIKeysStack(d), nil)
	}
	return h.renderAPIKeys(c, formStatus(c, form), d)
}

// apiKeyRollConfirm serves GET /settings/api-keys/:id/roll.
func (h *Handler) apiKeyRollConfirm(c echo.Context) error {
	k, err := h.findAPIKey(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaSettings, "API keys", apiKeyRollConfirmation(*k))
}

// apiKeyRoll serves POST /settings/api-keys/:id/roll: the new secret in the dialog (htmx), or on
// the page.
func (h *Handler) apiKeyRoll(c echo.Context) error {
	ctx := c.Request().Context()
	k, err := h.findAPIKey(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	rolled, err := h.svc.RollAPIKey(ctx, k.ID)
	if err != nil {
		return h.confirmFailed(c, areaSettings, "API keys", apiKeyRollConfirmation(*k), err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	secret := settings.Secret{Name: rolled.Name, Key: rolled.Key, Rolled: true}
	if isHTMX(c) {
		hxTrigger(c, eventAPIKeysChanged)
		return render(c, http.StatusOK, settings.RolledDialog(secret), nil)
	}
	d, err := h.apiKeysData(c, 1)
	if err != nil {
		return err
	}
	d.Secret = &secret
	return h.renderAPIKeys(c, http.StatusOK, d)
}

func apiKeyRollConfirmation(k app.APIKey) components.Confirm {
	return components.Confirm{
		ID:     "confirm-roll-key",
		Title:  "Roll “" + k.Name + "”?",
		Text:   "Crier makes a new secret for this key and the current one stops working at once: anything still using it gets 401 until you update it.",
		Button: "Roll key",
		Action: idURL(pathAPIKeys, k.ID, suffixRoll),
		Cancel: pathAPIKeys,
		Icon:   "key",
	}
}

// apiKeyDeleteConfirm serves GET /settings/api-keys/:id/delete.
func (h *Handler) apiKeyDeleteConfirm(c echo.Context) error {
	k, err := h.findAPIKey(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaSettings, "API keys", apiKeyDeleteConfirmation(*k))
}

// apiKeyDelete serves POST /settings/api-keys/:id/delete.
func (h *Handler) apiKeyDelete(c echo.Context) error {
	ctx := c.Request().Context()
	k, err := h.findAPIKey(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if err := h.svc.DeleteAPIKey(ctx, k.ID); err != nil {
		return h.confirmFailed(c, areaSettings, "API keys", apiKeyDeleteConfirmation(*k), err)
	}
	msg := "API key “" + k.Name + "” deleted."
	if isHTMX(c) {
		return dialogDone(c, msg, eventAPIKeysChanged)
	}
	return flashRedirect(c, msg, pathAPIKeys)
}

func apiKeyDeleteConfirmation(k app.APIKey) components.Confirm {
	return components.Confirm{
		ID:     "confirm-delete-key",
		Title:  "Delete “" + k.Name + "”?",
		Text:   "Requests with this key get 401 from now on. This cannot be undone.",
		Button: "Delete key",
		Action: idURL(pathAPIKeys, k.ID, suffixDelete),
		Cancel: pathAPIKeys,
	}
}

// apiKeysData builds the API keys page (page n of the keys).
func (h *Handler) apiKeysData(c echo.Context, n int) (settings.APIKeys, error) {
	ctx := c.Request().Context()
	keys, total, err := h.svc.ListAPIKeys(ctx, "", servicePage(n, apiKeysPageSize))
	if err != nil {
		return settings.APIKeys{}, err
	}
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return settings.APIKeys{}, err
	}
	d := settings.APIKeys{
		Frame:  settingsFrame(c, org, settings.TabAPIKeys),
		Create: components.NewForm(nil),
		New:    pathAPIKeys,
		Self:   withQuery(pathAPIKeys, "page", strconv.Itoa(n)),
	}
	for _, k := range keys {
		last := "Never"
		if k.LastUsedAt != nil {
			last = viewerMoment(c, *k.LastUsedAt)
		}
		d.Rows = append(d.Rows, settings.APIKey{
			ID: k.ID, Name: k.Name, Prefix: "crier_" + k.Prefix + "_…", Created: viewerDay(c, k.CreatedAt), LastUsed: last,
			Roll: idURL(pathAPIKeys, k.ID, suffixRoll), Delete: idURL(pathAPIKeys, k.ID, suffixDelete),
		})
	}
	d.Pager = components.NewPager(n, apiKeysPageSize, total, "key/keys", "api-keys-list", func(p int) templ.SafeURL {
		return withQuery(pathAPIKeys, "page", strconv.Itoa(p))
	})
	return d, nil
}

// findAPIKey finds a key of the caller's organization by id.
func (h *Handler) findAPIKey(ctx context.Context, id string) (*app.APIKey, error) {
	for n := 1; ; n++ {
		list, total, err := h.svc.ListAPIKeys(ctx, "", servicePage(n, app.MaxPageLimit))
		if err != nil {
			return nil, err
		}
		for _, k := range list {
			if k.ID == id {
				return &k, nil
			}
		}
		if n*app.MaxPageLimit >= total || len(list) == 0 {
			return nil, app.NotFound("API key")
		}
	}
}

func (h *Handler) renderAPIKeys(c echo.Context, status int, d settings.APIKeys) error {
	return render(c, status, settings.APIKeysPage(h.orgShell(c, areaSettings, "API keys"), d), settings.APIKeysContent(d))
}

// settingsForbidden answers a settings tab the caller's role may not open: the tabs and a 403
// explanation, in the frame.
func (h *Handler) settingsForbidden(c echo.Context, tab, title string, err error) error {
	org, oerr := h.svc.GetOrganization(c.Request().Context())
	if oerr != nil {
		return oerr
	}
	d := settings.Forbidden{Frame: settingsFrame(c, org, tab), Message: app.ErrorMessage(err), Back: pathSettings}
	return render(c, http.StatusForbidden, settings.ForbiddenPage(h.orgShell(c, areaSettings, title), d), settings.ForbiddenContent(d))
}
