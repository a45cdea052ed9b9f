package web

import "time"

// The calendar's grids are computed in the viewer's timezone. Days are built with time.Date in
// that location (never by adding 24 hours), so a day that loses or gains an hour at a DST change
// is still one cell, from its local midnight to the next local midnight (23 or 25 hours long).

// dateLayout is the calendar's date parameter and day key ("2026-11-23").
const dateLayout = "2006-01-02"

// calDay is one cell of a grid: a local calendar day and the instants it spans.
type calDay struct {
	Year  int
	Month time.Month
	Day   int
	Start time.Time // local midnight
	End   time.Time // the next day's local midnight (exclusive)
}

// Key is the day as YYYY-MM-DD.
func (d calDay) Key() string { return d.Start.Format(dateLayout) }

// localDay is the day of y-m-d in loc (time.Date normalises overflowing days and months).
func localDay(y int, m time.Month, d int, loc *time.Location) calDay {
	start := time.Date(y, m, d, 0, 0, 0, 0, loc)
	end := time.Date(y, m, d+1, 0, 0, 0, 0, loc)
	return calDay{Year: start.Year(), Month: start.Month(), Day: start.Day(), Start: start, End: end}
}

// weekStart is the first day of a calendar week (ISO: Monday).
const weekStart = time.Monday

// daysBack is how many days before d its week starts.
func daysBack(d time.Weekday) int { return (int(d) - int(weekStart) + 7) % 7 }

// monthGrid is the weeks (Monday first) covering the month of y-m in loc: four to six rows of
// seven days, padded with the neighbouring months' days.
func monthGrid(y int, m time.Month, loc *time.Location) [][]calDay {
	first := localDay(y, m, 1, loc)
	back := daysBack(first.Start.Weekday())
	days := localDay(y, m+1, 0, loc).Day // the month's last day
	rows := (back + days + 6) / 7
	weeks := make([][]calDay, rows)
	for w := range weeks {
		weeks[w] = make([]calDay, 7)
		for i := range weeks[w] {
			weeks[w][i] = localDay(y, m, 1-back+w*7+i, loc)
		}
	}
	return weeks
}

// weekGrid is the week (Monday first) holding the day y-m-d in loc.
func weekGrid(y int, m time.Month, d int, loc *time.Location) []calDay {
	day := localDay(y, m, d, loc)
	start := day.Day - daysBack(day.Start.Weekday())
	week := make([]calDay, 7)
	for i := range week {
		week[i] = localDay(day.Year, day.Month, start+i, loc)
	}
	return week
}

// gridSpan is the instants a grid covers: the first day's start to the last day's end.
func gridSpan(weeks [][]calDay) (from, to time.Time) {
	if len(weeks) == 0 || len(weeks[0]) == 0 {
		return time.Time{}, time.Time{}
	}
	last := weeks[len(weeks)-1]
	return weeks[0][0].Start, last[len(last)-1].End
}

// dayKey is the local day of an instant in loc (the cell a post goes in).
func dayKey(t time.Time, loc *time.Location) string { return t.In(loc).Format(dateLayout) }

// parseDay reads a YYYY-MM-DD date; ok is false for anything else.
func parseDay(s string) (y int, m time.Month, d int, ok bool) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return 0, 0, 0, false
	}
	return t.Year(), t.Month(), t.Day(), true
}

// localMoment is the instant of a wall-clock date and time (HH:MM, or HH:MM:SS) in loc. A time that does not exist
// that day (skipped by a DST change, e.g. 02:30 on the spring-forward night) is refused rather
// than silently moved; an ambiguous one (repeated at fall-back) is the first of the two.
func localMoment(date, clock string, loc *time.Location) (time.Time, bool) {
	y, m, d, ok := parseDay(date)
	if !ok {
		return time.Time{}, false
	}
	c, err := time.Parse("15:04", clock)
	if err != nil {
		if c, err = time.Parse("15:04:05", clock); err != nil { // a time input with seconds
			return time.Time{}, false
		}
	}
	t := time.Date(y, m, d, c.Hour(), c.Minute(), c.Second(), 0, loc)
	if t.Hour() != c.Hour() || t.Minute() != c.Minute() || t.Day() != d {
		return time.Time{}, false
	}
	return earliest(t), true
}

