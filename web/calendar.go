package web

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/publishing"
	calendarview "github.com/crier/crier/views/pages/calendar"
	"github.com/crier/crier/views/pages/posts"
)

// Paths and route names of the calendar.
const (
	pathCalendar     = "/calendar"
	pathCalendarMove = pathCalendar + "/move"

	routeCalendarMove = "calendar.move"

	// monthCellEntries is how many posts a month cell lists before "N more".
	monthCellEntries = 3
	// calendarMaxPosts bounds the posts one grid loads.
	calendarMaxPosts = 1000
)

// calendarShow serves GET /calendar?view=month|week&date=YYYY-MM-DD&teamId=: the month (or week)
// holding date, today by default, in the viewer's timezone.
func (h *Handler) calendarShow(c echo.Context) error {
	d, err := h.calendarData(c)
	if err != nil {
		return err
	}
	if hxTarget(c) == calendarview.Grid {
		return render(c, http.StatusOK, calendarview.GridPart(d), nil)
	}
	s := h.shell(c, areaCalendar, "Calendar")
	s.Scripts = append(s.Scripts, assetURL("js/calendar.js"))
	return render(c, http.StatusOK, calendarview.Page(s, d), calendarview.Content(d))
}

func (h *Handler) calendarData(c echo.Context) (calendarview.Data, error) {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	now := time.Now().In(loc)
	d := calendarview.Data{View: "month", Zone: zoneName(loc), Move: pathCalendarMove, Compose: pathComposer, Teams0: pathTeams}
	if c.QueryParam("view") == "week" {
		d.View = "week"
	}
	y, m, day, ok := parseDay(c.QueryParam("date"))
	if !ok {
		y, m, day = now.Date()
	}
	teams, _, err := h.svc.ListTeams(ctx, "", app.Page{Limit: app.MaxPageLimit})
	if err != nil {
		return d, err
	}
	if len(teams) == 0 {
		d.NoTeams = true
		return d, nil
	}
	d.Team = teams[0].ID
	for _, t := range teams {
		d.Teams = append(d.Teams, posts.Option{Value: t.ID, Label: t.Name})
		if t.ID == c.QueryParam("teamId") {
			d.Team = t.ID
		}
	}
	team := d.Team
	if len(teams) == 1 {
		team = "" // one team: no need to say it in the URLs
	}
	link := func(view string, y int, m time.Month, dd int) string {
		return string(withQuery(pathCalendar, "view", view, "date", localDay(y, m, dd, loc).Key(), "teamId", team))
	}
	var weeks [][]calDay
	if d.View == "week" {
		week := weekGrid(y, m, day, loc)
		weeks = [][]calDay{week}
		first, last := week[0], week[6]
		d.Title = first.Start.Format("Jan 2") + " – " + last.Start.Format("Jan 2, 2006")
		if first.Year != last.Year {
			d.Title = first.Start.Format("Jan 2, 2006") + " – " + last.Start.Format("Jan 2, 2006")
		}
		d.Prev, d.Next = link("week", y, m, day-7), link("week", y, m, day+7)
	} else {
		weeks = monthGrid(y, m, loc)
		d.Title = time.Date(y, m, 1, 0, 0, 0, 0, loc).Format("January 2006")
		d.Prev, d.Next = link("month", y, m-1, 1), link("month", y, m+1, 1)
	}
	d.Self = link(d.View, y, m, day)
	d.Month, d.Week = link("month", y, m, day), link("week", y, m, day)
	ny, nm, nd := now.Date()
	d.Today = link(d.View, ny, nm, nd)
	for _, wd := range weeks[0] {
		if d.View == "week" {
			d.Weekdays = append(d.Weekdays, wd.Start.Format("Monday"))
		} else {
			d.Weekdays = append(d.Weekdays, wd.Start.Format("Mon"))
		}
	}

	from, to := gridSpan(weeks)
	byDay, dayTotals, total, err := h.calendarPosts(c, d.Team, from, to, loc, d.View == "month")
	if err != nil {
		return d, err
	}
	d.Total = total
	d.Sprite = spriteOf(byDay)
	if d.View == "week" {
		d.Hours, d.ScrollTo = weekHours(weeks[0], byDay, localDay(ny, nm, nd, loc).Key(), now, loc), workdayStart
	}
	today := localDay(ny, nm, nd, loc).Key()
	for _, week := range weeks {
		row := make([]calendarview.Day, 0, 7)
		for _, cd := range week {
			key := cd.Key()
			cell := calendarview.Day{Key: key, Number: strconv.Itoa(cd.Day), Label: cd.Start.Format("Monday 2 January 2006"),
				Short: cd.Start.Format("Mon 2"), InRange: d.View == "week" || cd.Month == m, Today: key == today, Past: key < today,
				Compose: string(withQuery(pathComposer, "date", key, "teamId", team)), MoreURL: link("week", cd.Year, cd.Month, cd.Day)}
			entries := byDay[key]
			if d.View == "week" {
				entries = nil // in the hour rows
			}
			if d.View == "month" {
				entries = entries[:min(len(entries), monthCellEntries)]
				cell.More = max(0, dayTotals[key]-len(entries))
			}
			cell.Entries = entries
			row = append(row, cell)
		}
		d.Weeks = append(d.Weeks, row)
	}
	return d, nil
}

