package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// postsNetworks are the three networks the journey publishes to.
var postsNetworks = []string{"MASTODON", "TWITTER", "LINKEDIN"}

// postsAPI calls /api/v1 from the page, with the session cookie (same-origin: no token needed),
// and answers the status and the JSON body.
func postsAPI(t *testing.T, b *bundle, method, path string, body any) (int, map[string]any) {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	res, err := b.page.Evaluate(`async ([method, path, body]) => {
		const r = await fetch(path, {method, headers: {"Content-Type": "application/json"}, body: method === "GET" ? undefined : body});
		return [r.status, await r.text()];
	}`, []any{method, path, string(raw)})
	require.NoError(t, err)
	pair := res.([]any)
	var out map[string]any
	_ = json.Unmarshal([]byte(pair[1].(string)), &out)
	return pair[0].(int), out
}

// connectInBrowser connects a network to a team through the sandbox's consent page (approve=1
// approves at once), as a person would through the network's OAuth.
func connectInBrowser(t *testing.T, b *bundle, teamID, network string) {
	t.Helper()
	body := map[string]any{"type": network, "teamId": teamID, "redirectUrl": b.srv.URL + "/teams/" + teamID}
	if network == "MASTODON" {
		body["serverUrl"] = b.srv.URL + "/sandbox/mastodon"
	}
	status, out := postsAPI(t, b, "POST", "/api/v1/social-account/connect", body)
	require.Equal(t, 200, status, out)
	_, err := b.page.Goto(out["url"].(string) + "&approve=1")
	require.NoError(t, err)
	require.Contains(t, b.page.URL(), "success=true", "%s: %s", network, b.page.URL())
}

