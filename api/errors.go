package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// ErrorBody is the spec's error body: statusCode, message and, on validation failures, issues.
type ErrorBody struct {
	StatusCode int         `json:"statusCode"`
	Message    string      `json:"message"`
	Issues     []app.Issue `json:"issues,omitempty"`
}

var statusByCode = map[app.Code]int{
	app.EInvalid:        http.StatusBadRequest,
	app.EUnauthorized:   http.StatusUnauthorized,
	app.EForbidden:      http.StatusForbidden,
	app.ENotFound:       http.StatusNotFound,
	app.EConflict:       http.StatusConflict,
	app.ERateLimited:    http.StatusTooManyRequests,
	app.EInternal:       http.StatusInternalServerError,
	app.ENotImplemented: http.StatusNotImplemented,
	app.ENetwork:        http.StatusBadGateway,
}

var codeByStatus = map[int]app.Code{
	http.StatusBadRequest:            app.EInvalid,
	http.StatusUnauthorized:          app.EUnauthorized,
	http.StatusForbidden:             app.EForbidden,
	http.StatusNotFound:              app.ENotFound,
	http.StatusMethodNotAllowed:      app.ENotFound,
	http.StatusConflict:              app.EConflict,
	http.StatusRequestEntityTooLarge: app.EInvalid,
	http.StatusTooManyRequests:       app.ERateLimited,
}

// Body turns any error into the status and body the API answers. Errors that are not *app.Error
// (bugs, outages) become a 500 whose message carries only the request id.
func Body(err error, requestID string) (int, ErrorBody) {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		err = fromHTTPError(he)
	}
	code := app.ErrorCode(err)
	status := statusByCode[code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	body := ErrorBody{StatusCode: status, Message: app.ErrorMessage(err), Issues: app.ErrorIssues(err)}
	if status == http.StatusInternalServerError {
		body.Message = fmt.Sprintf("Internal server error (request id %s)", requestID)
	}
	return status, body
}

// WriteError answers err in the error body, logging what the client does not see.
func WriteError(c echo.Context, err error, log *slog.Logger) {
	reqID := c.Response().Header().Get(echo.HeaderXRequestID)
	status, body := Body(err, reqID)
	if status >= 500 && status != http.StatusNotImplemented {
		log.ErrorContext(c.Request().Context(), "api error", "err", err, "status", status,
			"method", c.Request().Method, "path", c.Request().URL.Path, "request_id", reqID)
	}
	if c.Response().Committed {
		return
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, body)
}

func fromHTTPError(he *echo.HTTPError) error {
	code, ok := codeByStatus[he.Code]
	if !ok {
		code = app.EInternal
	}
	msg, _ := he.Message.(string)
	switch he.Code {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return &app.Error{Code: code, Message: "Route not found", Err: he}
	case http.StatusRequestEntityTooLarge:
		return &app.Error{Code: code, Message: "Request body too large", Err: he,
			Issues: []app.Issue{{Code: app.IssueTooBig, Message: "Request body too large", Path: []any{}}}}
	}
	if msg == "" {
		msg = http.StatusText(he.Code)
	}
	return &app.Error{Code: code, Message: msg, Err: he}
}
