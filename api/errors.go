package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"

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
	app.EUnavailable:    http.StatusServiceUnavailable,
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
	http.StatusServiceUnavailable:    app.EUnavailable,
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
	if status >= 500 && status != http.StatusNotImplemented && !Shed(err) {
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

// Shed reports whether err is a refusal Crier chose (load shedding), which is not logged: under a
// flood a line per refused request would add to the load.
func Shed(err error) bool {
	var e *app.Error
	return errors.As(err, &e) && e.Code == app.EUnavailable
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
	if he.Code == http.StatusBadRequest {
		return badRequest(he, msg)
	}
	if msg == "" {
		msg = http.StatusText(he.Code)
	}
	return &app.Error{Code: code, Message: msg, Err: he}
}

// badRequest words a 400 of the binding code (the generated parameter binding, Echo's body binder)
// in the spec's body, with an issue and without Go's type names, values or byte offsets. The
// validator runs first and rejects most such input; these are what it cannot see, such as a body
// number beyond the Go type the handler binds.
func badRequest(he *echo.HTTPError, msg string) error {
	invalid := func(is app.Issue) error {
		return &app.Error{Code: app.EInvalid, Message: summary([]app.Issue{is}), Err: he, Issues: []app.Issue{is}}
	}
	if name, ok := strings.CutPrefix(msg, "Invalid format for parameter "); ok {
		name, _, _ = strings.Cut(name, ":")
		var ne *strconv.NumError
		if errors.As(he.Internal, &ne) && ne.Err == strconv.ErrRange || strings.Contains(msg, "overflows destination") {
			return invalid(app.Issue{Code: app.IssueTooBig, Message: "Number is out of range", Path: []any{name}})
		}
		return invalid(app.Issue{Code: app.IssueCustom, Message: "Invalid input", Path: []any{name}})
	}
	var ute *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(he.Internal, &ute):
		var path []any
		if ute.Field != "" {
			for _, seg := range strings.Split(ute.Field, ".") {
				if n, err := strconv.Atoi(seg); err == nil && n >= 0 {
					path = append(path, n)
				} else {
					path = append(path, seg)
				}
			}
		}
		if path == nil {
			path = []any{}
		}
		expected := goTypeName(ute.Type)
		got, _, _ := strings.Cut(ute.Value, " ")
		if got == "number" && expected == "number" {
			return invalid(app.Issue{Code: app.IssueTooBig, Message: "Number is out of range", Path: path})
		}
		if got == "bool" {
			got = "boolean"
		}
		return invalid(app.Issue{Code: app.IssueInvalidType, Message: fmt.Sprintf("Expected %s, received %s", expected, got), Path: path})
	case errors.As(he.Internal, &se):
		return invalid(app.Issue{Code: app.IssueCustom, Message: "Malformed JSON: " + jsonReason(se), Path: []any{}})
	case msg == "" || he.Internal != nil && msg == he.Internal.Error() && app.ErrorCode(he.Internal) != app.EInvalid:
		// Another decoding failure, answered in its own words, which would name Go types.
		return invalid(app.Issue{Code: app.IssueCustom, Message: "Invalid input", Path: []any{}})
	}
	// A message chosen by the code that refused ("The form could not be read") stays.
	issues := app.ErrorIssues(he.Internal)
	if len(issues) == 0 {
		issues = []app.Issue{{Code: app.IssueCustom, Message: msg, Path: []any{}}}
	}
	return &app.Error{Code: app.EInvalid, Message: msg, Err: he, Issues: issues}
}

// goTypeName is zod's name for the JSON a Go type decodes from.
func goTypeName(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "value"
}
