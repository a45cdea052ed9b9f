package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/webhooks"
)

// Paths and route names of the webhooks pages.
const (
	pathWebhooks         = "/webhooks"
	pathWebhookNew       = pathWebhooks + "/new"
	pathWebhook          = pathWebhooks + "/:id"
	suffixRotate         = "/rotate"
	suffixTest           = "/test"
	suffixDeliveries     = "/deliveries"
	suffixResend         = "/resend"
	eventWebhooksChanged = "webhooksChanged"

	routeWebhookNew           = "webhooks.new"
	routeWebhookCreate        = "webhooks.create"
	routeWebhook              = "webhook"
	routeWebhookUpdate        = "webhook.update"
	routeWebhookEdit          = "webhook.edit"
	routeWebhookDeleteConfirm = "webhook.delete.confirm"
	routeWebhookDelete        = "webhook.delete"
	routeWebhookRotateConfirm = "webhook.rotate.confirm"
	routeWebhookRotate        = "webhook.rotate"
	routeWebhookTest          = "webhook.test"
	routeWebhookDeliveries    = "webhook.deliveries"
	routeWebhookResend        = "webhook.resend"
)

// webhooksPageSize is the page size of the webhooks list and the deliveries log.
const webhooksPageSize = 20

// webhookShell is the frame of a webhooks page (dialogs and copy buttons: organization.js).
func (h *Handler) webhookShell(c echo.Context, title string) layout.Shell {
	return h.orgShell(c, areaWebhooks, title)
}

// webhooksList serves GET /webhooks. MEMBERs get the page with an explanation instead of the list.
func (h *Handler) webhooksList(c echo.Context) error {
	n := pageNumber(c)
	ctx := c.Request().Context()
	d := webhooks.List{Self: withQuery(pathWebhooks, "page", strconv.Itoa(n))}
	list, total, err := h.svc.ListWebhooks(ctx, servicePage(n, webhooksPageSize))
	status := http.StatusOK
	switch {
	case app.ErrorCode(err) == app.EForbidden:
		d.Forbidden = app.ErrorMessage(err)
		status = http.StatusForbidden
	case err != nil:
		return err
	default:
		d.New = pathWebhookNew
	}
	for _, w := range list {
		r := webhooks.Row{ID: w.ID, URL: w.URL, Events: len(w.Events), Active: w.Active,
			Href: idURL(pathWebhooks, w.ID, ""), Edit: idURL(pathWebhooks, w.ID, suffixEdit), Delete: idURL(pathWebhooks, w.ID, suffixDelete)}
		last, _, err := h.svc.ListWebhookDeliveries(ctx, w.ID, "", app.Page{Limit: 1})
		if err != nil {
			return err
		}
		if len(last) == 1 {
			r.LastStatus = last[0].Status
			r.LastAt = viewerMoment(c, last[0].CreatedAt)
			if last[0].ResponseCode != nil {
				r.LastCode = strconv.Itoa(*last[0].ResponseCode)
			}
		}
		d.Rows = append(d.Rows, r)
	}
	d.Pager = components.NewPager(n, webhooksPageSize, total, "webhook/webhooks", "webhooks-list", func(p int) templ.SafeURL {
		return withQuery(pathWebhooks, "page", strconv.Itoa(p))
	})
	if hxTarget(c) == "webhooks-list" {
		return render(c, status, webhooks.ListCard(d), nil)
	}
	return render(c, status, webhooks.ListPage(h.webhookShell(c, "Webhooks"), d), webhooks.ListContent(d))
}

// eventGroups are the 16 event kinds grouped as in the spec (by their first word).
func eventGroups() []webhooks.Group {
	labels := map[string]string{"post": "Posts", "comment": "Comments", "team": "Teams", "social-account": "Social accounts",
		"credit": "Credits", "conversation": "Conversations"}
	var out []webhooks.Group
	for _, k := range app.EventKinds {
		prefix, _, _ := strings.Cut(k, ".")
		label := labels[prefix]
		if label == "" {
			label = prefix
		}
		if len(out) == 0 || out[len(out)-1].Label != label {
			out = append(out, webhooks.Group{Label: label})
		}
		out[len(out)-1].Kinds = append(out[len(out)-1].Kinds, k)
	}
	return out
}

// forbidWebhooks answers a webhooks page the caller's role may not use: the list's explanation.
func (h *Handler) forbidWebhooks(c echo.Context, err error) error {
	d := webhooks.List{Forbidden: app.ErrorMessage(err)}
	return render(c, http.StatusForbidden, webhooks.ListPage(h.webhookShell(c, "Webhooks"), d), webhooks.ListContent(d))
}

func (h *Handler) webhookFormPage(c echo.Context, status int, d webhooks.FormPage) error {
	return render(c, status, webhooks.FormPageView(h.webhookShell(c, d.Title), d), webhooks.FormContent(d))
}

