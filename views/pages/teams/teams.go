// Package teams holds the teams pages: the list (search, paging, create, inline rename, delete)
// and a team's detail page. Pages take plain values; web builds them and every URL. The pieces the
// organization pages share (Form, Pager, confirmations) come from package settings.
package teams

import (
	"github.com/a-h/templ"

	"github.com/crier/crier/views/pages/settings"
)

// List is the teams page.
type List struct {
	Search    string
	Rows      []Row
	Pager     settings.Pager
	CanManage bool          // OWNER and ADMIN create, rename and delete teams
	Create    settings.Form // name, avatarUrl
	Plan      string        // "FREE"
	Used      int           // teams in the organization, whatever the search
	Limit     int           // the plan's team limit; 0: unlimited
	Action    templ.SafeURL // the list's URL: search, create
	Self      templ.SafeURL // this search and page (htmx reloads the results after a change)
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
	Editing   bool          // the row is the inline rename form
	Form      settings.Form // the rename form (name)
	Href      templ.SafeURL // the detail page (also answers the row to htmx)
	Edit      templ.SafeURL
	Update    templ.SafeURL
	Delete    templ.SafeURL // the confirmation
}

// Detail is a team's page.
type Detail struct {
	Row
	AvatarURL    string
	CreatorEmail string
	Updated      string
	Form         settings.Form // name, avatarUrl
	Back         templ.SafeURL
}
