// Package calendar holds the calendar: a month or a week of a team's posts in the viewer's
// timezone, each day a drop target for rescheduling (static/js/calendar.js drags; without
// JavaScript a post's page reschedules it).
//
// Pages take plain values; web computes the grid (DST-safe) and builds every URL.
package calendar

import (
	"strconv"
	"strings"

	"github.com/crier/crier/views/pages/posts"
)

// Grid is the id of the part htmx reloads (navigation, filters, after a move).
const Grid = "calendar-grid"

// MovedEvent reloads the grid after a post moved.
const MovedEvent = "calendarChanged"

// Data is the calendar page.
type Data struct {
	View     string // month | week
	Title    string // "November 2026", "Nov 23 – 29, 2026"
	Zone     string
	Teams    []posts.Option
	Team     string
	Prev     string
	Next     string
	Today    string
	Month    string // the month view of the same date
	Week     string // the week view of the same date
	Self     string
	Move     string // POST id and date (a day) or slot (an hour of the week view): a drop
	Compose  string
	Weekdays []string
	Weeks    [][]Day
	Hours    []HourRow // the week view: a row per wall-clock hour
	ScrollTo int       // the week view opens scrolled to this hour (working hours)
	Total    int
	Sprite   []string // the networks the entries show (components.NetworkSprite)
	NoTeams  bool
	Teams0   string
}

// Day is one cell.
type Day struct {
	Key     string // 2026-11-23
	Number  string // 23
	Label   string // Monday 23 November
	Short   string // Mon 23
	InRange bool   // in the month shown (always in the week view)
	Today   bool
	Past    bool
	Entries []Entry
	More    int    // entries not shown (month view)
	MoreURL string // the week of the day
	Compose string // a new post on this day
}

// Entry is a post in a day.
type Entry struct {
	ID        string
	Time      string // 14:05
	At        string // the instant, RFC 3339 UTC
	Title     string
	Status    string
	Networks  []posts.Net
	Href      string
	Draggable bool
}

// HourRow is an hour of the week view (00:00 to 23:00, wall clock): one cell per day.
type HourRow struct {
	Hour    int
	Label   string // 09:00
	Working bool   // 08:00 to 18:00
	Cells   []HourCell
}

// HourCell is a day's hour: one slot; none when the clocks skip the hour (spring forward); two
// when they go through it twice (fall back).
type HourCell struct {
	Day   string // 2026-11-23
	Label string // Monday 23 November 2026, 09:00
	Today bool
	Past  bool
	Note  string // why the hour has no slot, or two
	Slots []Slot
}

// Slot is an hour of a day as an instant: a drop target, holding the posts dated in it.
type Slot struct {
	At      string // the slot's start, RFC 3339 (what a drop sends)
	Zone    string // "CEST", "CET": only when the hour happens twice
	Label   string // for assistive technology: "Sunday 25 October 2026, 02:00 CEST"
	Entries []Entry
}

// netNames is the networks' names, for a tooltip and assistive technology: "Bluesky, LinkedIn, X".
func netNames(nets []posts.Net) string {
	names := make([]string, len(nets))
	for i, n := range nets {
		names[i] = n.Name
	}
	return strings.Join(names, ", ")
}

// spoken is what an entry says beyond its time and title: its networks and status (the marks'
// name and tooltip; alone when it has no networks).
func spoken(e Entry) string {
	if len(e.Networks) == 0 {
		return posts.StatusLabel(e.Status)
	}
	return netNames(e.Networks) + ". " + posts.StatusLabel(e.Status)
}

// netSets are the combinations of networks the grid's entries show, each drawn once as a symbol
// (netSprite) that an entry references whole: a month's hundred entries repeat a few
// combinations, and one reference weighs a third of a reference per network.
type netSets struct {
	list []netSet
	ids  map[string]string // codes joined by "," → symbol id
}

// netSet is one combination: its symbol's id, its networks in the entries' order, its width.
type netSet struct {
	ID    string
	Codes []string
	Width string
}

// The marks of an entry: 16 px each, 2 px apart (as the posts' marks in the CSS).
const (
	netMark = 16
	netGap  = 2
)

// setsOf collects the combinations of d's entries (month cells, then week slots), in order of
// first appearance, so that the ids are stable for a given grid.
func setsOf(d Data) netSets {
	s := netSets{ids: map[string]string{}}
	add := func(es []Entry) {
		for _, e := range es {
			key := netKey(e.Networks)
			if len(e.Networks) == 0 || s.ids[key] != "" {
				continue
			}
			set := netSet{ID: "ns-" + strconv.Itoa(len(s.list)), Width: strconv.Itoa(len(e.Networks)*(netMark+netGap) - netGap)}
			for _, n := range e.Networks {
				set.Codes = append(set.Codes, n.Code)
			}
			s.ids[key] = set.ID
			s.list = append(s.list, set)
		}
	}
	for _, week := range d.Weeks {
		for _, day := range week {
			add(day.Entries)
		}
	}
	for _, row := range d.Hours {
		for _, c := range row.Cells {
			for _, slot := range c.Slots {
				add(slot.Entries)
			}
		}
	}
	return s
}

// ref is the symbol id of nets' combination and the width it draws at.
func (s netSets) ref(nets []posts.Net) (id, width string) {
	return "#" + s.ids[netKey(nets)], strconv.Itoa(len(nets)*(netMark+netGap) - netGap)
}

// x is where the i-th mark of a combination starts.
func markX(i int) string { return strconv.Itoa(i * (netMark + netGap)) }

func netKey(nets []posts.Net) string {
	codes := make([]string, len(nets))
	for i, n := range nets {
		codes[i] = n.Code
	}
	return strings.Join(codes, ",")
}
