package web

import (
	"fmt"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/pages/account"
)

// The account pages keep account.Form rather than components.Form: its fields have a display order
// (the first invalid one takes the focus), passwords are never echoed, and its issues read
// differently ("This field is required", issueMessage); folding them together would change pages.

// passwordFields are never echoed back into a re-rendered form.
var secretFields = map[string]bool{"password": true, "confirmPassword": true, "currentPassword": true, "newPassword": true}

// bindForm reads the named fields of a posted form, in display order (what was typed is kept,
// passwords aside, for a re-render).
func bindForm(c echo.Context, fields ...string) (account.Form, map[string]string) {
	f := account.NewForm(fields...)
	raw := make(map[string]string, len(fields))
	for _, name := range fields {
		v := c.FormValue(name)
		raw[name] = v
		if !secretFields[name] {
			f.Values[name] = v
		}
	}
	return f, raw
}

// formError puts a Service error on the form: each issue beside the field its path names, issues
// about no field of the form (and errors without issues) in the form's message. Errors that are not
// the user's to fix (internal ones) are returned, to become the error page.
func formError(f *account.Form, err error) error {
	code := app.ErrorCode(err)
	if code == app.EInternal || code == "" || code == app.ERateLimited || code == app.EUnavailable {
		return err // a page of its own, with its status and Retry-After
	}
	issues := app.ErrorIssues(err)
	placed := false
	for _, is := range issues {
		name := ""
		if len(is.Path) > 0 {
			name = fmt.Sprint(is.Path[0])
		}
		if inForm(f, name) {
			if f.Errors[name] == "" {
				f.Errors[name] = issueMessage(is)
			}
			placed = true
			continue
		}
		if f.Message == "" {
			f.Message = issueMessage(is)
			placed = true
		}
	}
	if !placed {
		f.Message = app.ErrorMessage(err)
	}
	return nil
}

// fieldError sets one field's error (checks the handler makes before the Service, e.g. that a
// password was typed the same twice).
func fieldError(f *account.Form, name, message string) {
	if f.Errors[name] == "" {
		f.Errors[name] = message
	}
}

func inForm(f *account.Form, name string) bool {
	for _, n := range f.Fields {
		if n == name {
			return true
		}
	}
	return false
}

// issueMessage says an issue the way a form does, built from its fields (the Service's message
// speaks the API's zod dialect).
func issueMessage(is app.Issue) string {
	switch {
	case is.Code == app.IssueTooSmall && is.Type == "string" && !is.Exact && is.Minimum <= 1:
		return "This field is required"
	case is.Code == app.IssueTooSmall && is.Type == "string" && !is.Exact:
		return fmt.Sprintf("Use at least %d characters", int(is.Minimum))
	case is.Code == app.IssueTooBig && is.Type == "string" && !is.Exact:
		return fmt.Sprintf("Use at most %d characters", int(is.Maximum))
	case is.Code == app.IssueInvalidString && is.Validation == "email":
		return "Enter a valid email address, like name@company.com"
	case is.Message == "Required":
		return "This field is required"
	}
	return strings.TrimSuffix(is.Message, ".")
}

// renderForm answers a form: an invalid form gets 422 as a full page (browsers show it like any
// page) and 200 as an htmx fragment (htmx does not swap 4xx answers by default).
func renderForm(c echo.Context, invalid bool, full, fragment templ.Component) error {
	return render(c, refusedFormStatus(c, invalid), full, fragment)
}
