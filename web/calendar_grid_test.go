package web

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

func TestCalendarMonthGridAcrossDST(t *testing.T) {
	t.Parallel()
	paris := mustZone(t, "Europe/Paris")

	// March 2026 in Paris: clocks go forward on Sunday 29 March (a 23-hour day).
	weeks := monthGrid(2026, time.March, paris)
	require.Len(t, weeks, 6) // 1 March is a Sunday: the first row starts on Monday 23 February
	require.Equal(t, "2026-02-23", weeks[0][0].Key())
	require.Equal(t, "2026-03-01", weeks[0][6].Key())
	last := weeks[len(weeks)-1]
	require.Equal(t, "2026-03-30", last[0].Key())
	require.Equal(t, "2026-04-05", last[6].Key())
	seen := map[string]bool{}
	for _, w := range weeks {
		require.Len(t, w, 7)
		for i, d := range w {
			require.Equal(t, time.Weekday((i+1)%7), d.Start.Weekday(), d.Key())
			require.Zero(t, d.Start.Hour(), d.Key())
			require.False(t, seen[d.Key()], "a day appears twice: %s", d.Key())
			seen[d.Key()] = true
			require.True(t, d.End.Equal(localDay(d.Year, d.Month, d.Day+1, paris).Start))
		}
	}
	require.Len(t, seen, 42)
	dst := weeks[4][6]
	require.Equal(t, "2026-03-29", dst.Key())
	require.Equal(t, 23*time.Hour, dst.End.Sub(dst.Start))

	// October 2026: back on Sunday 25 October (a 25-hour day); the days still run midnight to midnight.
	for _, w := range monthGrid(2026, time.October, paris) {
		for _, d := range w {
			if d.Key() == "2026-10-25" {
				require.Equal(t, 25*time.Hour, d.End.Sub(d.Start))
				require.Equal(t, "2026-10-26T00:00:00+01:00", d.End.Format(time.RFC3339))
			}
		}
	}
}

func TestCalendarMonthGridShapes(t *testing.T) {
	t.Parallel()
	// February 2021 starts on a Monday and has 28 days: exactly four rows.
	weeks := monthGrid(2021, time.February, time.UTC)
	require.Len(t, weeks, 4)
	require.Equal(t, "2021-02-01", weeks[0][0].Key())
	require.Equal(t, "2021-02-28", weeks[3][6].Key())
	// November 2026 ends on a Monday: the last row is 30 Nov to 6 Dec.
	weeks = monthGrid(2026, time.November, time.UTC)
	require.Equal(t, "2026-10-26", weeks[0][0].Key())
	require.Equal(t, "2026-12-06", weeks[len(weeks)-1][6].Key())
	from, to := gridSpan(weeks)
	require.Equal(t, "2026-10-26T00:00:00Z", from.Format(time.RFC3339))
	require.Equal(t, "2026-12-07T00:00:00Z", to.Format(time.RFC3339))
	// December wraps into the next year.
	weeks = monthGrid(2026, time.December, time.UTC)
	require.Equal(t, "2027-01-03", weeks[len(weeks)-1][6].Key())
}

func TestCalendarWeekGridAcrossDST(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	// The week of Sunday 1 November 2026 (clocks back at 02:00): Monday 26 October to Sunday 1 November.
	week := weekGrid(2026, time.October, 29, ny)
	require.Equal(t, "2026-10-26", week[0].Key())
	require.Equal(t, "2026-11-01", week[6].Key())
	require.Equal(t, 25*time.Hour, week[6].End.Sub(week[6].Start))
	for i := 0; i < 6; i++ {
		require.Equal(t, 24*time.Hour, week[i].End.Sub(week[i].Start))
		require.True(t, week[i].End.Equal(week[i+1].Start))
	}
	// Spring forward: Sunday 8 March 2026 is 23 hours; the next week starts at local midnight.
	week = weekGrid(2026, time.March, 8, ny)
	require.Equal(t, "2026-03-02", week[0].Key())
	require.Equal(t, 23*time.Hour, week[6].End.Sub(week[6].Start))
	require.Equal(t, "2026-03-09T00:00:00-04:00", week[6].End.Format(time.RFC3339))
	// A week across the new year.
	week = weekGrid(2027, time.January, 1, ny)
	require.Equal(t, "2026-12-28", week[0].Key())
	require.Equal(t, "2027-01-03", week[6].Key())
}