// earliest is the first instant showing t's wall clock: Go does not promise which of a repeated
// time's two instants (at fall-back) time.Date picks.
func earliest(t time.Time) time.Time {
	_, before := t.Add(-3 * time.Hour).Zone()
	if _, off := t.Zone(); before > off {
		if e := t.Add(-time.Duration(before-off) * time.Second); e.Hour() == t.Hour() && e.Minute() == t.Minute() && e.Day() == t.Day() {
			return e
		}
	}
	return t
}

// movedTo is t moved to the local day y-m-d in loc, keeping its local time of day (drag to
// reschedule). A time of day that the new day skips (DST) moves forward by the gap, as clocks do.
func movedTo(t time.Time, y int, m time.Month, d int, loc *time.Location) time.Time {
	lt := t.In(loc)
	return time.Date(y, m, d, lt.Hour(), lt.Minute(), lt.Second(), 0, loc)
}

// The week view's hour rows. A row is a wall-clock hour (00:00 to 23:00), the same for the seven
// days, so a day's slots are the hours its clocks show: 24 on most days; 23 when the clocks go
// forward (the skipped hour, e.g. 02:00 in Europe/Berlin on the last Sunday of March, has no
// slot: its cell says so and takes no drops); 25 when they go back (the repeated hour, 02:00 on
// the last Sunday of October, has two slots, the first in summer time, the second in winter time,
// shown side by side in its cell). Slots are instants, so a drop names its slot by its start.

// calSlot is one hour of a local day, [Start, End).
type calSlot struct {
	Hour   int // the wall-clock hour
	Start  time.Time
	End    time.Time
	Repeat bool // the second pass of an hour the clocks go through twice
}

// daySlots are the hours of day d in loc, in time order.
func daySlots(d calDay, loc *time.Location) []calSlot {
	var out []calSlot
	for h := 0; h < 24; h++ {
		t := time.Date(d.Year, d.Month, d.Day, h, 0, 0, 0, loc)
		if t.Hour() != h || t.Day() != d.Day {
			continue // skipped: the clocks go forward through it
		}
		first := earliest(t)
		out = append(out, calSlot{Hour: h, Start: first})
		if again := first.Add(time.Hour); again.In(loc).Hour() == h && again.In(loc).Day() == d.Day {
			out = append(out, calSlot{Hour: h, Start: again, Repeat: true})
		}
	}
	for i := range out {
		if i+1 < len(out) {
			out[i].End = out[i+1].Start
		} else {
			out[i].End = d.End
		}
	}
	return out
}

// slotIndex is the slot of slots holding t (-1 when none does).
func slotIndex(slots []calSlot, t time.Time) int {
	for i, s := range slots {
		if !t.Before(s.Start) && t.Before(s.End) {
			return i
		}
	}
	return -1
}

// workdayStart is the hour the week view scrolls to (working hours are 08:00 to 18:00).
const (
	workdayStart = 8
	workdayEnd   = 18
)

// slotAt is the slot of loc starting at the instant at (RFC 3339, as a drop names it); ok is
// false when at starts no slot of its local day.
func slotAt(at string, loc *time.Location) (calSlot, bool) {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return calSlot{}, false
	}
	lt := t.In(loc)
	day := localDay(lt.Year(), lt.Month(), lt.Day(), loc)
	for _, s := range daySlots(day, loc) {
		if s.Start.Equal(t) {
			return s, true
		}
	}
	return calSlot{}, false
}

// movedToSlot is t moved into slot s keeping its minutes and seconds past the hour (drag in the
// week view: 09:15 dropped on 14:00 is 14:15). The instant is the slot's start plus those minutes,
// so a repeated hour's second pass stays in it; in a slot shorter than that (a zone whose clocks
// move by half an hour) it is the slot's start.
func movedToSlot(t time.Time, s calSlot, loc *time.Location) time.Time {
	lt := t.In(loc)
	at := s.Start.Add(time.Duration(lt.Minute())*time.Minute + time.Duration(lt.Second())*time.Second)
	if !at.Before(s.End) {
		return s.Start
	}
	return at
}
