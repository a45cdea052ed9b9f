// Package settings holds the organization's settings pages: general settings with portal branding
// and monthly usage, members and invitations, API keys and the audit log, under one set of tabs.
//
// It also holds the pieces the organization pages share (the teams package uses them too): Form
// (what was typed and each field's error), Pager, the confirmation dialog and its full-page
// fallback, and the slot dialogs open in.
//
// Pages take plain values; web turns the Service's records into them and builds every URL.
package settings

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// DialogSlot is the id of the element confirmation dialogs are swapped into (htmx); a page that
// offers dialogs renders DialogHost once.
const DialogSlot = "org-dialog"

// Form is the state of a form: what was typed, each field's error, a problem that belongs to no
// single field (Message, e.g. a plan limit or a role the Service refused) and a confirmation
// (Saved) shown after an htmx save.
type Form struct {
	Values  map[string]string
	Errors  map[string]string
	Message string
	Saved   string
	Focus   string // the field that takes the focus: the first one with an error
}

// NewForm is a form holding values (nil: empty).
func NewForm(values map[string]string) Form {
	if values == nil {
		values = map[string]string{}
	}
	return Form{Values: values, Errors: map[string]string{}}
}

// Value is what was typed in name.
func (f Form) Value(name string) string { return f.Values[name] }

// Error is name's error, or "".
func (f Form) Error(name string) string { return f.Errors[name] }

// Checked reports whether the checkbox name is on.
func (f Form) Checked(name string) bool {
	v := f.Values[name]
	return v == "on" || v == "true"
}

// Invalid reports whether the form has an error.
func (f Form) Invalid() bool { return len(f.Errors) > 0 || f.Message != "" }

// Field fills p from the form: id (from the name, prefixed), value and error. The first field with
// an error takes the focus after a save.
func (f Form) Field(prefix string, p components.FieldProps) components.FieldProps {
	if p.ID == "" {
		p.ID = prefix + "-" + p.Name
	}
	p.Value = f.Value(p.Name)
	p.Error = f.Error(p.Name)
	return p
}

// Pager is offset paging as pages: "Showing 11–20 of 43 teams" with previous and next links,
// which htmx follows into Target (the list's id) and pushes into the history.
type Pager struct {
	Page, Pages, Total, From, To int
	Noun                         string // plural: "teams"
	One                          string // singular: "team"
	Prev, Next                   templ.SafeURL
	Target                       string
}

// NewPager computes a pager for page (1-based) of size over total items; url builds a page's URL.
// noun is "singular/plural" ("team/teams").
func NewPager(page, size, total int, noun, target string, url func(page int) templ.SafeURL) Pager {
	one, many, _ := strings.Cut(noun, "/")
	p := Pager{Page: page, Total: total, One: one, Noun: many, Target: target, Pages: max((total+size-1)/size, 1)}
	if total > 0 {
		p.From = (page-1)*size + 1
		p.To = min(page*size, total)
	}
	if page > 1 {
		p.Prev = url(min(page-1, p.Pages))
	}
	if page < p.Pages {
		p.Next = url(page + 1)
	}
	return p
}

func (p Pager) summary() string {
	switch {
	case p.Total == 0:
		return "No " + p.Noun
	case p.Total == 1:
		return "1 " + p.One
	case p.Pages == 1:
		return strconv.Itoa(p.Total) + " " + p.Noun
	}
	return "Showing " + strconv.Itoa(p.From) + "–" + strconv.Itoa(p.To) + " of " + strconv.Itoa(p.Total) + " " + p.Noun
}

// Confirm describes a destructive action to confirm: as a modal dialog (htmx) or a page.
type Confirm struct {
	ID     string // unique: the dialog's id, headings derive from it
	Title  string // "Delete team “Acme”?"
	Text   string // what happens, plainly
	Button string // "Delete team"
	Action templ.SafeURL
	Cancel templ.SafeURL // where the full page's Cancel goes
	Error  string        // the Service refused (e.g. the last OWNER)
	Icon   string        // default "alert"
}

func (c Confirm) icon() string {
	if c.Icon == "" {
		return "alert"
	}
	return c.Icon
}

// Tab is one settings tab.
type Tab struct {
	ID    string
	Label string
	Href  templ.SafeURL
	Icon  string
}

// Frame is what every settings page shares: the organization, the tabs the role may open and the
// active one.
type Frame struct {
	OrgName string
	Plan    string
	Tabs    []Tab
	Active  string
}

// Tab IDs.
const (
	TabGeneral  = "general"
	TabMembers  = "members"
	TabAPIKeys  = "api-keys"
	TabAuditLog = "audit-log"
)

// Forbidden is the body of a settings tab the role may not open (the Service answered 403).
type Forbidden struct {
	Frame   Frame
	Message string
	Back    templ.SafeURL
}

// ConfirmPageData is a confirmation as a full page (no JavaScript, or a direct visit).
type ConfirmPageData struct {
	Confirm Confirm
	Eyebrow string
}

// autofocusIf focuses name when it is the form's first invalid field (htmx honours autofocus in
// swapped content too).
func autofocusIf(f Form, name string) templ.Attributes {
	if f.Focus != "" && f.Focus == name {
		return templ.Attributes{"autofocus": true}
	}
	return nil
}

// mergeAttrs merges attribute sets; later ones win.
func mergeAttrs(sets ...templ.Attributes) templ.Attributes {
	out := templ.Attributes{}
	for _, s := range sets {
		for k, v := range s {
			out[k] = v
		}
	}
	return out
}

// Initials are up to two letters for a monogram ("Acme Studio" → "AS").
func Initials(name string) string {
	var out []rune
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		if len(r) > 0 && (unicode.IsLetter(r[0]) || unicode.IsDigit(r[0])) {
			out = append(out, unicode.ToUpper(r[0]))
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return string(out)
}

func initials(name string) string { return Initials(name) }

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// swatchValue is a colour input's value: v when it is #rrggbb, else def.
func swatchValue(v, def string) string {
	if hexColor.MatchString(v) {
		return strings.ToLower(v)
	}
	return def
}

// RoleLabel says a role in words ("Owner").
func RoleLabel(role string) string {
	switch role {
	case "OWNER":
		return "Owner"
	case "ADMIN":
		return "Admin"
	case "MEMBER":
		return "Member"
	}
	return role
}

func roleLabel(role string) string { return RoleLabel(role) }

func roleTone(role string) components.Tone {
	switch role {
	case "OWNER":
		return components.ToneAccent
	case "ADMIN":
		return components.ToneInfo
	}
	return components.ToneNeutral
}
