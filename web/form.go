package web

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
)

// Forms: binding what was typed, keeping it, and putting the Service's refusals beside their
// fields (components.Form is what the pages render).

// formStatus is the status of a re-rendered form: htmx only swaps 2xx answers, so it gets 200;
// a full page says 422 when the form was refused.
func formStatus(c echo.Context, f components.Form) int { return refusedFormStatus(c, f.Invalid()) }

// refusedFormStatus is formStatus for any form (the account pages' too).
func refusedFormStatus(c echo.Context, invalid bool) int {
	if invalid && !isHTMX(c) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

// formValues reads the named fields of a submitted form.
func formValues(c echo.Context, names ...string) map[string]string {
	out := make(map[string]string, len(names))
	for _, n := range names {
		out[n] = c.FormValue(n)
	}
	return out
}

// refused fills f from a Service error the user can act on: each validation issue goes beside its
// field (issues on other fields, and refusals such as a plan limit or a role, go in the form's
// message). It reports false for any other error, which the handler returns as is.
func refused(f *components.Form, err error, fields ...string) bool {
	if app.ErrorCode(err) == app.EInvalid {
		for _, is := range app.ErrorIssues(err) {
			name := ""
			if len(is.Path) > 0 {
				name = fmt.Sprint(is.Path[0])
			}
			if !hasString(fields, name) {
				f.Message = app.ErrorMessage(err)
				continue
			}
			if f.Errors[name] == "" {
				f.Errors[name] = issueText(is)
			}
			if f.Focus == "" {
				f.Focus = name
			}
		}
		if len(f.Errors) == 0 && f.Message == "" {
			f.Message = app.ErrorMessage(err)
		}
		return true
	}
	if refusalOrLimit(err) {
		f.Message = app.ErrorMessage(err)
		return true
	}
	return false
}

func hasString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// flashRedirect ends a successful form post without htmx: a flash for the next page, then See Other.
func flashRedirect(c echo.Context, flash, to string) error {
	if err := addFlash(c, components.FlashSuccess, flash); err != nil {
		return err
	}
	return redirect(c, to)
}

// pointerTo is a pointer to v (the Service's optional parameters).
func pointerTo[T any](v T) *T { return &v }
