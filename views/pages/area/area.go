// Package area is the page of a dashboard area whose capability has not landed yet: it says so,
// and says what the area will do. It is deliberately not a mock-up of the future screen.
package area

import "github.com/a-h/templ"

// Data describes one area.
type Data struct {
	ID      string // "teams", "composer"…
	Name    string // "Teams"
	Icon    string
	Summary string   // one sentence: what the area is for
	Plans   []string // what it will let you do, one sentence each
	Home    templ.SafeURL
	Docs    templ.SafeURL
}
