package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/errorpage"
)

// ErrorPage answers an error on a dashboard (non-/api) path with an HTML page: the 404 page, the
// server-error page for 5xx (with requestID for support) or a generic page showing message. The
// server's central HTTP error handler calls it; it needs no session, so it works on any path.
func ErrorPage(c echo.Context, status int, message string, requestID string) error {
	d := errorpage.Data{Status: status, Message: message, RequestID: requestID, Home: templ.SafeURL(pathHome)}
	var full, fragment templ.Component
	var p layout.Page
	switch {
	case status == http.StatusNotFound:
		d.RequestID = "" // nothing for support to look up
		p = page("Page not found")
		full, fragment = errorpage.NotFound(p, d), errorpage.NotFoundContent(d)
	case status >= http.StatusInternalServerError:
		p = page("Something went wrong")
		full, fragment = errorpage.ServerError(p, d), errorpage.ServerErrorContent(d)
	default:
		title := http.StatusText(status)
		if title == "" {
			title = "Error"
		}
		p = page(title)
		full, fragment = errorpage.Generic(p, d), errorpage.GenericContent(d)
	}
	return render(c, status, full, fragment)
}

// pageError turns a Service error of a page's main record into the error page: another
// organization's id, or one that is not an id, is 404 (never 403: nothing leaks).
func pageError(err error) error {
	switch app.ErrorCode(err) {
	case app.ENotFound:
		return echo.NewHTTPError(http.StatusNotFound, app.ErrorMessage(err)).SetInternal(err)
	case app.EForbidden:
		return echo.NewHTTPError(http.StatusForbidden, app.ErrorMessage(err)).SetInternal(err)
	case app.EInvalid:
		return echo.NewHTTPError(http.StatusBadRequest, app.ErrorMessage(err)).SetInternal(err)
	}
	return err
}
