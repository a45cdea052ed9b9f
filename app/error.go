package app

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies an Error. Transports map each code to a status once (api: JSON body, web: HTML page).
type Code string

const (
	EInvalid        Code = "invalid"         // 400: bad input; Issues say where
	EUnauthorized   Code = "unauthorized"    // 401: missing or invalid credentials
	EForbidden      Code = "forbidden"       // 403: role or plan limit
	ENotFound       Code = "not_found"       // 404: absent, or another tenant's
	EConflict       Code = "conflict"        // 409
	ERateLimited    Code = "rate_limited"    // 429
	EInternal       Code = "internal"        // 500: a bug or an outage; message is generic
	ENotImplemented Code = "not_implemented" // 501: the operation's capability has not landed
	ENetwork        Code = "network"         // 502: a social network failed
	EUnavailable    Code = "unavailable"     // 503: overloaded, or the database refuses connections; retry
)

// Issue is one validation problem, in the zod shape the API promises: code, message and path.
// The other fields hold what the message says as data, for pages that word it their own way;
// they stay out of the API's body (json:"-") and are set only where the issue is built by the
// helpers below.
type Issue struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    []any  `json:"path"`

	Type       string  `json:"-"` // too_small, too_big: what was measured ("string", "array", "number")
	Minimum    float64 `json:"-"` // too_small: the bound
	Maximum    float64 `json:"-"` // too_big: the bound
	Inclusive  bool    `json:"-"` // too_small, too_big: the bound itself is allowed
	Exact      bool    `json:"-"` // too_small, too_big: the length must be exactly the bound
	Validation string  `json:"-"` // invalid_string: the check that failed ("email", "url")

	// A network's media rule (post_check.go), so the composer words it in plain language.
	Rule  string    `json:"-"` // RuleKind, RuleFormat, … ("" for other issues)
	Media string    `json:"-"` // the kind of upload concerned ("image", "video", "GIF", "document")
	Want  string    `json:"-"` // what the network takes, in words ("JPEG", "8 MB", "4:5 to 1.91:1")
	Got   string    `json:"-"` // what this upload or post has ("PNG", "12 MB", "3")
	Fix   *IssueFix `json:"-"` // a change of the network's own fields that resolves it, when one is cheap
}

// IssueFix is a one-click change a network offers for an issue: set its payload field Key to Value
// ("on" for a flag), said as Label ("Post as photos").
type IssueFix struct {
	Key, Value, Label string
}

// StringMin is zod's too_small issue of a string shorter than n characters.
func StringMin(n int, path ...any) Issue {
	return Issue{Code: IssueTooSmall, Message: fmt.Sprintf("String must contain at least %d character(s)", n), Path: path,
		Type: "string", Minimum: float64(n), Inclusive: true}
}

// StringMax is zod's too_big issue of a string longer than n characters.
func StringMax(n int, path ...any) Issue {
	return Issue{Code: IssueTooBig, Message: fmt.Sprintf("String must contain at most %d character(s)", n), Path: path,
		Type: "string", Maximum: float64(n), Inclusive: true}
}

// InvalidString is zod's invalid_string issue of a failed check, as in "Invalid email".
func InvalidString(validation string, path ...any) Issue {
	return Issue{Code: IssueInvalidString, Message: "Invalid " + validation, Path: path, Validation: validation}
}

// Zod issue codes used by Crier (the spec lists all 17).
const (
	IssueInvalidType      = "invalid_type"
	IssueInvalidEnumValue = "invalid_enum_value"
	IssueUnrecognizedKeys = "unrecognized_keys"
	IssueInvalidString    = "invalid_string"
	IssueInvalidDate      = "invalid_date"
	IssueTooSmall         = "too_small"
	IssueTooBig           = "too_big"
	IssueNotMultipleOf    = "not_multiple_of"
	IssueInvalidUnion     = "invalid_union"
	IssueCustom           = "custom"
)

// Error is the one error type of Crier's services. Anything else reaching a transport is a bug
// and is reported as EInternal without its details.
type Error struct {
	Code    Code
	Message string
	Issues  []Issue
	Err     error // the cause, for logs only
	// RetryAfter is when to try again (ERateLimited, EUnavailable): the Retry-After header.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid builds a 400 error carrying issues.
func Invalid(message string, issues ...Issue) *Error {
	return &Error{Code: EInvalid, Message: message, Issues: issues}
}

// NotFound builds a 404 error for a kind of thing ("Team", "Post").
func NotFound(what string) *Error {
	return &Error{Code: ENotFound, Message: what + " not found"}
}

// ErrorCode returns the code of err, EInternal for foreign errors and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if unavailable(err) {
		return EUnavailable
	}
	return EInternal
}

// ErrorMessage returns the user-facing message of err; foreign errors get a generic one.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return e.Message
	}
	if unavailable(err) {
		return UnavailableMessage
	}
	return "Internal server error"
}

// ErrorIssues returns the issues of err, if any.
func ErrorIssues(err error) []Issue {
	var e *Error
	if errors.As(err, &e) {
		return e.Issues
	}
	return nil
}