// weekHours are the week view's hour rows: for each wall-clock hour, each day's slots (see
// daySlots: none for an hour the clocks skip, two for an hour they repeat) with the day's posts
// dated in them.
func weekHours(week []calDay, byDay map[string][]calendarview.Entry, today string, now time.Time, loc *time.Location) []calendarview.HourRow {
	rows := make([]calendarview.HourRow, 24)
	for h := range rows {
		rows[h] = calendarview.HourRow{Hour: h, Label: fmt.Sprintf("%02d:00", h), Working: h >= workdayStart && h < workdayEnd,
			Cells: make([]calendarview.HourCell, len(week))}
	}
	for i, d := range week {
		key := d.Key()
		for h := range rows {
			rows[h].Cells[i] = calendarview.HourCell{Day: key, Label: d.Start.Format("Monday 2 January 2006") + ", " + rows[h].Label,
				Today: key == today, Past: key < today}
		}
		slots := daySlots(d, loc)
		for _, s := range slots {
			cell := &rows[s.Hour].Cells[i]
			cell.Past = cell.Past || !s.End.After(now)
			cell.Slots = append(cell.Slots, calendarview.Slot{At: s.Start.Format(time.RFC3339), Label: cell.Label})
		}
		for h := range rows {
			cell := &rows[h].Cells[i]
			switch len(cell.Slots) {
			case 0:
				cell.Note = "The clocks go forward: " + rows[h].Label + " does not exist on this day."
			case 2:
				cell.Note = "The clocks go back: " + rows[h].Label + " happens twice."
				for j := range cell.Slots {
					at, _ := time.Parse(time.RFC3339, cell.Slots[j].At)
					zone, _ := at.In(loc).Zone()
					cell.Slots[j].Zone = zone
					cell.Slots[j].Label += " " + zone
				}
			}
		}
		for _, e := range byDay[key] {
			at, err := time.Parse(time.RFC3339, e.At)
			if err != nil {
				continue
			}
			if j := slotIndex(slots, at); j >= 0 {
				s := slots[j]
				cell := &rows[s.Hour].Cells[i]
				k := 0
				if s.Repeat {
					k = 1
				}
				cell.Slots[k].Entries = append(cell.Slots[k].Entries, e)
			}
		}
	}
	return rows
}

