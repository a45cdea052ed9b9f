package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// Posts land on the viewer's local day: 23:30 UTC is already the next day in Tokyo.
func TestCalendarPlacesPostsOnLocalDays(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Asia/Tokyo")
	team := b.postsTeam(t)
	year := time.Now().Year() + 1
	at := time.Date(year, time.May, 14, 23, 30, 0, 0, time.UTC) // May 15, 08:30 in Tokyo
	p := b.createPost(t, team.ID, app.PostScheduled, at, "Tokyo morning", app.Twitter, app.Bluesky)

	rec := b.get(t, "/calendar?date="+strconv.Itoa(year)+"-05-01")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	require.Equal(t, "May "+strconv.Itoa(year), doc.Find(`[data-testid="calendar-title"]`).Text())
	day := doc.Find(`[data-testid="day-` + strconv.Itoa(year) + `-05-15"]`)
	entry := day.Find(`[data-testid="calendar-entry"]`)
	require.Equal(t, 1, entry.Length())
	require.Equal(t, "/posts/"+p.ID, entry.AttrOr("href", ""))
	require.Equal(t, "true", entry.AttrOr("draggable", "")) // calendar.js takes the id from the link
	require.Contains(t, entry.Text(), "08:30")
	require.Zero(t, doc.Find(`[data-testid="day-`+strconv.Itoa(year)+`-05-14"] [data-testid="calendar-entry"]`).Length())
	require.Equal(t, 7, doc.Find(`.calendar__weekday`).Length())
	require.Equal(t, "/calendar/move", doc.Find(`[data-testid="calendar"]`).AttrOr("data-move", ""))

	// The week view of that day, as htmx asks for it.
	rec = b.get(t, "/calendar?view=week&date="+strconv.Itoa(year)+"-05-15", "HX-Request", "true", "HX-Target", "calendar-grid")
	doc = parse(t, rec)
	require.Zero(t, doc.Find("nav").Length())
	requireNoInlineStyleOrScript(t, doc)
	// Hour rows: 24 a day (Tokyo has no DST), each day's hour a drop target named by its start.
	require.Equal(t, 24, doc.Find(`[data-testid="calendar-week-body"] [role="row"]`).Length())
	require.Equal(t, 7*24, doc.Find(`[data-drop]`).Length())
	require.Equal(t, "8", doc.Find(`[data-testid="calendar-week-body"]`).AttrOr("data-scroll-hour", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="calendar-entry"]`).Length())
	slot := doc.Find(`[data-testid="cell-` + strconv.Itoa(year) + `-05-15-08:00"] [data-drop]`)
	require.Equal(t, strconv.Itoa(year)+"-05-15T08:00:00+09:00", slot.AttrOr("data-slot", ""))
	require.Equal(t, 1, slot.Find(`[data-testid="calendar-entry"]`).Length())
	require.Equal(t, 7, doc.Find(`[data-testid="calendar-week-grid"] [role="columnheader"][data-testid^="day-"]`).Length())
}

// The week view on the DST days of Europe/Berlin: the hour the clocks skip has no drop target and
// says so; the hour they repeat has two, named by their zone, each holding its own posts.
func TestCalendarWeekHoursAcrossDST(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Europe/Berlin")
	team := b.postsTeam(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	year := time.Now().Year() + 1
	fall := lastSunday(year, time.October, berlin)
	first := time.Date(fall.Year(), fall.Month(), fall.Day(), 0, 30, 0, 0, time.UTC)  // 02:30 CEST
	second := time.Date(fall.Year(), fall.Month(), fall.Day(), 1, 45, 0, 0, time.UTC) // 02:45 CET
	b.createPost(t, team.ID, app.PostScheduled, first, "Summer time", app.Twitter)
	b.createPost(t, team.ID, app.PostScheduled, second, "Winter time", app.Twitter)

	key := fall.Format("2006-01-02")
	doc := parse(t, b.get(t, "/calendar?view=week&date="+key))
	cell := doc.Find(`[data-testid="cell-` + key + `-02:00"]`)
	slots := cell.Find(`[data-drop]`)
	require.Equal(t, 2, slots.Length())
	require.Equal(t, "CEST", strings.TrimSpace(slots.Eq(0).Find(".week__zone").Text()))
	require.Equal(t, "CET", strings.TrimSpace(slots.Eq(1).Find(".week__zone").Text()))
	require.Contains(t, slots.Eq(0).Text(), "Summer time")
	require.Contains(t, slots.Eq(1).Text(), "Winter time")
	require.Contains(t, cell.Text(), "happens twice")
	require.Equal(t, 7*24+1, doc.Find(`[data-drop]`).Length())

	spring := lastSunday(year, time.March, berlin)
	key = spring.Format("2006-01-02")
	doc = parse(t, b.get(t, "/calendar?view=week&date="+key))
	cell = doc.Find(`[data-testid="cell-` + key + `-02:00"]`)
	require.Zero(t, cell.Find(`[data-drop]`).Length())
	require.Contains(t, cell.Text(), "does not exist")
	require.Equal(t, 7*24-1, doc.Find(`[data-drop]`).Length())
}

// lastSunday is the last Sunday of month m (when Europe's clocks change).
func lastSunday(year int, m time.Month, loc *time.Location) time.Time {
	d := time.Date(year, m+1, 0, 12, 0, 0, 0, loc)
	for d.Weekday() != time.Sunday {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// Dropping a post on an hour of the week view: it takes that hour and keeps its minutes, across a
// DST change and into the second pass of a repeated hour; a drop on no slot is refused.
func TestCalendarMoveToHour(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Europe/Berlin")
	team := b.postsTeam(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	year := time.Now().Year() + 1
	spring := lastSunday(year, time.March, berlin)
	friday := spring.AddDate(0, 0, -2)
	at := time.Date(friday.Year(), friday.Month(), friday.Day(), 9, 15, 0, 0, berlin)
	p := b.createPost(t, team.ID, app.PostScheduled, at, "By the hour", app.Twitter)

	monday := spring.AddDate(0, 0, 1)
	slot := time.Date(monday.Year(), monday.Month(), monday.Day(), 14, 0, 0, 0, berlin).Format(time.RFC3339)
	rec := b.post(t, "/calendar/move", url.Values{"id": {p.ID}, "slot": {slot}})
	require.Equal(t, http.StatusNoContent, rec.Code, rec.Body.String())
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, monday.Format("2006-01-02")+"T14:15:00+02:00", got.PostDate.In(berlin).Format(time.RFC3339))
	msg, err := url.PathUnescape(rec.Header().Get("X-Crier-Message"))
	require.NoError(t, err)
	require.Contains(t, msg, "14:15")

	// The second 02:00 of the fall-back night.
	fall := lastSunday(year, time.October, berlin)
	slot = time.Date(fall.Year(), fall.Month(), fall.Day(), 1, 0, 0, 0, time.UTC).Format(time.RFC3339)
	rec = b.post(t, "/calendar/move", url.Values{"id": {p.ID}, "slot": {slot}})
	require.Equal(t, http.StatusNoContent, rec.Code, rec.Body.String())
	got, err = b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, fall.Format("2006-01-02")+"T01:15:00Z", got.PostDate.UTC().Format(time.RFC3339))

	for _, bad := range []string{"tomorrow", monday.Format("2006-01-02") + "T14:30:00+02:00"} {
		rec = b.post(t, "/calendar/move", url.Values{"id": {p.ID}, "slot": {bad}})
		require.Equal(t, http.StatusBadRequest, rec.Code, bad)
	}
}

// Dropping a post on another day keeps its local time, across a DST change.
func TestCalendarMoveKeepsLocalTimeAcrossDST(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Europe/Paris")
	team := b.postsTeam(t)
	year := time.Now().Year() + 1
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	lastSunday := time.Date(year, time.April, 0, 0, 0, 0, 0, paris) // March 31
	for lastSunday.Weekday() != time.Sunday {
		lastSunday = lastSunday.AddDate(0, 0, -1)
	}
	before := lastSunday.AddDate(0, 0, -2) // Friday, winter time
	at := time.Date(before.Year(), before.Month(), before.Day(), 9, 15, 0, 0, paris)
	p := b.createPost(t, team.ID, app.PostScheduled, at, "Across the change", app.Twitter)

	after := lastSunday.AddDate(0, 0, 1) // Monday, summer time
	rec := b.post(t, "/calendar/move", url.Values{"id": {p.ID}, "date": {after.Format("2006-01-02")}})
	require.Equal(t, http.StatusNoContent, rec.Code, rec.Body.String())
	require.Contains(t, rec.Header().Get("HX-Trigger"), "calendarChanged")
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, after.Format("2006-01-02")+"T09:15:00+02:00", got.PostDate.In(paris).Format(time.RFC3339))

	// A posted post cannot move: the refusal is said.
	draftless := b.createPost(t, team.ID, app.PostScheduled, at, "Will fail", app.Twitter)
	_, err = b.pool.Exec(t.Context(), `UPDATE posts SET status = 'POSTED' WHERE id = $1`, draftless.ID)
	require.NoError(t, err)
	rec = b.post(t, "/calendar/move", url.Values{"id": {draftless.ID}, "date": {after.Format("2006-01-02")}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, rec.Body.String(), "Not moved")
	rec = b.post(t, "/calendar/move", url.Values{"id": {p.ID}, "date": {"someday"}})
	require.Equal(t, http.StatusBadRequest, rec.Code)
}

// A busy day in the month view: its first three posts (of the viewer's local day, in time order)
// and "N more" for the rest, which opens the day's week; the grid reads no more than it shows.
func TestCalendarMonthShowsThreeADayAndCountsTheRest(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Asia/Tokyo")
	team := b.postsTeam(t)
	year := time.Now().Year() + 1
	// June 10 in Tokyo runs from 15:00 UTC on June 9: five posts that day, one the day after.
	for i, h := range []int{20, 15, 23, 2, 9} { // 05:00, 00:00, 08:00, 11:00, 18:00 in Tokyo
		day := 9
		if h < 15 {
			day = 10
		}
		b.createPost(t, team.ID, app.PostScheduled, time.Date(year, time.June, day, h, 0, 0, 0, time.UTC), "Post "+strconv.Itoa(i), app.Twitter)
	}
	b.createPost(t, team.ID, app.PostScheduled, time.Date(year, time.June, 10, 16, 0, 0, 0, time.UTC), "Next day", app.Twitter)

	doc := parse(t, b.get(t, "/calendar?date="+strconv.Itoa(year)+"-06-01"))
	day := doc.Find(`[data-testid="day-` + strconv.Itoa(year) + `-06-10"]`)
	entries := day.Find(`[data-testid="calendar-entry"]`)
	require.Equal(t, 3, entries.Length())
	require.Contains(t, entries.Eq(0).Text(), "00:00")
	require.Contains(t, entries.Eq(1).Text(), "05:00")
	require.Contains(t, entries.Eq(2).Text(), "08:00")
	more := day.Find(".calendar__more")
	require.Equal(t, "2 more", strings.TrimSpace(more.Text()))
	require.Equal(t, "/calendar?date="+strconv.Itoa(year)+"-06-10&view=week", more.AttrOr("href", ""))
	next := doc.Find(`[data-testid="day-` + strconv.Itoa(year) + `-06-11"]`)
	require.Equal(t, 1, next.Find(`[data-testid="calendar-entry"]`).Length())
	require.Zero(t, next.Find(".calendar__more").Length())
	// The grid's sprite defines each mark once, and each combination of networks once from those
	// marks; an entry references its combination whole: an image named (and titled) in words.
	require.Equal(t, 1, doc.Find(`symbol#net-TWITTER`).Length())
	set := doc.Find(`symbol[id^="ns-"]`)
	require.Equal(t, 1, set.Length(), "one combination: X alone")
	require.Equal(t, 1, set.Find(`use[href="#net-TWITTER"]`).Length())
	require.Equal(t, 4, doc.Find(`[data-testid="calendar-entry"] svg[role="img"] use[href="#`+set.AttrOr("id", "")+`"]`).Length())
	require.Equal(t, "X. Scheduled", entries.Eq(0).Find(`svg[role="img"] > title`).Text())
	require.Zero(t, entries.Find(`[aria-hidden]`).Length(), "nothing an entry says is hidden")
}

// A zone PostgreSQL does not know (Go's tzdata is newer, or a fixed offset): the service groups
// the days itself, with the same answer.
func TestCalendarDaysInAZonePostgresDoesNotKnow(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	year := time.Now().Year() + 1
	for i, h := range []int{20, 15, 23, 2, 9, 16} {
		b.createPost(t, team.ID, app.PostScheduled, time.Date(year, time.June, 9+i/3, h, 0, 0, 0, time.UTC), "Post "+strconv.Itoa(i), app.Twitter)
	}
	from, to := time.Date(year, time.June, 1, 0, 0, 0, 0, time.UTC), time.Date(year, time.July, 1, 0, 0, 0, 0, time.UTC)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	want, err := b.pub.CalendarDays(b.ctx(t), team.ID, from, to, tokyo, 2)
	require.NoError(t, err)
	got, err := b.pub.CalendarDays(b.ctx(t), team.ID, from, to, time.FixedZone("Crier/Nowhere", 9*3600), 2)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.NotEmpty(t, want)
	for _, p := range want {
		require.Positive(t, p.DayTotal)
	}
}
