// Package webhooks holds the webhooks pages: the list, the create and edit form (event kinds as
// checkboxes grouped as in the spec), a webhook's page (secret with copy and rotate, send test)
// and its deliveries log (status filter, payload and response viewer, resend).
//
// Pages take plain values; web turns the Service's records into them and builds every URL. Forms,
// pagers and confirmation dialogs are the settings package's.
package webhooks

import (
	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// List is the webhooks page.
type List struct {
	Rows      []Row
	Pager     components.Pager
	Self      templ.SafeURL // the list, reloaded after a deletion
	New       templ.SafeURL // the create form; "" when the role may not manage webhooks
	Forbidden string        // the Service refused the role (MEMBER): the message
}

// Row is one webhook of the list.
type Row struct {
	ID         string
	URL        string
	Events     int
	Active     bool
	LastStatus string // SUCCESS, FAILED, PENDING or "" (never delivered)
	LastCode   string
	LastAt     string
	Href       templ.SafeURL
	Edit       templ.SafeURL
	Delete     templ.SafeURL
}

// Group is a set of event kinds under one heading ("Posts").
type Group struct {
	Label string
	Kinds []string
}

// FormPage is the create or edit form.
type FormPage struct {
	Title   string
	Eyebrow string
	Action  templ.SafeURL
	Cancel  templ.SafeURL
	Submit  string
	Form    components.Form // "url", "active"; errors for "url" and "events"
	Groups  []Group
	Checked map[string]bool
}

// Detail is a webhook's page.
type Detail struct {
	ID         string
	URL        string
	Active     bool
	Events     []string
	Created    string
	Secret     string
	Edit       templ.SafeURL
	Delete     templ.SafeURL
	Rotate     templ.SafeURL
	Test       templ.SafeURL
	Deliveries templ.SafeURL
	Back       templ.SafeURL
	Result     *TestResult
}

// TestResult is the answer of a test send.
type TestResult struct {
	Status   string // SUCCESS or FAILED
	Code     string // "200", or "" when no answer came
	Duration string // "12 ms"
	Body     string
	Error    string // the Service refused (e.g. not found)
	Log      templ.SafeURL
}

// Deliveries is a webhook's deliveries log.
type Deliveries struct {
	WebhookURL string
	Back       templ.SafeURL
	Self       templ.SafeURL
	Status     string // the filter: "", PENDING, SUCCESS, FAILED
	Filters    []Filter
	Rows       []Delivery
	Pager      components.Pager
}

// Filter is one status filter link.
type Filter struct {
	Label   string
	Value   string
	Href    templ.SafeURL
	Current bool
}

// Delivery is one row of the log.
type Delivery struct {
	ID       string
	Event    string
	EventID  string
	Attempt  int
	Status   string
	Code     string
	Duration string
	At       string
	Next     string
	Payload  string // formatted JSON
	Response string // formatted when JSON
	Resend   templ.SafeURL
	Flash    string // after a resend
	Open     bool   // the details start open
}

// StatusTone colours a delivery status.
func StatusTone(status string) components.Tone {
	switch status {
	case "SUCCESS":
		return components.ToneSuccess
	case "FAILED":
		return components.ToneDanger
	case "PENDING":
		return components.ToneWarning
	}
	return components.ToneNeutral
}

// StatusLabel says a delivery status in words.
func StatusLabel(status string) string {
	switch status {
	case "SUCCESS":
		return "Delivered"
	case "FAILED":
		return "Failed"
	case "PENDING":
		return "Pending"
	}
	return "Never delivered"
}

func rowID(id string) string { return "delivery-" + id }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(no response)"
	}
	return s
}

// autofocus adds autofocus to attrs when name is the form's first invalid field.
func autofocus(f components.Form, name string, attrs templ.Attributes) templ.Attributes {
	out := templ.Attributes{}
	for k, v := range attrs {
		out[k] = v
	}
	if f.Focus != "" && f.Focus == name {
		out["autofocus"] = true
	}
	return out
}
