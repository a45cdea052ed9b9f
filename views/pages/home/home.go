// Package home is the dashboard home: welcome, the "Get started" checklist, post counts and the
// status of the 15 networks.
package home

import (
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
)

// Step is one item of the "Get started" checklist.
type Step struct {
	ID    string // data-testid="step-<ID>"
	Title string
	Text  string
	Href  templ.SafeURL
	Icon  string
	Done  bool
}

// Network is one row of the network status card.
type Network struct {
	Code   string // wire value, e.g. "TWITTER"
	Name   string // display name, e.g. "X"
	Label  string // status in words, e.g. "Operational"
	Tone   components.Tone
	Note   string
	Until  time.Time // end of an announced window; zero: none
	Status string    // wire value, e.g. "operational"
}

// Stats are the organization's post counts.
type Stats struct {
	Scheduled int
	Published int
	Failed    int
}

// PostItem is a post in one of the home page's short lists.
type PostItem struct {
	ID       string
	Title    string
	When     string // in the viewer's zone
	DateTime string // RFC 3339, for <time>
	Href     templ.SafeURL
	Networks []string // wire values
	Error    string
}

// Health is Crier's own status line.
type Health struct {
	Label     string
	Tone      components.Tone
	Note      string
	CheckedAt time.Time
}

// Data is everything the home page shows.
type Data struct {
	Steps      []Step
	Health     Health
	Networks   []Network
	Stats      Stats
	Upcoming   []PostItem // scheduled within the week
	Failing    []PostItem // failed within 30 days
	ComposeURL templ.SafeURL
	DocsURL    templ.SafeURL
}

// Done counts the finished steps.
func (d Data) Done() int {
	n := 0
	for _, s := range d.Steps {
		if s.Done {
			n++
		}
	}
	return n
}

// monogram is the network's two-letter tile (brand logos are trademarks; letters are enough): its
// spec's Brand.Monogram, else the start of its name.
func monogram(n Network) string {
	if s := app.SpecOf(app.Network(n.Code)); s != nil && s.Brand.Monogram != "" {
		return s.Brand.Monogram
	}
	return strings.ToUpper(n.Name[:min(2, len(n.Name))])
}

// showNote hides the note of a network without issues: "No known issues" fifteen times is noise.
func showNote(n Network) bool {
	return n.Note != "" && (n.Status != "operational" || !n.Until.IsZero())
}

func note(n Network) string {
	if n.Until.IsZero() {
		return n.Note
	}
	return n.Note + " · until " + n.Until.UTC().Format("Jan 2, 15:04") + " UTC"
}

func count(n int) string { return strconv.Itoa(n) }

func stepsText(d Data) string {
	return strconv.Itoa(d.Done()) + " of " + strconv.Itoa(len(d.Steps)) + " done"
}

func checked(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return "Checked " + t.UTC().Format("15:04") + " UTC"
}
