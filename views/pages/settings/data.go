package settings

import (
	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// General is the general settings page: the organization's settings, the client portal's
// branding with a live preview, this month's usage and (for OWNERs) the danger zone.
type General struct {
	Frame     Frame
	CanEdit   bool            // OWNER and ADMIN; others see the settings read-only
	CanDelete bool            // OWNER
	Settings  components.Form // name, uploadsCompression, verboseErrors, remoteDisconnectChecks, deleteDisconnectedAfterHours
	Branding  components.Form // portalBrandName, portalLogoUrl, portalAccentColor
	Delete    components.Form // confirmName
	Usage     []Usage
	// DefaultAccent is the preview's colour while no accent is set.
	DefaultAccent string
	SaveSettings  templ.SafeURL
	SaveBranding  templ.SafeURL
	DeleteOrg     templ.SafeURL
}

// Usage is one monthly quota.
type Usage struct {
	ID          string // "posts"
	Label       string // "Posts"
	Used, Limit int
}

// Role is a role a select may offer.
type Role struct {
	Value string // "ADMIN"
	Label string // "Admin"
}

// Members is the members page: the organization's members and, for those who manage them, the
// pending invitations and the invite form.
type Members struct {
	Frame       Frame
	CanManage   bool
	Rows        []Member
	Pager       components.Pager
	Invitations Invitations
	Self        templ.SafeURL // this page of the list (htmx reloads it after a removal)
}

// Member is one row of the members table.
type Member struct {
	ID       string
	Name     string
	Email    string
	Initials string
	Role     string // "OWNER"
	Joined   string
	You      bool
	CanEdit  bool // the viewer may change this member's role and remove them
	Roles    []Role
	RoleURL  templ.SafeURL
	Remove   templ.SafeURL // the confirmation
	Error    string        // the Service refused the last change (e.g. the last OWNER)
	Saved    bool          // the role was just changed
}

// Invitations is the invitations card: the invite form and the pending list.
type Invitations struct {
	Form   components.Form // email, role
	Roles  []Role
	Rows   []Invitation
	Create templ.SafeURL
	Self   templ.SafeURL // reloads the card (htmx, after a revoke)
}

// Invitation is one pending invitation.
type Invitation struct {
	ID      string
	Email   string
	Role    string
	Sent    string
	Expires string
	Expired bool
	Revoke  templ.SafeURL // the confirmation
	Resend  templ.SafeURL // POST: a fresh link mailed again
}

// APIKeys is the API keys page.
type APIKeys struct {
	Frame  Frame
	Rows   []APIKey
	Pager  components.Pager
	Create components.Form // name
	Secret *Secret
	New    templ.SafeURL
	Self   templ.SafeURL
}

// APIKey is one row of the keys table (never the secret).
type APIKey struct {
	ID       string
	Name     string
	Prefix   string // "crier_ab12cd34_…"
	Created  string
	LastUsed string // "Never" when unused
	Roll     templ.SafeURL
	Delete   templ.SafeURL
}

// Secret is a key's full secret, shown once after creation or a roll.
type Secret struct {
	Name   string
	Key    string
	Rolled bool
}

// AuditLog is the audit log page.
type AuditLog struct {
	Frame    Frame
	Rows     []AuditItem
	Pager    components.Pager
	Timezone string // the zone times are shown in

	// The filters: who acted and what kind of action, with their current values.
	Actors   []AuditOption
	Kinds    []AuditOption
	Actor    string
	Kind     string
	Filtered bool
}

// AuditOption is one choice of an audit log filter.
type AuditOption struct {
	Value, Label string
}

// AuditItem is one line of the audit log.
type AuditItem struct {
	ID        string
	Time      string // in the viewer's zone
	DateTime  string // RFC 3339, for <time datetime>
	Actor     string // who acted, in words ("Maya Lopez", "The API key “CI”")
	Did       string // what they did ("created the team “Spring”")
	ActorType string // USER, API_KEY, SYSTEM
	Action    string // "team.created"
	Metadata  []Meta
}

// Meta is one metadata entry of an audit item.
type Meta struct {
	Key, Value string
}