// calendarPosts are the team's posts dated in [from, to), by local day, in time order, with each
// day's total, in one narrow query whatever the number of posts. The month view (cells) reads the
// first monthCellEntries of each day and counts the rest; the week view reads them all.
func (h *Handler) calendarPosts(c echo.Context, teamID string, from, to time.Time, loc *time.Location, cells bool) (map[string][]calendarview.Entry, map[string]int, int, error) {
	ctx := c.Request().Context()
	var all []publishing.CalendarPost
	var err error
	if cells {
		all, err = h.pub.CalendarDays(ctx, teamID, from, to, loc, monthCellEntries)
	} else {
		all, err = h.pub.CalendarPosts(ctx, teamID, from, to, calendarMaxPosts)
	}
	if err != nil {
		return nil, nil, 0, pageError(err)
	}
	out, totals, n := map[string][]calendarview.Entry{}, map[string]int{}, 0
	for _, p := range all {
		at := p.PostDate
		if p.Status == app.PostPosted && p.PostedDate != nil {
			at = *p.PostedDate
		}
		e := calendarview.Entry{ID: p.ID, Time: at.In(loc).Format("15:04"), At: at.UTC().Format(time.RFC3339), Title: p.Title,
			Status: posts.Shown(string(p.Status), partlyPublished(p.Status, p.PostedDate, nil)), Href: string(idURL(pathPosts, p.ID, "")), Draggable: p.Status.Editable()}
		for _, net := range p.Networks {
			e.Networks = append(e.Networks, posts.Net{Code: string(net), Name: net.DisplayName()})
		}
		key := dayKey(at, loc)
		out[key] = append(out[key], e)
		if p.DayTotal > 0 {
			if totals[key] == 0 {
				n += p.DayTotal
			}
			totals[key] = p.DayTotal
		} else {
			totals[key]++
			n++
		}
	}
	for k := range out {
		sort.SliceStable(out[k], func(i, j int) bool { return out[k][i].At < out[k][j].At })
	}
	return out, totals, n, nil
}

// spriteOf is the networks of the entries, each once, in order (the page's mark definitions).
func spriteOf(byDay map[string][]calendarview.Entry) []string {
	seen := map[string]bool{}
	var out []string
	for _, es := range byDay {
		for _, e := range es {
			for _, n := range e.Networks {
				if !seen[n.Code] {
					seen[n.Code] = true
					out = append(out, n.Code)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// calendarMove serves POST /calendar/move: id and date (YYYY-MM-DD, the month view: the post
// keeps its local time of day on the new day) or slot (the start of an hour of the week view, RFC
// 3339: the post takes the slot's hour and keeps its minutes past the hour; see movedToSlot). It
// answers 204 with the calendarChanged event (the grid reloads), or the refusal as text
// (calendar.js says it in the status line).
func (h *Handler) calendarMove(c echo.Context) error {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	var slot calSlot
	slotted := c.FormValue("slot") != ""
	y, m, d, ok := parseDay(c.FormValue("date"))
	if slotted {
		slot, ok = slotAt(c.FormValue("slot"), loc)
	}
	if !ok {
		return c.String(http.StatusBadRequest, "Drop the post on a day or an hour.")
	}
	p, err := h.pub.GetPost(ctx, c.FormValue("id"))
	if app.ErrorCode(err) == app.ENotFound {
		return c.String(http.StatusNotFound, "This post no longer exists.")
	}
	if err != nil {
		return err
	}
	if !hasDate(p.PostDate) {
		return c.String(http.StatusUnprocessableEntity, "This post has no time yet: open it to choose one.")
	}
	t := movedTo(*p.PostDate, y, m, d, loc)
	if slotted {
		t = movedToSlot(*p.PostDate, slot, loc)
	}
	if _, err := h.reschedule(c, p.ID, t); err != nil {
		if refusal(err) {
			return c.String(http.StatusUnprocessableEntity, "Not moved: "+app.ErrorMessage(err))
		}
		return err
	}
	hxTrigger(c, calendarview.MovedEvent)
	c.Response().Header().Set("X-Crier-Message", url.PathEscape("Moved “"+p.Title+"” to "+t.In(loc).Format("Mon Jan 2, 15:04")+"."))
	return c.NoContent(http.StatusNoContent)
}
