// Package account holds the account pages: sign-up, sign-in, password reset, email verification,
// invitations, the profile, organization creation and the development mailbox.
//
// Signed-out pages share the auth frame (a centered form beside a short product pitch); signed-in
// pages (profile, new organization) render inside the dashboard shell. Every form re-renders itself
// with what was typed (passwords excepted) and each error beside its field; the first invalid field
// takes the focus (autofocus, which htmx honours after a swap too).
package account

import (
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
)

// Form is the state of a submitted (or fresh) form.
type Form struct {
	Fields  []string          // the form's field names, in display order
	Values  map[string]string // what was typed (never passwords)
	Errors  map[string]string // field name → its error
	Message string            // a problem that belongs to no single field
	Success string            // a confirmation shown above the form (htmx saves)
}

// NewForm is an empty form with fields in display order.
func NewForm(fields ...string) Form {
	return Form{Fields: fields, Values: map[string]string{}, Errors: map[string]string{}}
}

// Value is what was typed in name.
func (f Form) Value(name string) string { return f.Values[name] }

// Error is name's error, or "".
func (f Form) Error(name string) string { return f.Errors[name] }

// Invalid reports whether the form has any error.
func (f Form) Invalid() bool { return len(f.Errors) > 0 || f.Message != "" }

// focus is the first field, in display order, that has an error.
func (f Form) focus() string {
	for _, n := range f.Fields {
		if f.Errors[n] != "" {
			return n
		}
	}
	return ""
}

// field fills a FieldProps from the form: value, error, and autofocus on the first invalid field.
func (f Form) field(p components.FieldProps) components.FieldProps {
	if p.Type != "password" {
		p.Value = f.Value(p.Name)
	}
	p.Error = f.Error(p.Name)
	if p.ID == "" {
		p.ID = p.Name
	}
	if p.Name == f.focus() {
		attrs := templ.Attributes{"autofocus": true}
		for k, v := range p.Attrs {
			attrs[k] = v
		}
		p.Attrs = attrs
	}
	return p
}

// Frame is what every signed-out page needs around its card.
type Frame struct {
	Page    layout.Page
	Flashes []components.Flash
	Docs    templ.SafeURL
}

// Links are the account pages a card may point to.
type Links struct {
	Login          templ.SafeURL
	Signup         templ.SafeURL
	ForgotPassword templ.SafeURL
	Home           templ.SafeURL
}

// SignupData is the sign-up page.
type SignupData struct {
	Form   Form
	Action string
	Links  Links
}

// LoginData is the sign-in page.
type LoginData struct {
	Form   Form
	Action string
	Next   string // where to go after signing in (kept through the form)
	Links  Links
}

// ForgotData is the forgot-password page; Sent shows the confirmation instead of the form.
type ForgotData struct {
	Form   Form
	Action string
	Sent   bool
	Links  Links
}

// ResetData is the reset-password page; without a token it explains the link is incomplete.
type ResetData struct {
	Form   Form
	Action string
	Token  string
	Links  Links
}

// VerifyData is the result of following a verification link.
type VerifyData struct {
	Verified  bool
	Message   string // why verification failed
	SignedIn  bool   // show the resend button
	ResendURL string
	Links     Links
}

// InvitationData is the accept-invitation page. A nil Invitation shows Problem (a bad, used or
// expired link).
type InvitationData struct {
	Invitation *Invitation
	Problem    string
	Form       Form
	Action     string
	Token      string
	SignedInAs string // the email of another account signed in in this browser, if any
	Links      Links
}

// Invitation is what an invitation is for.
type Invitation struct {
	OrganizationName string
	Email            string
	Role             string // in words ("Admin")
	InviterName      string
	NeedsAccount     bool // ask for a first name and a password
	ExpiresAt        time.Time
}

// ProfileData is the profile page: personal details and the password form.
type ProfileData struct {
	Details        Form
	Password       Form
	Email          string
	Verified       bool
	MemberSince    time.Time
	Timezones      []TimezoneGroup
	DetailsAction  string
	PasswordAction string
}

// TimezoneGroup is an <optgroup> of the time zone select.
type TimezoneGroup struct {
	Label string
	Zones []Timezone
}

// Timezone is one IANA zone of the select.
type Timezone struct {
	Name  string // "Europe/Paris"
	Label string // "Paris (UTC+01:00)"
}

// NewOrganizationData is the create-organization page.
type NewOrganizationData struct {
	Form   Form
	Action string
	Cancel templ.SafeURL
}

// MailboxData is the development mailbox: the newest mails, and the open one.
type MailboxData struct {
	Mails   []MailSummary
	Open    *Mail // nil: none opened
	ListURL templ.SafeURL
	Home    templ.SafeURL
	Problem string // the open mail could not be found
}

// MailSummary is one line of the mailbox list.
type MailSummary struct {
	ID      string
	To      string
	Subject string
	Kind    string // in words ("Email verification")
	When    string // "2 minutes ago"
	At      time.Time
	Sent    bool // delivered through SMTP (else it only lives in the outbox)
	Href    templ.SafeURL
	Active  bool
}

// Mail is the open mail.
type Mail struct {
	ID        string
	To        string
	Subject   string
	Kind      string
	CreatedAt time.Time
	SentAt    *time.Time
	View      string // "html" or "text"
	HasHTML   bool
	HTML      string // the HTML body for the sandboxed iframe's srcdoc
	Text      []TextPart
	Links     []string
	HTMLURL   templ.SafeURL
	TextURL   templ.SafeURL
}

// TextPart is a run of a text body: plain text, or a link.
type TextPart struct {
	Text string
	Href templ.SafeURL // non-empty: a link
}

// maxLength caps what a name field takes in the browser, at the Service's maximum (app.MaxPersonName,
// app.MaxOrganizationName), which the Service enforces whatever the browser sends.
func maxLength(n int) templ.Attributes { return templ.Attributes{"maxlength": strconv.Itoa(n)} }

var (
	personNameAttrs = maxLength(app.MaxPersonName)
	orgNameAttrs    = maxLength(app.MaxOrganizationName)
)
