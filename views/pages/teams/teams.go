// Package teams holds the teams pages: the list (search, paging, create, inline rename, delete)
// and a team's detail page. Pages take plain values; web builds them and every URL. The pieces pages
// share (Form, Pager, confirmations) come from views/components.
package teams

import (
	"strings"

	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// List is the teams page.
type List struct {
	Search    string
	Rows      []Row
	Pager     components.Pager
	CanManage bool            // OWNER and ADMIN create, rename and delete teams
	Create    components.Form // name, avatarUrl
	Plan      string          // "FREE"
	Used      int             // teams in the organization, whatever the search
	Limit     int             // the plan's team limit; 0: unlimited
	Action    templ.SafeURL   // the list's URL: search, create
	Self      templ.SafeURL   // this search and page (htmx reloads the results after a change)
}

// LimitReached reports whether the plan allows no more teams.
func (l List) LimitReached() bool { return l.Limit > 0 && l.Used >= l.Limit }

// Row is one team in the list.
type Row struct {
	ID        string
	Name      string
	Initials  string
	CreatedBy string
	Created   string
	CanManage bool
	Editing   bool            // the row is the inline rename form
	Form      components.Form // the rename form (name)
	Href      templ.SafeURL   // the detail page (also answers the row to htmx)
	Edit      templ.SafeURL
	Update    templ.SafeURL
	Delete    templ.SafeURL // the confirmation
	Networks  []NetworkMark // the networks with a connected account
	Accounts  templ.SafeURL // the team's accounts page
}

// NetworkMark is a network shown by its mark (and its name for assistive technology).
type NetworkMark struct {
	Type string
	Name string
}

// Detail is a team's page.
type Detail struct {
	Row
	AvatarURL    string
	CreatorEmail string
	Updated      string
	Form         components.Form // name, avatarUrl
	Back         templ.SafeURL
	Accounts     []AccountSummary // the connected accounts, in the networks' order
	AccountsHref templ.SafeURL    // the team's accounts page
}

// AccountSummary is a connected account on the team's page.
type AccountSummary struct {
	Type      string
	Network   string
	Name      string
	Username  string
	Reconnect bool
}

// Accounts is a team's social accounts page: every network with its account or a Connect button,
// and the client portal link generator.
type Accounts struct {
	TeamID    string
	TeamName  string
	CanManage bool // the role may connect, disconnect and make portal links
	Outcome   *Outcome
	Connected []NetworkRow // networks with an account, in the networks' order
	Available []NetworkRow // networks without one
	Portal    PortalForm
	Back      templ.SafeURL // the team's page
	Self      templ.SafeURL // this page (htmx reloads its body after a disconnect)
}

// Outcome is what came back from a connect (the callback's redirect query) or a change.
type Outcome struct {
	Success bool
	Text    string
	Network string // wire value ("FACEBOOK"), "" when none
}

// NetworkRow is one network on the accounts page.
type NetworkRow struct {
	Type        string // wire value: TIKTOK, FACEBOOK …
	Name        string // "X", "Google Business"
	Available   bool   // Crier can connect it here (credentials configured, or the sandbox)
	NeedsServer bool   // Mastodon: the connect asks for a server URL
	Password    bool   // Bluesky: connects with an app password on Crier's page
	ChooseLogin bool   // Instagram: Facebook Login (through a page) or Instagram Login
	Connect     templ.SafeURL
	Form        components.Form // serverUrl and the connect's refusal
	Account     *AccountView    // nil: not connected
	Flash       string          // a confirmation after an htmx change of this row
	Problem     string          // a refusal of an htmx change of this row
}

// AccountView is a connected account.
type AccountView struct {
	ID          string
	DisplayName string
	Username    string // without the @
	Initials    string
	AvatarURL   string // only same-origin or data: URLs (the CSP allows no other images)
	Connected   string // when it was connected, in the viewer's timezone
	Reconnect   bool   // the network refused the credentials: connect again
	LastError   string
	// Channels: "select" (one must be chosen: pages, organizations, channels, locations), "list"
	// (chosen per post: boards, subreddits, Discord and Slack channels) or "".
	ChannelMode     string
	Noun            string // what a channel is on the network: "page", "channel", "location", "board" …
	Channels        []ChannelOption
	Selected        string // the selected channel's id ("select" networks)
	ChannelError    string
	SetChannel      templ.SafeURL
	UnsetChannel    templ.SafeURL
	RefreshChannels templ.SafeURL
	Disconnect      templ.SafeURL // the confirmation
	Check           templ.SafeURL // asks the network whether the credentials still work
}

// SelectedName is the selected channel's label, or "".
func (a AccountView) SelectedName() string {
	for _, c := range a.Channels {
		if c.ID == a.Selected {
			return c.Label
		}
	}
	return ""
}

// ChannelNoun is what a channel is called on the account's network ("page").
func (a AccountView) ChannelNoun() string {
	if a.Noun == "" {
		return "channel"
	}
	return a.Noun
}

// ChannelNounTitle is ChannelNoun capitalised ("Page").
func (a AccountView) ChannelNounTitle() string {
	n := a.ChannelNoun()
	return strings.ToUpper(n[:1]) + n[1:]
}

// ChannelOption is one channel of an account.
type ChannelOption struct {
	ID    string
	Label string
	Sub   string // @username or address, optional
}

// PortalForm makes a client portal link: the networks it offers, where it returns, how long it lives.
type PortalForm struct {
	Form      components.Form // redirectUrl, expiresIn and the networks' refusal (socialAccountTypes)
	Action    templ.SafeURL
	Networks  []PortalNetwork
	Lifetimes []Lifetime
	URL       string // the link just made
	Expires   string // when it expires, in the viewer's timezone
	Links     PortalLinks
}

// PortalLinks are the team's open portal links; the list reloads itself after one ends.
type PortalLinks struct {
	Self templ.SafeURL
	Rows []PortalLinkRow
}

// PortalLinkRow is an open portal link: its networks and times, and a way to end it.
type PortalLinkRow struct {
	ID       string
	Networks []string // wire values
	Names    string   // "Instagram, TikTok"
	Created  string
	Expires  string
	End      templ.SafeURL // the confirmation
}

// PortalNetwork is one network's checkbox in the portal form.
type PortalNetwork struct {
	Type    string
	Name    string
	Checked bool
}

// Lifetime is one choice of the portal link's lifetime (minutes).
type Lifetime struct {
	Minutes string
	Label   string
}