// webhookNew serves GET /webhooks/new.
func (h *Handler) webhookNew(c echo.Context) error {
	if !app.Can(callerRole(c), app.ActManageWebhooks) {
		return h.forbidWebhooks(c, app.Errorf(app.EForbidden, "Your role cannot manage webhooks"))
	}
	f := components.NewForm(map[string]string{"active": "on"})
	return h.webhookFormPage(c, http.StatusOK, newWebhookForm(f, nil))
}

func newWebhookForm(f components.Form, events []string) webhooks.FormPage {
	return webhooks.FormPage{Title: "New webhook", Eyebrow: "Webhooks", Action: pathWebhooks, Cancel: pathWebhooks, Submit: "Create webhook",
		Form: f, Groups: eventGroups(), Checked: checked(events)}
}

func editWebhookForm(id string, f components.Form, events []string) webhooks.FormPage {
	return webhooks.FormPage{Title: "Edit webhook", Eyebrow: "Webhooks", Action: idURL(pathWebhooks, id, ""), Cancel: idURL(pathWebhooks, id, ""),
		Submit: "Save changes", Form: f, Groups: eventGroups(), Checked: checked(events)}
}

func checked(events []string) map[string]bool {
	m := map[string]bool{}
	for _, e := range events {
		m[e] = true
	}
	return m
}

// webhookParams reads the form: url, events (checkboxes), active (checkbox).
func webhookParams(c echo.Context) (components.Form, app.WebhookParams, []string) {
	f := components.NewForm(formValues(c, "url", "active"))
	vals, _ := c.FormParams()
	events := vals["events"]
	if events == nil {
		events = []string{}
	}
	url := f.Value("url")
	active := f.Checked("active")
	return f, app.WebhookParams{URL: &url, Events: &events, Active: &active}, events
}

// webhookRefused places the Service's validation issues beside their fields.
func webhookRefused(f *components.Form, err error) bool {
	if !refused(f, err, "url", "events") {
		return false
	}
	if f.Errors["events"] != "" {
		f.Errors["events"] = "Choose at least one event"
	}
	return true
}

// webhookCreate serves POST /webhooks: to the webhook's page (with its secret) when created, the
// form again with its errors otherwise.
func (h *Handler) webhookCreate(c echo.Context) error {
	f, p, events := webhookParams(c)
	w, err := h.svc.CreateWebhook(c.Request().Context(), p)
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		if !webhookRefused(&f, err) {
			return err
		}
		return h.webhookFormPage(c, formStatus(c, f), newWebhookForm(f, events))
	}
	return flashRedirect(c, "Webhook created. Copy its signing secret below.", string(idURL(pathWebhooks, w.ID, "")))
}

// webhookEdit serves GET /webhooks/:id/edit.
func (h *Handler) webhookEdit(c echo.Context) error {
	w, err := h.svc.GetWebhook(c.Request().Context(), c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	vals := map[string]string{"url": w.URL}
	if w.Active {
		vals["active"] = "on"
	}
	return h.webhookFormPage(c, http.StatusOK, editWebhookForm(w.ID, components.NewForm(vals), w.Events))
}

// webhookUpdate serves POST /webhooks/:id.
func (h *Handler) webhookUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	f, p, events := webhookParams(c)
	if len(events) == 0 {
		f.Errors["events"] = "Choose at least one event"
		f.Focus = "events"
		if _, err := h.svc.GetWebhook(ctx, id); err != nil {
			if app.ErrorCode(err) == app.EForbidden {
				return h.forbidWebhooks(c, err)
			}
			return pageError(err)
		}
		return h.webhookFormPage(c, formStatus(c, f), editWebhookForm(id, f, events))
	}
	w, err := h.svc.UpdateWebhook(ctx, id, p)
	switch app.ErrorCode(err) {
	case "":
	case app.EForbidden:
		return h.forbidWebhooks(c, err)
	case app.ENotFound:
		return pageError(err)
	default:
		if !webhookRefused(&f, err) {
			return err
		}
		return h.webhookFormPage(c, formStatus(c, f), editWebhookForm(id, f, events))
	}
	return flashRedirect(c, "Webhook saved.", string(idURL(pathWebhooks, w.ID, "")))
}

