// Package calendar holds the calendar: a month or a week of a team's posts in the viewer's
// timezone, each day a drop target for rescheduling (static/js/calendar.js drags; without
// JavaScript a post's page reschedules it).
//
// Pages take plain values; web computes the grid (DST-safe) and builds every URL.
package calendar

import (
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

// spoken is what an entry says beyond its time and title: its networks and status.
func spoken(e Entry) string {
	if len(e.Networks) == 0 {
		return posts.StatusLabel(e.Status)
	}
	return netNames(e.Networks) + ". " + posts.StatusLabel(e.Status)
}
