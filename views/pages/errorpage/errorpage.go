// Package errorpage holds the full-page errors: NotFound (404), ServerError (5xx, with the request
// id for support) and Generic (any other status). They use the plain layout, so they render even
// where the dashboard's session and navigation are not available.
package errorpage

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
)

// Data describes an error.
type Data struct {
	Status    int
	Message   string // shown on generic errors; 404 and 5xx use their own words
	RequestID string
	Home      templ.SafeURL
}

func code(d Data) string { return strconv.Itoa(d.Status) }

func genericTitle(d Data) string {
	if t := http.StatusText(d.Status); t != "" {
		return t
	}
	return "Something went wrong"
}

func genericMessage(d Data) string {
	if d.Message != "" && d.Message != http.StatusText(d.Status) {
		return d.Message
	}
	switch {
	case d.Status == http.StatusForbidden:
		return "You do not have access to this page, or the form expired. Reload the page and try again."
	case d.Status == http.StatusUnauthorized:
		return "You need to sign in to see this page."
	case d.Status == http.StatusMethodNotAllowed:
		return "This page cannot be used that way."
	case d.Status == http.StatusTooManyRequests:
		return "Too many requests in a short time. Wait a moment, then try again."
	}
	return "The request could not be completed."
}
