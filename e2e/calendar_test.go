package e2e

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// A month with 300 posts in Chromium: three entries a day with their network marks (drawn from
// the page's one sprite) and "N more", which opens the day's week in place.
// Screenshots: e2e/screenshots/calendar-busy-month.png, calendar-busy-week.png.
func TestCalendarBusyMonthJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Ada", testEmail("ada"), "Lovelace Books")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Lovelace Books"})
	require.Contains(t, []int{200, 201}, status, team)
	teamID := team["id"].(string)
	month := time.Date(time.Now().Year()+1, time.March, 1, 0, 0, 0, 0, time.UTC)
	// The rows alone (the calendar reads nothing else): 300 posts over the month's days and hours.
	_, err := b.srv.Pool.Exec(context.Background(), `
INSERT INTO posts (organization_id, team_id, title, post_date, status, social_account_types, data)
SELECT t.organization_id, t.id, 'Reading club, part ' || g,
       $2::timestamptz + ((g % 31) || ' days')::interval + ((8 + g % 10) || ' hours')::interval + ((g * 7 % 60) || ' minutes')::interval,
       (ARRAY['SCHEDULED','DRAFT','REVIEW','ERROR'])[g % 4 + 1], ARRAY['BLUESKY','LINKEDIN','TWITTER'], '{}'
FROM teams t, generate_series(1, 300) g WHERE t.id = $1`, teamID, month)
	require.NoError(t, err)

	_, err = p.Goto("/calendar?date=" + month.Format("2006-01-02"))
	require.NoError(t, err)
	day := p.GetByTestId("day-" + month.AddDate(0, 0, 9).Format("2006-01-02"))
	require.NoError(t, expect.Locator(day.GetByTestId("calendar-entry")).ToHaveCount(3))
	require.NoError(t, expect.Locator(day.Locator(".calendar__more")).ToHaveText("7 more"))
	// The marks are drawn: one reference to the sprite's combination of the three networks, three
	// badges of 16 px, 2 apart; named (and titled) with the status in words.
	entry := day.GetByTestId("calendar-entry").First()
	box, err := entry.GetByRole("img").BoundingBox()
	require.NoError(t, err)
	require.InDelta(t, 52, box.Width, 0.5)
	require.InDelta(t, 16, box.Height, 0.5)
	require.NoError(t, expect.Locator(entry.GetByRole("img")).ToHaveAccessibleName(regexp.MustCompile(`^Bluesky, LinkedIn, X\. \w`)))
	require.NoError(t, expect.Locator(entry).ToHaveAccessibleName(regexp.MustCompile(`Bluesky, LinkedIn, X\.`)))
	shot(t, b, "calendar-busy-month", true)

	// Navigation swaps the grid in place (its links inherit the section's hx-target): a mark
	// set on the window survives it, as it would not survive a page load.
	_, err = p.Evaluate(`window.crierKept = true`)
	require.NoError(t, err)
	require.NoError(t, day.Locator(".calendar__more").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/calendar?date="+month.AddDate(0, 0, 9).Format("2006-01-02")+"&view=week"))
	require.NoError(t, expect.Locator(p.Locator(".calendar__grid--week")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("calendar-week-body").GetByTestId("calendar-entry").First()).ToBeVisible())
	shot(t, b, "calendar-busy-week", true)
	require.NoError(t, p.GetByTestId("calendar-month").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/calendar?date="+month.AddDate(0, 0, 9).Format("2006-01-02")+"&view=month"))
	require.NoError(t, expect.Locator(p.Locator(".calendar__grid--month")).ToBeVisible())
	kept, err := p.Evaluate(`window.crierKept === true`)
	require.NoError(t, err)
	require.Equal(t, true, kept, "the grid was swapped, not the page loaded")
}

// On a phone (390 px) the month is an agenda: one column of days, each under its weekday and date,
// today first (the month's earlier days are left out), the future below.
// Screenshot: e2e/screenshots/calendar-mobile-agenda.png.
func TestCalendarMobileAgendaJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Ada", testEmail("ada"), "Lovelace Books")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Lovelace Books"})
	require.Contains(t, []int{200, 201}, status, team)
	require.NoError(t, p.SetViewportSize(390, 844))
	today := time.Now().UTC()
	_, err := b.srv.Pool.Exec(context.Background(), `
INSERT INTO posts (organization_id, team_id, title, post_date, status, social_account_types, data)
SELECT t.organization_id, t.id, 'Story time ' || g, $2::timestamptz + (g || ' days')::interval, 'SCHEDULED', ARRAY['BLUESKY'], '{}'
FROM teams t, generate_series(0, 3) g WHERE t.id = $1`, team["id"], time.Date(today.Year(), today.Month(), today.Day(), 23, 0, 0, 0, time.UTC))
	require.NoError(t, err)

	_, err = p.Goto("/calendar")
	require.NoError(t, err)
	days := p.Locator(".calendar__grid--month .calendar__day:visible")
	first := days.First()
	require.NoError(t, expect.Locator(first).ToHaveAttribute("data-day", today.Format("2006-01-02")))
	label, err := first.Evaluate(`el => getComputedStyle(el, "::before").content`, nil)
	require.NoError(t, err)
	require.Contains(t, label, "Today · "+today.Format("Monday"))
	// One column: the next day sits below today, not beside it.
	box1, err := first.BoundingBox()
	require.NoError(t, err)
	if n, _ := days.Count(); n > 1 {
		box2, err := days.Nth(1).BoundingBox()
		require.NoError(t, err)
		require.Greater(t, box2.Y, box1.Y)
		require.InDelta(t, box1.X, box2.X, 1)
	}
	require.NoError(t, expect.Locator(first.GetByTestId("calendar-entry")).ToHaveCount(1))
	// The month's earlier days are not shown.
	if today.Day() > 1 {
		require.NoError(t, expect.Locator(p.GetByTestId("day-"+today.AddDate(0, 0, -1).Format("2006-01-02"))).ToBeHidden())
	}
	shot(t, b, "calendar-mobile-agenda", false)
}