func TestCalendarDayKeyIsLocal(t *testing.T) {
	t.Parallel()
	tokyo := mustZone(t, "Asia/Tokyo")
	la := mustZone(t, "America/Los_Angeles")
	at := time.Date(2026, 11, 23, 20, 30, 0, 0, time.UTC)
	require.Equal(t, "2026-11-24", dayKey(at, tokyo))
	require.Equal(t, "2026-11-23", dayKey(at, la))
}

func TestLocalMomentRefusesSkippedTimes(t *testing.T) {
	t.Parallel()
	paris := mustZone(t, "Europe/Paris")
	// 02:30 does not exist in Paris on 29 March 2026.
	_, ok := localMoment("2026-03-29", "02:30", paris)
	require.False(t, ok)
	got, ok := localMoment("2026-03-29", "03:30", paris)
	require.True(t, ok)
	require.Equal(t, "2026-03-29T01:30:00Z", got.UTC().Format(time.RFC3339))
	// 02:30 exists twice on 25 October: the first (summer time) is taken.
	got, ok = localMoment("2026-10-25", "02:30", paris)
	require.True(t, ok)
	require.Equal(t, "2026-10-25T00:30:00Z", got.UTC().Format(time.RFC3339))
	got, ok = localMoment("2026-03-29", "10:15:30", paris)
	require.True(t, ok)
	require.Equal(t, "2026-03-29T08:15:30Z", got.UTC().Format(time.RFC3339))
	for _, bad := range [][2]string{{"2026-02-30", "10:00"}, {"2026-03-01", "25:00"}, {"tomorrow", "10:00"}, {"2026-03-01", ""}} {
		_, ok := localMoment(bad[0], bad[1], paris)
		require.False(t, ok, bad)
	}
}

func TestMovedToKeepsLocalTimeAcrossDST(t *testing.T) {
	t.Parallel()
	paris := mustZone(t, "Europe/Paris")
	// 09:15 on Friday 27 March (UTC+1) dragged to Monday 30 March (UTC+2): still 09:15 local.
	t0 := time.Date(2026, 3, 27, 9, 15, 0, 0, paris)
	moved := movedTo(t0, 2026, time.March, 30, paris)
	require.Equal(t, "2026-03-30T09:15:00+02:00", moved.Format(time.RFC3339))
	require.Equal(t, 71*time.Hour, moved.Sub(t0)) // three days, one of them 23 hours
	// The instant given in another zone is moved by its Paris wall clock.
	moved = movedTo(t0.UTC(), 2026, time.April, 1, paris)
	require.Equal(t, "2026-04-01T09:15:00+02:00", moved.Format(time.RFC3339))
}

