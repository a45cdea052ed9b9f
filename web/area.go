package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	areaview "github.com/crier/crier/views/pages/area"
)

// showArea serves the page of an area whose capability has not landed: what it will do, honestly.
func (h *Handler) showArea(a area) echo.HandlerFunc {
	d := areaview.Data{
		ID: a.ID, Name: a.Label, Icon: a.Icon, Summary: a.Summary, Plans: a.Plans,
		Home: templ.SafeURL(pathHome), Docs: templ.SafeURL(pathDocs),
	}
	return func(c echo.Context) error {
		return render(c, http.StatusOK, areaview.Page(h.shell(c, a.ID, a.Label), d), areaview.Content(d))
	}
}
