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

// How pages answer the Service's errors. A refusal is the person's to act on (what they sent,
// their role, the record's state, a record gone): pages say it in place, beside a field or in the
// form, dialog or status line. Anything else is Crier's failure and becomes the error page
// (ErrorPage, through the server's error handler).

// refusal reports whether err is a refusal a page says in place.
func refusal(err error) bool {
	switch app.ErrorCode(err) {
	case app.EInvalid, app.EForbidden, app.EConflict, app.ENotFound:
		return true
	}
	return false
}

// refusalOrLimit is refusal or a rate limit (ERateLimited), which forms and uploads also say in
// place (confirmations and the calendar have not said it so far).
func refusalOrLimit(err error) bool {
	return refusal(err) || app.ErrorCode(err) == app.ERateLimited
}

// refusedStatus is the status of a page saying a refusal: 403 when the role may not, else 422.
func refusedStatus(err error) int {
	if app.ErrorCode(err) == app.EForbidden {
		return http.StatusForbidden
	}
	return http.StatusUnprocessableEntity
}