// The week view's hour rows in Europe/Berlin: a day's slots are the hours its clocks show — 23 on
// the spring-forward Sunday (no 02:00), 25 on the fall-back Sunday (02:00 twice, summer time
// first), 24 otherwise — and together they cover the day exactly, without gaps or overlaps.
func TestCalendarDaySlotsAcrossDST(t *testing.T) {
	t.Parallel()
	berlin := mustZone(t, "Europe/Berlin")
	hours := func(slots []calSlot) []int {
		out := make([]int, len(slots))
		for i, s := range slots {
			out[i] = s.Hour
		}
		return out
	}
	check := func(d calDay, slots []calSlot) {
		t.Helper()
		require.True(t, slots[0].Start.Equal(d.Start), d.Key())
		require.True(t, slots[len(slots)-1].End.Equal(d.End), d.Key())
		for i, s := range slots {
			require.Equal(t, time.Hour, s.End.Sub(s.Start), "%s slot %d", d.Key(), i)
			require.Zero(t, s.Start.In(berlin).Minute())
			if i > 0 {
				require.True(t, slots[i-1].End.Equal(s.Start))
			}
		}
	}

	spring := localDay(2026, time.March, 29, berlin)
	slots := daySlots(spring, berlin)
	require.Len(t, slots, 23)
	check(spring, slots)
	require.Equal(t, []int{0, 1, 3, 4}, hours(slots)[:4]) // 02:00 does not exist
	require.Equal(t, "2026-03-29T01:00:00Z", slots[2].Start.UTC().Format(time.RFC3339))
	for _, s := range slots {
		require.False(t, s.Repeat)
	}

	fall := localDay(2026, time.October, 25, berlin)
	slots = daySlots(fall, berlin)
	require.Len(t, slots, 25)
	check(fall, slots)
	require.Equal(t, []int{0, 1, 2, 2, 3}, hours(slots)[:5])
	require.Equal(t, "2026-10-25T02:00:00+02:00", slots[2].Start.In(berlin).Format(time.RFC3339))
	require.Equal(t, "2026-10-25T02:00:00+01:00", slots[3].Start.In(berlin).Format(time.RFC3339))
	require.False(t, slots[2].Repeat)
	require.True(t, slots[3].Repeat)

	normal := localDay(2026, time.October, 26, berlin)
	slots = daySlots(normal, berlin)
	require.Len(t, slots, 24)
	check(normal, slots)

	// Posts go in the slot holding their instant: 02:30 is in the first or the second 02:00.
	require.Equal(t, 2, slotIndex(daySlots(fall, berlin), time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC)))
	require.Equal(t, 3, slotIndex(daySlots(fall, berlin), time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC)))
	require.Equal(t, 2, slotIndex(daySlots(spring, berlin), time.Date(2026, 3, 29, 3, 59, 0, 0, berlin)))
	require.Equal(t, -1, slotIndex(daySlots(spring, berlin), time.Date(2026, 3, 30, 0, 0, 0, 0, berlin)))

	// New York changes at 02:00 too, and a week of slots spans the week exactly.
	ny := mustZone(t, "America/New_York")
	week := weekGrid(2026, time.November, 1, ny)
	total := 0
	for _, d := range week {
		total += len(daySlots(d, ny))
	}
	require.Equal(t, 7*24+1, total)
	require.Len(t, daySlots(localDay(2026, time.March, 8, ny), ny), 23)
}

// A drop names its slot by the slot's start; the post keeps its minutes past the hour, in the
// slot dropped on (the second 02:00 of a fall-back night stays the second).
func TestMovedToSlotKeepsMinutes(t *testing.T) {
	t.Parallel()
	berlin := mustZone(t, "Europe/Berlin")
	post := time.Date(2026, 3, 27, 9, 15, 30, 0, berlin) // Friday, winter time

	s, ok := slotAt("2026-03-30T14:00:00+02:00", berlin) // Monday, summer time
	require.True(t, ok)
	require.Equal(t, "2026-03-30T14:15:30+02:00", movedToSlot(post, s, berlin).Format(time.RFC3339))

	s, ok = slotAt("2026-10-25T01:00:00Z", berlin) // the second 02:00 (CET)
	require.True(t, ok)
	require.True(t, s.Repeat)
	require.Equal(t, "2026-10-25T02:15:30+01:00", movedToSlot(post, s, berlin).In(berlin).Format(time.RFC3339))
	s, ok = slotAt("2026-10-25T02:00:00+02:00", berlin) // the first
	require.True(t, ok)
	require.Equal(t, "2026-10-25T00:15:30Z", movedToSlot(post, s, berlin).UTC().Format(time.RFC3339))

	s, ok = slotAt("2026-03-29T03:00:00+02:00", berlin) // the hour after the skipped one
	require.True(t, ok)
	require.Equal(t, "2026-03-29T03:15:30+02:00", movedToSlot(post, s, berlin).Format(time.RFC3339))

	// Not a slot: not on the hour, not a time, or (the same wall clock in the wrong offset) not an hour of that day.
	for _, bad := range []string{"2026-03-30T14:30:00+02:00", "2026-03-30", "soon", "2026-03-30T14:00:00+05:30"} {
		_, ok := slotAt(bad, berlin)
		require.False(t, ok, bad)
	}
}
