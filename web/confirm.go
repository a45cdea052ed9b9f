package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
)

// Confirmations of destructive actions: a dialog to htmx, a page otherwise.

// confirm answers a confirmation: the dialog to htmx, the page otherwise.
func (h *Handler) confirm(c echo.Context, area, eyebrow string, cf components.Confirm) error {
	if isHTMX(c) {
		return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
	}
	d := components.ConfirmPageData{Confirm: cf, Eyebrow: eyebrow}
	return render(c, http.StatusOK, layout.ConfirmPage(h.orgShell(c, area, cf.Title), d), components.ConfirmContent(d))
}

// confirmFailed answers a confirmed action the Service refused: the dialog (htmx) or the page
// again, with the reason. Errors nobody can act on are returned as they are.
func (h *Handler) confirmFailed(c echo.Context, area, eyebrow string, cf components.Confirm, err error) error {
	if !refusal(err) {
		return err
	}
	cf.Error = app.ErrorMessage(err)
	if isHTMX(c) {
		return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
	}
	status := refusedStatus(err)
	if app.ErrorCode(err) == app.ENotFound {
		status = http.StatusNotFound // the record went while the page was open
	}
	d := components.ConfirmPageData{Confirm: cf, Eyebrow: eyebrow}
	return render(c, status, layout.ConfirmPage(h.orgShell(c, area, cf.Title), d), components.ConfirmContent(d))
}
