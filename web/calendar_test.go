package web_test

import (
	"net/http"
	"net/url"
	"strconv"
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
	require.Equal(t, p.ID, entry.AttrOr("data-drag-id", ""))
	require.Contains(t, entry.Text(), "08:30")
	require.Zero(t, doc.Find(`[data-testid="day-`+strconv.Itoa(year)+`-05-14"] [data-testid="calendar-entry"]`).Length())
	require.Equal(t, 7, doc.Find(`.calendar__weekday`).Length())
	require.Equal(t, "/calendar/move", doc.Find(`[data-testid="calendar"]`).AttrOr("data-move", ""))

	// The week view of that day, as htmx asks for it.
	rec = b.get(t, "/calendar?view=week&date="+strconv.Itoa(year)+"-05-15", "HX-Request", "true", "HX-Target", "calendar-grid")
	doc = parse(t, rec)
	require.Zero(t, doc.Find("nav").Length())
	require.Equal(t, 7, doc.Find(`[data-drop]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="calendar-entry"]`).Length())
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
	got, err := b.svc.GetPost(b.ctx(t), p.ID)
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