// webhookShow serves GET /webhooks/:id.
func (h *Handler) webhookShow(c echo.Context) error {
	w, err := h.svc.GetWebhook(c.Request().Context(), c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	return h.renderWebhook(c, w, nil)
}

func (h *Handler) renderWebhook(c echo.Context, w *app.Webhook, res *webhooks.TestResult) error {
	c.Response().Header().Set("Cache-Control", "no-store") // the page holds the secret
	d := webhooks.Detail{ID: w.ID, URL: w.URL, Active: w.Active, Events: w.Events, Created: viewerDay(c, w.CreatedAt), Secret: w.Secret,
		Edit: idURL(pathWebhooks, w.ID, suffixEdit), Delete: idURL(pathWebhooks, w.ID, suffixDelete), Rotate: idURL(pathWebhooks, w.ID, suffixRotate),
		Test: idURL(pathWebhooks, w.ID, suffixTest), Deliveries: idURL(pathWebhooks, w.ID, suffixDeliveries), Back: pathWebhooks, Result: res}
	return render(c, http.StatusOK, webhooks.DetailPage(h.webhookShell(c, "Webhook"), d), webhooks.DetailContent(d))
}

// webhookTest serves POST /webhooks/:id/test: the receiver's answer inline (htmx), or the page with it.
func (h *Handler) webhookTest(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	d, err := h.svc.TestWebhook(ctx, id)
	res := webhooks.TestResult{Log: idURL(pathWebhooks, id, suffixDeliveries)}
	switch app.ErrorCode(err) {
	case "":
		res.Status = d.Status
		if d.ResponseCode != nil {
			res.Code = strconv.Itoa(*d.ResponseCode)
		}
		if d.DurationMs != nil {
			res.Duration = strconv.Itoa(*d.DurationMs) + " ms"
		}
		if d.ResponseBody != nil {
			res.Body = prettyJSON(*d.ResponseBody)
		}
	case app.EForbidden:
		return h.forbidWebhooks(c, err)
	case app.ENotFound:
		if !isHTMX(c) {
			return pageError(err)
		}
		res.Error = app.ErrorMessage(err)
	default:
		return err
	}
	if isHTMX(c) {
		return render(c, http.StatusOK, webhooks.TestResultView(res), nil)
	}
	w, err := h.svc.GetWebhook(ctx, id)
	if err != nil {
		return pageError(err)
	}
	return h.renderWebhook(c, w, &res)
}

// webhookDeleteConfirm serves GET /webhooks/:id/delete.
func (h *Handler) webhookDeleteConfirm(c echo.Context) error {
	w, err := h.svc.GetWebhook(c.Request().Context(), c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaWebhooks, "Webhooks", webhookDeleteConfirmation(*w))
}

func webhookDeleteConfirmation(w app.Webhook) components.Confirm {
	return components.Confirm{ID: "confirm-delete-webhook", Title: "Delete this webhook?",
		Text:   "Crier stops sending events to " + w.URL + " and deletes its delivery log. Pending deliveries are dropped. This cannot be undone.",
		Button: "Delete webhook", Action: idURL(pathWebhooks, w.ID, suffixDelete), Cancel: idURL(pathWebhooks, w.ID, "")}
}

// webhookDelete serves POST /webhooks/:id/delete.
func (h *Handler) webhookDelete(c echo.Context) error {
	ctx := c.Request().Context()
	w, err := h.svc.GetWebhook(ctx, c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	if err := h.svc.DeleteWebhook(ctx, w.ID); err != nil {
		return h.confirmFailed(c, areaWebhooks, "Webhooks", webhookDeleteConfirmation(*w), err)
	}
	msg := "Webhook " + w.URL + " deleted."
	// From the list, htmx reloads the list; from the webhook's own page, the page is gone: go to the list.
	if isHTMX(c) && strings.TrimRight(currentPath(c), "/") == pathWebhooks {
		return dialogDone(c, msg, eventWebhooksChanged)
	}
	return flashRedirect(c, msg, pathWebhooks)
}

// currentPath is the path of the page an htmx request came from.
func currentPath(c echo.Context) string {
	u := c.Request().Header.Get(headerHXCurrentURL)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = "/"
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// webhookRotateConfirm serves GET /webhooks/:id/rotate.
func (h *Handler) webhookRotateConfirm(c echo.Context) error {
	w, err := h.svc.GetWebhook(c.Request().Context(), c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaWebhooks, "Webhooks", webhookRotateConfirmation(*w))
}

func webhookRotateConfirmation(w app.Webhook) components.Confirm {
	return components.Confirm{ID: "confirm-rotate-webhook", Title: "Rotate the signing secret?",
		Text:   "Crier issues a new secret and signs with it from now on. The current secret keeps signing too (a second signature) for 24 hours: update your receiver within that window.",
		Button: "Rotate secret", Action: idURL(pathWebhooks, w.ID, suffixRotate), Cancel: idURL(pathWebhooks, w.ID, ""), Icon: "key"}
}

// webhookRotate serves POST /webhooks/:id/rotate: back to the webhook's page, which shows the new secret.
func (h *Handler) webhookRotate(c echo.Context) error {
	ctx := c.Request().Context()
	w, err := h.svc.GetWebhook(ctx, c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	if _, err := h.svc.RotateWebhookSecret(ctx, w.ID); err != nil {
		return h.confirmFailed(c, areaWebhooks, "Webhooks", webhookRotateConfirmation(*w), err)
	}
	return flashRedirect(c, "New secret issued. The previous one keeps signing for 24 hours.", string(idURL(pathWebhooks, w.ID, "")))
}

// webhookDeliveries serves GET /webhooks/:id/deliveries?status=&page=.
func (h *Handler) webhookDeliveries(c echo.Context) error {
	ctx := c.Request().Context()
	w, err := h.svc.GetWebhook(ctx, c.Param("id"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	status := strings.ToUpper(c.QueryParam("status"))
	if status != app.DeliveryPending && status != app.DeliverySuccess && status != app.DeliveryFailed {
		status = ""
	}
	n := pageNumber(c)
	list, total, err := h.svc.ListWebhookDeliveries(ctx, w.ID, status, servicePage(n, webhooksPageSize))
	if err != nil {
		return pageError(err)
	}
	base := string(idURL(pathWebhooks, w.ID, suffixDeliveries))
	d := webhooks.Deliveries{WebhookURL: w.URL, Back: idURL(pathWebhooks, w.ID, ""), Status: status,
		Self: withQuery(base, "status", strings.ToLower(status), "page", strconv.Itoa(n))}
	for _, f := range []struct{ label, value string }{{"All", ""}, {"Delivered", app.DeliverySuccess}, {"Failed", app.DeliveryFailed}, {"Pending", app.DeliveryPending}} {
		d.Filters = append(d.Filters, webhooks.Filter{Label: f.label, Value: f.value, Href: withQuery(base, "status", strings.ToLower(f.value)), Current: f.value == status})
	}
	for _, x := range list {
		d.Rows = append(d.Rows, h.deliveryRow(c, w.ID, x))
	}
	d.Pager = components.NewPager(n, webhooksPageSize, total, "delivery/deliveries", "deliveries", func(p int) templ.SafeURL {
		return withQuery(base, "status", strings.ToLower(status), "page", strconv.Itoa(p))
	})
	if hxTarget(c) == "deliveries" {
		return render(c, http.StatusOK, webhooks.DeliveriesCard(d), nil)
	}
	return render(c, http.StatusOK, webhooks.DeliveriesPage(h.webhookShell(c, "Deliveries"), d), webhooks.DeliveriesContent(d))
}

func (h *Handler) deliveryRow(c echo.Context, webhookID string, x app.WebhookDelivery) webhooks.Delivery {
	r := webhooks.Delivery{ID: x.ID, Event: x.Event, EventID: x.EventID, Attempt: x.Attempt, Status: x.Status, At: viewerMoment(c, x.CreatedAt),
		Resend: templ.SafeURL(string(idURL(pathWebhooks, webhookID, suffixDeliveries)) + "/" + x.ID + suffixResend)}
	if x.ResponseCode != nil {
		r.Code = strconv.Itoa(*x.ResponseCode)
	}
	if x.DurationMs != nil {
		r.Duration = strconv.Itoa(*x.DurationMs) + " ms"
	}
	if x.NextAttemptAt != nil && x.Status == app.DeliveryPending {
		r.Next = viewerMoment(c, *x.NextAttemptAt)
	}
	if x.ResponseBody != nil {
		r.Response = prettyJSON(*x.ResponseBody)
	}
	if b, err := json.MarshalIndent(x.Payload, "", "  "); err == nil {
		r.Payload = string(b)
	}
	return r
}

// webhookResend serves POST /webhooks/:id/deliveries/:delivery/resend: the row again, open, with
// the new answer (htmx), or back to the log.
func (h *Handler) webhookResend(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	d, err := h.svc.ResendWebhookDelivery(ctx, id, c.Param("delivery"))
	if app.ErrorCode(err) == app.EForbidden {
		return h.forbidWebhooks(c, err)
	}
	if err != nil {
		return pageError(err)
	}
	msg := "Sent again: " + webhooks.StatusLabel(d.Status)
	if d.ResponseCode != nil {
		msg += ", HTTP " + strconv.Itoa(*d.ResponseCode)
	}
	msg += "."
	if isHTMX(c) {
		r := h.deliveryRow(c, id, *d)
		r.Flash, r.Open = msg, true
		return render(c, http.StatusOK, webhooks.DeliveryRow(r), nil)
	}
	if err := addFlash(c, components.FlashSuccess, msg); err != nil {
		return err
	}
	return redirect(c, string(idURL(pathWebhooks, id, suffixDeliveries)))
}

// prettyJSON indents s when it is JSON, else answers it as it is.
func prettyJSON(s string) string {
	var buf bytes.Buffer
	if json.Valid([]byte(s)) && json.Indent(&buf, []byte(s), "", "  ") == nil {
		return buf.String()
	}
	return s
}