// The posts dashboard in Chromium: connect three networks through the sandbox, compose a post with
// an image uploaded into the library from the composer, tailor one network's text, schedule it a
// few seconds ahead in the user's timezone, watch the post page turn POSTED on every network, and
// find it in the calendar and the posts list. Screenshots: e2e/screenshots/posts-*.png.
func TestPostsJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	image := writePNG(t, dir, "launch.png", 24, 16, false)

	signUpInBrowser(t, b, "Grace", testEmail("grace"), "Hopper Coffee")
	status, _ := postsAPI(t, b, "PATCH", "/api/v1/user/me", map[string]any{"timezone": "America/New_York"})
	require.Equal(t, 200, status)
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Hopper Coffee"})
	require.Contains(t, []int{200, 201}, status, team)
	teamID := team["id"].(string)
	for _, n := range postsNetworks {
		connectInBrowser(t, b, teamID, n)
	}

	// The composer: the three accounts, nothing chosen yet.
	require.NoError(t, p.GetByTestId("nav-composer").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/composer"))
	for _, n := range postsNetworks {
		require.NoError(t, expect.Locator(p.GetByTestId("account-"+n)).ToBeVisible())
	}
	require.NoError(t, expect.Locator(p.GetByTestId("composer-previews")).ToContainText("Choose a network"))
	shot(t, b, "posts-composer-empty")

	// Upload an image from the composer: it lands in the library and is ticked for the post.
	require.NoError(t, p.GetByTestId("composer-upload-open").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("composer-upload")).ToBeVisible())
	require.NoError(t, p.Locator("#composer-upload #media-file").SetInputFiles(image))
	require.NoError(t, expect.Locator(p.Locator("#composer-upload [data-testid=upload-state]").First()).ToContainText("Uploaded"))
	require.NoError(t, p.GetByTestId("composer-upload-done").Click())
	picked := p.Locator("#composer-media input[name=uploadIds]")
	require.NoError(t, expect.Locator(picked).ToHaveCount(1))
	require.NoError(t, expect.Locator(picked).ToBeChecked())

	// Choose the networks and write: previews and counters follow.
	for _, n := range postsNetworks {
		require.NoError(t, p.GetByTestId("account-"+n).Click())
	}
	text := "Our winter blend is here ☕️ Smooth, dark and roasted in small batches. Come taste it this weekend!"
	require.NoError(t, p.GetByTestId("composer-text").Fill(text))
	for _, n := range postsNetworks {
		require.NoError(t, expect.Locator(p.GetByTestId("preview-"+n).GetByTestId("preview-text")).ToContainText("winter blend"))
		require.NoError(t, expect.Locator(p.GetByTestId("counter-"+n)).ToBeVisible())
	}
	require.NoError(t, expect.Locator(p.GetByTestId("preview-MASTODON").Locator(".preview__media img")).ToHaveCount(1))
	// LinkedIn gets its own words and visibility, in its tab.
	require.NoError(t, p.GetByTestId("tab-LINKEDIN").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("panel-LINKEDIN")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("panel-TWITTER")).ToBeHidden())
	require.NoError(t, p.Locator(`[name="LINKEDIN.text"]`).Fill("Our winter blend is here. A note on sourcing: every bean comes from two partner farms we visit each year."))
	_, err := p.Locator(`[name="LINKEDIN.privacy"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{"PUBLIC"}})
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("preview-LINKEDIN").GetByTestId("preview-text")).ToContainText("partner farms"))

	// Schedule a few seconds ahead, in New York time.
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := time.Now().Add(12 * time.Second).In(ny)
	require.NoError(t, p.GetByTestId("composer-date").Fill(at.Format("2006-01-02")))
	_, err = p.Evaluate(`v => { const i = document.getElementById("composer-time"); i.value = v; i.dispatchEvent(new Event("change", {bubbles: true})); }`, at.Format("15:04:05"))
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("preview-TWITTER")).ToContainText(at.Format("15:04")))
	shot(t, b, "posts-composer-filled")
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	postURL := p.URL()
	live := p.GetByTestId("post-live")
	require.NoError(t, expect.Locator(live).ToHaveAttribute("hx-trigger", "every 2s"))
	require.NoError(t, expect.Locator(p.GetByTestId("post-when")).ToContainText(at.Format("15:04")))
	shot(t, b, "posts-post-scheduled")

	// Live: the page follows the networks until every one is POSTED.
	require.NoError(t, expect.Locator(live).ToHaveAttribute("data-status", "POSTED", playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: playwright.Float(90000)}))
	for _, n := range postsNetworks {
		target := p.GetByTestId("target-" + n)
		require.NoError(t, expect.Locator(target).ToHaveAttribute("data-status", "POSTED"))
		// In the sandbox the post exists only there: the link opens the inspector at its item.
		href, err := target.GetByTestId("permalink").GetAttribute("href")
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(href, "/sandbox-inspector/"+strings.ToLower(n)+"#held-"), "%s permalink %q", n, href)
		require.NoError(t, expect.Locator(target.GetByTestId("permalink")).ToContainText("View in the sandbox"))
	}
	require.NoError(t, expect.Locator(live).Not().ToHaveAttribute("hx-trigger", "every 2s"))
	shot(t, b, "posts-post-posted")

	// The link opens the sandbox's view of the post in a new tab, at its item.
	perm := p.GetByTestId("target-MASTODON").GetByTestId("permalink")
	require.NoError(t, expect.Locator(perm).ToHaveAttribute("target", "_blank"))
	href, err := perm.GetAttribute("href")
	require.NoError(t, err)
	tab, err := p.Context().ExpectPage(func() error { return perm.Click() })
	require.NoError(t, err)
	require.NoError(t, tab.WaitForLoadState())
	held := tab.Locator("#held-" + href[strings.Index(href, "#held-")+len("#held-"):])
	require.NoError(t, expect.Locator(held).ToBeVisible())
	require.NoError(t, expect.Locator(held).ToHaveAttribute("data-kind", "post"))
	require.NoError(t, tab.Close())

	// The calendar shows it on today's date (New York), the list with its networks.
	require.NoError(t, p.GetByTestId("nav-calendar").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/calendar"))
	day := p.GetByTestId("day-" + at.Format("2006-01-02"))
	require.NoError(t, expect.Locator(day.GetByTestId("calendar-entry")).ToHaveCount(1))
	require.NoError(t, expect.Locator(day.GetByTestId("calendar-entry")).ToHaveAttribute("data-status", "POSTED"))
	shot(t, b, "posts-calendar-month")
	require.NoError(t, p.GetByTestId("calendar-week").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("calendar-title")).ToContainText(at.Format("Jan")))
	shot(t, b, "posts-calendar-week")

	require.NoError(t, p.GetByTestId("nav-posts").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/posts"))
	row := p.GetByTestId("post-row")
	require.NoError(t, expect.Locator(row).ToHaveCount(1))
	require.NoError(t, expect.Locator(row).ToHaveAttribute("data-status", "POSTED"))
	shot(t, b, "posts-list")
	require.NoError(t, row.GetByTestId("post-link").Click())
	require.NoError(t, p.WaitForURL(postURL))
}

// Review and reschedule in Chromium: a post sent for review waits in the queue, an owner approves
// it, and dragging it in the calendar moves it to another day at the same time.
func TestPostsReviewAndDragJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Ada", testEmail("ada"), "Lovelace Books")
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Lovelace Books"})
	require.Contains(t, []int{200, 201}, status, team)
	teamID := team["id"].(string)
	connectInBrowser(t, b, teamID, "MASTODON")

	// Two days ahead, 10:00 UTC (the user has no timezone: UTC).
	when := time.Now().UTC().AddDate(0, 0, 2)
	_, err := p.Goto("/composer")
	require.NoError(t, err)
	// Scheduling with nothing chosen: the errors sit beside their fields, the text stays.
	require.NoError(t, p.GetByTestId("composer-text").Fill("Reading club on Thursday 📚"))
	require.NoError(t, p.GetByTestId("composer-schedule-submit").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("error-networks")).ToContainText("Choose at least one network"))
	require.NoError(t, expect.Locator(p.Locator("#composer-date-error")).ToBeVisible())
	require.NoError(t, expect.Locator(p.GetByTestId("composer-text")).ToHaveValue("Reading club on Thursday 📚"))
	shot(t, b, "posts-composer-errors")
	require.NoError(t, p.GetByTestId("account-MASTODON").Click())
	require.NoError(t, p.GetByTestId("composer-date").Fill(when.Format("2006-01-02")))
	require.NoError(t, p.GetByTestId("composer-time").Fill("10:00"))
	require.NoError(t, p.GetByTestId("composer-review").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))
	require.NoError(t, expect.Locator(p.GetByTestId("post-live")).ToHaveAttribute("data-status", "REVIEW"))

	require.NoError(t, p.GetByTestId("nav-posts").Click())
	require.NoError(t, p.GetByTestId("posts-tab-review").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/posts/review"))
	require.NoError(t, expect.Locator(p.GetByTestId("post-row")).ToHaveCount(1))
	shot(t, b, "posts-review-queue")
	require.NoError(t, p.GetByTestId("review-approve").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("review-result")).ToContainText("Approved: scheduled for"))
	require.NoError(t, p.GetByTestId("posts-tab-all").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/posts"))
	require.NoError(t, expect.Locator(p.GetByTestId("post-row")).ToHaveAttribute("data-status", "SCHEDULED"))
	shot(t, b, "posts-list-scheduled")

	// Drag it in the calendar to the next day: same time, new day.
	_, err = p.Goto("/calendar?date=" + when.Format("2006-01-02"))
	require.NoError(t, err)
	entry := p.GetByTestId("day-" + when.Format("2006-01-02")).GetByTestId("calendar-entry")
	require.NoError(t, expect.Locator(entry).ToHaveCount(1))
	next := when.AddDate(0, 0, 1)
	target := p.GetByTestId("day-" + next.Format("2006-01-02"))
	if n, err := target.Count(); err != nil || n == 0 { // the next day is past this month's grid: the day before
		next = when.AddDate(0, 0, -1)
		target = p.GetByTestId("day-" + next.Format("2006-01-02"))
	}
	require.NoError(t, entry.DragTo(target))
	require.NoError(t, expect.Locator(p.GetByTestId("calendar-status")).ToContainText("Moved"))
	require.NoError(t, expect.Locator(target.GetByTestId("calendar-entry")).ToHaveCount(1))
	require.NoError(t, expect.Locator(target.GetByTestId("calendar-entry")).ToContainText("10:00"))
	shot(t, b, "posts-calendar-moved")
	require.NoError(t, p.GetByTestId("calendar-week").Click())
	require.NoError(t, expect.Locator(p.Locator(".calendar__grid--week")).ToBeVisible())
	shot(t, b, "posts-calendar-week-scheduled")
}

// A failure in Chromium: Mastodon refuses the post (a fault injected in the sandbox); the page
// says so with Mastodon's own words and details (verbose errors on), and Retry publishes it.
func TestPostsFailureAndRetryJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()

	signUpInBrowser(t, b, "Alan", testEmail("alan"), "Turing Tea")
	status, _ := postsAPI(t, b, "PATCH", "/api/v1/organization/settings", map[string]any{"verboseErrors": true})
	require.Equal(t, 200, status)
	status, team := postsAPI(t, b, "POST", "/api/v1/team", map[string]any{"name": "Turing Tea"})
	require.Contains(t, []int{200, 201}, status, team)
	connectInBrowser(t, b, team["id"].(string), "MASTODON")
	status, _ = postsAPI(t, b, "POST", "/sandbox/mastodon/_sandbox/fail", map[string]any{"status": 422, "code": "ERR_VALIDATION",
		"message": "Validation failed: Text character limit of 500 exceeded", "times": 1, "path": "/api/v1/statuses"})
	require.Equal(t, 200, status)

	_, err := p.Goto("/composer")
	require.NoError(t, err)
	require.NoError(t, p.GetByTestId("account-MASTODON").Click())
	require.NoError(t, p.GetByTestId("composer-text").Fill("Afternoon tea, on the house 🫖"))
	require.NoError(t, expect.Locator(p.GetByTestId("preview-MASTODON")).ToBeVisible())
	// Mastodon's tab: its own media section loads the library when opened.
	require.NoError(t, p.GetByTestId("own-media-MASTODON").Locator("summary").Click())
	require.NoError(t, expect.Locator(p.Locator("#own-media-grid-MASTODON")).ToContainText("Your library is empty"))
	require.NoError(t, p.GetByTestId("composer-now").Click())
	require.NoError(t, p.WaitForURL(regexp.MustCompile(`/posts/[0-9a-f-]{36}$`)))

	live := p.GetByTestId("post-live")
	require.NoError(t, expect.Locator(live).ToHaveAttribute("data-status", "ERROR", playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: playwright.Float(60000)}))
	target := p.GetByTestId("target-MASTODON")
	require.NoError(t, expect.Locator(target.GetByTestId("target-error")).ToContainText("character limit"))
	require.NoError(t, target.GetByTestId("target-verbose").Locator("summary").Click())
	require.NoError(t, expect.Locator(target.GetByTestId("target-verbose")).ToContainText("422"))
	shot(t, b, "posts-post-error")

	require.NoError(t, p.GetByTestId("post-retry").Click())
	require.NoError(t, expect.Locator(p.GetByTestId("post-flash")).ToContainText("Retrying"))
	require.NoError(t, expect.Locator(live).ToHaveAttribute("data-status", "POSTED", playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: playwright.Float(60000)}))
	href, err := target.GetByTestId("permalink").GetAttribute("href")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(href, "/sandbox-inspector/"), href)
	require.NoError(t, expect.Locator(p.GetByTestId("post-retry")).ToHaveCount(0))
	shot(t, b, "posts-post-retried")
}
