// Package layout holds the dashboard's page frames: Document (the <html> skeleton every page
// shares), App (sidebar, top bar and main region) and Plain (a centered page for errors).
//
// Layouts hold no paths: web passes every URL (assets, navigation) in, from its route table.
package layout

import (
	"encoding/json"
	"strconv"

	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// HTMXConfig is the htmx-config meta content: htmx must not inject its indicator <style>, which the
// CSP would block (static/css/app.css styles .htmx-indicator instead); and it settles classes and
// sizes only, since copying a style attribute across a swap is an inline style the CSP refuses.
const HTMXConfig = `{"includeIndicatorStyles":false,"attributesToSettle":["class","width","height"]}`

// Assets are the URLs of the files every page loads.
type Assets struct {
	CSS     string
	HTMX    string
	App     string
	Favicon string
}

// Page is what the <head> needs.
type Page struct {
	Title   string // the page's name; " · Crier" is appended
	Assets  Assets
	Scripts []string // extra scripts, loaded after htmx and app.js (deferred, in order)
	// HomeHref is the dashboard home, for the logo link.
	HomeHref string
}

// NavItem is one sidebar link; ID is the area ("home", "teams"…), used for data-testid="nav-<ID>"
// and to mark the current page.
type NavItem struct {
	ID    string
	Label string
	Href  string
	Icon  string
}

// NavGroup is a labelled list of links in the sidebar.
type NavGroup struct {
	Label string // empty: no heading
	Items []NavItem
}

// Shell is what the application frame needs besides the page's content.
type Shell struct {
	Page
	Nav     []NavGroup
	Active  string             // the NavItem ID of the current area
	Org     templ.Component    // organization switcher slot; nil shows a placeholder
	User    templ.Component    // user menu slot; nil shows a placeholder
	Bell    templ.Component    // notifications bell beside the user menu, optional
	Banner  templ.Component    // a notice under the top bar (e.g. "confirm your email"), optional
	Flashes []components.Flash // one-time messages
}

func title(t string) string {
	if t == "" || t == "Crier" {
		return "Crier"
	}
	return t + " · Crier"
}

// csrfHeaders is the hx-headers value that makes every htmx request carry the CSRF token.
func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

func navID(id string) string { return "nav-" + id }

func groupID(i int) string { return "nav-group-" + strconv.Itoa(i) }
