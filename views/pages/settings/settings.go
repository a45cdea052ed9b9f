// Package settings holds the organization's settings pages: general settings with portal branding
// and monthly usage, members and invitations, API keys and the audit log, under one set of tabs.
//
// The pieces pages share (Form, Pager, the confirmation dialog) are in views/components.
//
// Pages take plain values; web turns the Service's records into them and builds every URL.
package settings

import (
	"regexp"
	"strings"

	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

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

// autofocusIf focuses name when it is the form's first invalid field (htmx honours autofocus in
// swapped content too).
func autofocusIf(f components.Form, name string) templ.Attributes {
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

func initials(name string) string { return components.Initials(name) }

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
