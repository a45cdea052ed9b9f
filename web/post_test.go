package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/bluesky"
	"github.com/crier/crier/network/linkedin"
	"github.com/crier/crier/network/x"
)

// connect stores a connected account of network n on a team (the social accounts capability's
// OAuth flow is tested elsewhere; the posts pages only read accounts).
func (b *testBundle) connect(t *testing.T, teamID string, n app.Network, username string) string {
	t.Helper()
	var id string
	require.NoError(t, b.pool.QueryRow(context.Background(),
		`INSERT INTO social_accounts (organization_id, team_id, type, username, display_name, external_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		b.orgID(), teamID, string(n), username, strings.ToUpper(username[:1])+username[1:]+" Studio", "ext-"+username).Scan(&id))
	return id
}

// setTimezone sets the signed-in user's timezone (the dashboard shows and reads times in it).
func (b *testBundle) setTimezone(t *testing.T, tz string) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `UPDATE users SET timezone = $1 WHERE id = $2`, tz, b.session.User.ID)
	require.NoError(t, err)
}

// postsTeam is a team with X, LinkedIn and Bluesky connected.
func (b *testBundle) postsTeam(t *testing.T) *app.Team {
	t.Helper()
	team := b.createTeam(t, "Launch team")
	b.connect(t, team.ID, app.Twitter, "ada")
	b.connect(t, team.ID, app.LinkedIn, "ada")
	b.connect(t, team.ID, app.Bluesky, "ada.bsky.social")
	return team
}

func (b *testBundle) createPost(t *testing.T, teamID string, status app.PostStatus, at time.Time, text string, nets ...app.Network) *app.Post {
	t.Helper()
	vals := url.Values{"teamId": {teamID}, "text": {text}}
	for _, n := range nets {
		vals.Add("networks", string(n))
	}
	d := app.PostData{}
	in := at.UTC().Format(time.RFC3339)
	for _, n := range nets {
		switch n {
		case app.Twitter:
			d.Set(app.Twitter, &x.Payload{Text: text})
		case app.LinkedIn:
			d.Set(app.LinkedIn, &linkedin.Payload{Text: text})
		case app.Bluesky:
			d.Set(app.Bluesky, &bluesky.Payload{Text: text})
		}
	}
	title := text
	p, err := b.pub.CreatePost(b.ctx(t), app.PostParams{TeamID: teamID, Title: &title, Status: &status, PostDate: &in, SocialAccountTypes: nets, Data: &d})
	require.NoError(t, err)
	return p
}

func TestComposerShowsTeamAccountsAndEveryField(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)

	rec := b.get(t, "/composer?teamId="+team.ID)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	doc := parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	require.Equal(t, "page", doc.Find(`[data-testid="nav-composer"]`).AttrOr("aria-current", ""))
	for _, n := range []string{"TWITTER", "LINKEDIN", "BLUESKY"} {
		require.Equal(t, 1, doc.Find(`[data-testid="account-`+n+`"] input[name="networks"][value="`+n+`"]`).Length(), n)
		require.Equal(t, 1, doc.Find(`[data-testid="panel-`+n+`"]`).Length(), n)
	}
	require.Zero(t, doc.Find(`[data-testid="account-FACEBOOK"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="account-TWITTER"]`).Text(), "@ada")
	// X's tab holds every field of its payload.
	for _, name := range []string{"TWITTER.text", "TWITTER.mediaItems", "TWITTER.replySettings", "TWITTER.poll.options", "TWITTER.poll.durationMinutes",
		"TWITTER.quoteTweetId", "TWITTER.replyToTweetId", "TWITTER.subscribersOnly", "TWITTER.thread", "TWITTER.tweetStorm",
		"TWITTER.tweetStormNumbering", "TWITTER.isAiGenerated", "firstComment.TWITTER"} {
		require.Equal(t, 1, doc.Find(`[data-testid="panel-TWITTER"] [name="`+name+`"]`).Length(), name)
	}
	require.Equal(t, 5, doc.Find(`[data-testid="panel-BLUESKY"] [name="BLUESKY.labels"]`).Length())
	// Buttons: the four ways to save.
	for _, id := range []string{"composer-draft", "composer-review", "composer-now", "composer-schedule-submit"} {
		require.Equal(t, 1, doc.Find(`[data-testid="`+id+`"]`).Length(), id)
	}
	require.Equal(t, 1, doc.Find(`#composer-media [data-testid="media-picker-results"]`).Length())
	require.Equal(t, 1, doc.Find(`dialog#composer-upload form[data-media-upload]`).Length())
}

func TestComposerWithoutTeamsOrAccounts(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	doc := parse(t, b.get(t, "/composer"))
	require.Contains(t, doc.Find(`[data-testid="empty-state"]`).Text(), "Create a team first")
	team := b.createTeam(t, "Empty team")
	doc = parse(t, b.get(t, "/composer?teamId="+team.ID))
	require.Contains(t, doc.Find(`[data-testid="composer-accounts"]`).Text(), "No connected accounts yet")
	require.Equal(t, "/teams/"+team.ID, doc.Find(`[data-testid="composer-accounts"] [data-testid="empty-state-action"]`).AttrOr("href", ""))
	require.Equal(t, http.StatusNotFound, b.get(t, "/composer?teamId=00000000-0000-0000-0000-000000000000").Code)
}

func TestComposerSchedulesInTheViewersTimezone(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "America/New_York")
	team := b.postsTeam(t)
	year := time.Now().Year() + 1

	// 02:30 on the spring-forward Sunday does not exist in New York: refused in place, input kept.
	form := url.Values{"teamId": {team.ID}, "networks": {"TWITTER", "BLUESKY"}, "text": {"Spring launch 🌱"},
		"BLUESKY.text": {"Spring launch on Bluesky"}, "TWITTER.replySettings": {"FOLLOWING"},
		"date": {dstSunday(year).Format("2006-01-02")}, "time": {"02:30"}, "action": {"schedule"}}
	rec := b.post(t, "/composer", form)
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`#composer-time-error`).Text(), "does not exist on that day in America/New_York")
	require.Equal(t, "Spring launch 🌱", doc.Find(`#composer-text`).Text())
	require.Equal(t, "Spring launch on Bluesky", doc.Find(`[name="BLUESKY.text"]`).Text())
	require.Equal(t, "FOLLOWING", doc.Find(`[name="TWITTER.replySettings"] option[selected]`).AttrOr("value", ""))
	require.True(t, doc.Find(`input[name="networks"][value="TWITTER"]`).Is("[checked]"))

	// 03:30 exists: the post is scheduled at 07:30 UTC (EDT), and its page says so.
	form.Set("time", "03:30")
	rec = b.post(t, "/composer", form)
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	loc := rec.Header().Get("Location")
	require.True(t, strings.HasPrefix(loc, "/posts/"), loc)
	p, err := b.pub.GetPost(b.ctx(t), strings.TrimPrefix(loc, "/posts/"))
	require.NoError(t, err)
	require.Equal(t, app.PostScheduled, p.Status)
	require.Equal(t, dstSunday(year).Format("2006-01-02")+"T07:30:00Z", p.PostDate.UTC().Format(time.RFC3339))
	require.Equal(t, "Spring launch 🌱", x.Of(&p.Data).Text)
	require.Equal(t, "FOLLOWING", x.Of(&p.Data).ReplySettings)
	require.Equal(t, "Spring launch on Bluesky", bluesky.Of(&p.Data).Text)
	require.Equal(t, []app.Network{app.Twitter, app.Bluesky}, p.SocialAccountTypes)

	doc = parse(t, b.get(t, loc))
	require.Equal(t, "SCHEDULED", doc.Find(`[data-testid="post-live"]`).AttrOr("data-status", ""))
	require.Contains(t, doc.Find(`[data-testid="post-when"]`).Text(), "03:30")
	require.Equal(t, 2, doc.Find(`[data-testid^="target-"]`).Length())
	require.Empty(t, doc.Find(`[data-testid="post-live"]`).AttrOr("hx-trigger", ""), "a post due next year is not polled")
	require.Equal(t, dstSunday(year).Format("2006-01-02"), doc.Find(`#reschedule-date`).AttrOr("value", ""))
}

// dstSunday is the second Sunday of March of year (US clocks go forward at 02:00).
func dstSunday(year int) time.Time {
	d := time.Date(year, time.March, 1, 0, 0, 0, 0, time.UTC)
	for d.Weekday() != time.Sunday {
		d = d.AddDate(0, 0, 1)
	}
	return d.AddDate(0, 0, 7)
}

func TestComposerRefusalsStayInPlace(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	rec := b.post(t, "/composer", url.Values{"teamId": {team.ID}, "text": {"Nothing chosen"}, "action": {"schedule"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="error-networks"]`).Text(), "Choose at least one network")
	require.Contains(t, doc.Find(`#composer-date-error`).Text(), "Choose the day to publish")
	require.Equal(t, "Nothing chosen", doc.Find(`#composer-text`).Text())
	// htmx submits the form: the composer comes back as a fragment with 200 (htmx swaps 2xx only).
	rec = b.post(t, "/composer", url.Values{"teamId": {team.ID}, "text": {"Nothing chosen"}, "action": {"schedule"}}, "HX-Request", "true", "HX-Target", "main")
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotContains(t, rec.Body.String(), "<nav")
	require.Contains(t, parse(t, rec).Find(`[data-testid="error-networks"]`).Text(), "Choose at least one network")

	// A draft needs neither; it is saved as it is.
	rec = b.post(t, "/composer", url.Values{"teamId": {team.ID}, "text": {"Idea for later"}, "networks": {"LINKEDIN"}, "action": {"draft"}}, "HX-Request", "true", "HX-Target", "main")
	require.Equal(t, http.StatusNoContent, rec.Code, rec.Body.String())
	p, err := b.pub.GetPost(b.ctx(t), strings.TrimPrefix(rec.Header().Get("HX-Redirect"), "/posts/"))
	require.NoError(t, err)
	require.Equal(t, app.PostDraft, p.Status)
	require.Equal(t, "Idea for later", p.Title)

	// A number that is not one is said beside its field.
	rec = b.post(t, "/composer", url.Values{"teamId": {team.ID}, "text": {"Poll"}, "networks": {"TWITTER"}, "action": {"draft"},
		"TWITTER.poll.durationMinutes": {"ten"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`#f-TWITTER-poll-durationMinutes-error`).Text(), "Enter a whole number")
	require.Equal(t, 1, doc.Find(`[data-testid="tab-TWITTER"] .net-tab__errors`).Length())
}

func TestComposerPreviewAndCounters(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	rec := b.post(t, "/composer/preview", url.Values{"teamId": {team.ID}, "networks": {"TWITTER", "LINKEDIN"}, "text": {"Hello, world"},
		"LINKEDIN.text": {"Hello, professional world"}, "TWITTER.thread": {"Second\n---\nThird"}}, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Hello, world", strings.TrimSpace(doc.Find(`[data-testid="preview-TWITTER"] [data-testid="preview-text"]`).Text()))
	require.Equal(t, "Hello, professional world", strings.TrimSpace(doc.Find(`[data-testid="preview-LINKEDIN"] [data-testid="preview-text"]`).Text()))
	require.Contains(t, doc.Find(`[data-testid="preview-TWITTER"]`).Text(), "@ada")
	require.Equal(t, 2, doc.Find(`[data-testid="preview-TWITTER"] [data-testid="preview-thread"] li`).Length())
	require.Equal(t, "true", doc.Find(`#composer-counters`).AttrOr("hx-swap-oob", ""))
	// The counters count as each network does, against its limit (the post rules' TextLength).
	require.Equal(t, "12/280", strings.Join(strings.Fields(doc.Find(`[data-testid="counter-TWITTER"] .counter__value`).Text()), ""))
	require.Equal(t, "25/3000", strings.Join(strings.Fields(doc.Find(`[data-testid="counter-LINKEDIN"] .counter__value`).Text()), ""))
	long := strings.Repeat("word ", 60) // 300 characters: past X's 280
	rec = b.post(t, "/composer/preview", url.Values{"teamId": {team.ID}, "networks": {"TWITTER"}, "text": {long}}, "HX-Request", "true")
	doc = parse(t, rec)
	require.True(t, doc.Find(`[data-testid="counter-TWITTER"]`).HasClass("counter--over"))
	require.NotEmpty(t, doc.Find(`[data-testid="preview-TWITTER"] .preview__overflow`).Text())
}

func TestPostsListFilters(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	later := time.Now().Add(48 * time.Hour)
	b.createPost(t, team.ID, app.PostScheduled, later, "Black Friday deals", app.Twitter, app.LinkedIn)
	b.createPost(t, team.ID, app.PostDraft, later, "Winter newsletter", app.Bluesky)
	b.createPost(t, team.ID, app.PostReview, later, "Holiday teaser", app.Twitter)

	doc := parse(t, b.get(t, "/posts"))
	require.Equal(t, 3, doc.Find(`[data-testid="post-row"]`).Length())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-posts"]`).AttrOr("aria-current", ""))
	require.Equal(t, "1", doc.Find(`[data-testid="review-count"]`).Text())

	doc = parse(t, b.get(t, "/posts?status=DRAFT"))
	require.Equal(t, 1, doc.Find(`[data-testid="post-row"]`).Length())
	require.Contains(t, doc.Find(`[data-testid="post-row"]`).Text(), "Winter newsletter")
	require.Equal(t, "DRAFT", doc.Find(`[data-testid="filter-status"] option[selected]`).AttrOr("value", ""))

	doc = parse(t, b.get(t, "/posts?platforms=LINKEDIN"))
	require.Equal(t, 1, doc.Find(`[data-testid="post-row"]`).Length())
	require.True(t, doc.Find(`[data-testid="filter-platform-LINKEDIN"]`).Is("[checked]"))

	rec := b.get(t, "/posts?q=holiday", "HX-Request", "true", "HX-Target", "posts-results")
	doc = parse(t, rec)
	require.Zero(t, doc.Find("nav").Length())
	require.Equal(t, 1, doc.Find(`[data-testid="post-row"]`).Length())
	require.Contains(t, doc.Text(), "Holiday teaser")

	from := later.AddDate(0, 0, 2).Format("2006-01-02")
	doc = parse(t, b.get(t, "/posts?from="+from))
	require.Contains(t, doc.Find(`[data-testid="posts-results"]`).Text(), "No posts match")
}

func TestApprovalQueue(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	p := b.createPost(t, team.ID, app.PostReview, time.Now().Add(72*time.Hour), "Needs a look", app.Twitter)
	q := b.createPost(t, team.ID, app.PostReview, time.Now().Add(96*time.Hour), "Second thoughts", app.Bluesky)

	doc := parse(t, b.get(t, "/posts/review"))
	require.Equal(t, 2, doc.Find(`[data-testid="post-row"]`).Length())
	require.Equal(t, 2, doc.Find(`[data-testid="review-approve"]`).Length())

	rec := b.post(t, "/posts/"+p.ID+"/approve", nil, "HX-Request", "true", "HX-Target", "post-"+p.ID)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="review-result"]`).Text(), "Approved: scheduled for")
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, app.PostScheduled, got.Status)

	rec = b.post(t, "/posts/"+q.ID+"/reject", url.Values{"note": {"Shorter, please"}}, "HX-Request", "true", "HX-Target", "post-"+q.ID)
	require.Equal(t, http.StatusOK, rec.Code)
	got, err = b.pub.GetPost(b.ctx(t), q.ID)
	require.NoError(t, err)
	require.Equal(t, app.PostDraft, got.Status)
	doc = parse(t, b.get(t, "/posts/"+q.ID))
	require.Contains(t, doc.Find(`[data-testid="post-review-note"]`).Text(), "Shorter, please")

	// A MEMBER sees the queue but cannot decide.
	member, _ := b.addMember(t, app.RoleMember, "Mia")
	doc = parse(t, b.getAs(t, member, "/posts/review"))
	require.Zero(t, doc.Find(`[data-testid="review-approve"]`).Length())
}

func TestPostPageShowsNetworksErrorsAndRetry(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	p := b.createPost(t, team.ID, app.PostScheduled, time.Now().Add(30*time.Second), "Due soon", app.Twitter, app.LinkedIn)

	// Due within minutes: the page follows it every 2 s.
	doc := parse(t, b.get(t, "/posts/"+p.ID))
	live := doc.Find(`[data-testid="post-live"]`)
	require.Equal(t, "every 2s", live.AttrOr("hx-trigger", ""))
	require.Equal(t, "/posts/"+p.ID, live.AttrOr("hx-get", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="target-TWITTER"]`).Length())
	// The poll gets the live part alone.
	rec := b.get(t, "/posts/"+p.ID, "HX-Request", "true", "HX-Target", "post-live")
	require.NotContains(t, rec.Body.String(), "<nav")
	require.Contains(t, rec.Body.String(), `id="post-live"`)

	// The pipeline's outcome, as it records it: X posted with a permalink, LinkedIn failed.
	ctx := context.Background()
	_, err := b.pool.Exec(ctx, `UPDATE publish_targets SET status = 'POSTED', external_id = '1790', permalink = 'https://x.com/ada/status/1790', posted_at = now(), attempts = 1
		WHERE post_id = $1 AND network = 'TWITTER'`, p.ID)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE publish_targets SET status = 'ERROR', attempts = 1, error = 'LinkedIn refused the post: duplicate content',
		error_verbose = '{"code":"DUPLICATE_POST","errorMessage":"Content is a duplicate of urn:li:share:1","isTransient":false,"retryability":"non_retryable","httpStatus":422}'
		WHERE post_id = $1 AND network = 'LINKEDIN'`, p.ID)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE posts SET status = 'ERROR' WHERE id = $1`, p.ID)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE organizations SET show_verbose_errors = true WHERE id = $1`, b.orgID())
	require.NoError(t, err)

	doc = parse(t, b.get(t, "/posts/"+p.ID))
	require.Empty(t, doc.Find(`[data-testid="post-live"]`).AttrOr("hx-trigger", ""), "every network is final: no polling")
	x := doc.Find(`[data-testid="target-TWITTER"]`)
	require.Equal(t, "POSTED", x.AttrOr("data-status", ""))
	require.Equal(t, "https://x.com/ada/status/1790", x.Find(`[data-testid="permalink"]`).AttrOr("href", ""))
	li := doc.Find(`[data-testid="target-LINKEDIN"]`)
	require.Contains(t, li.Find(`[data-testid="target-error"]`).Text(), "duplicate content")
	verbose := li.Find(`[data-testid="target-verbose"]`).Text()
	for _, s := range []string{"DUPLICATE_POST", "Content is a duplicate", "422", "non_retryable"} {
		require.Contains(t, verbose, s)
	}
	require.Equal(t, 1, doc.Find(`[data-testid="post-retry"]`).Length())
	require.Zero(t, doc.Find(`[data-testid="post-edit"]`).Length())

	rec = b.post(t, "/posts/"+p.ID+"/retry", nil, "HX-Request", "true", "HX-Target", "post-live")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="post-flash"]`).Text(), "Retrying")
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	for _, tg := range got.Targets {
		if tg.Network == app.Twitter {
			require.Equal(t, app.PostPosted, tg.Status, "a posted network is not published again")
		} else {
			require.NotEqual(t, app.PostError, tg.Status)
		}
	}
}

func TestPostEditAndReschedule(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.setTimezone(t, "Europe/Paris")
	team := b.postsTeam(t)
	at := time.Date(time.Now().Year()+1, time.June, 10, 8, 0, 0, 0, time.UTC) // 10:00 in Paris
	p := b.createPost(t, team.ID, app.PostScheduled, at, "Summer sale", app.Twitter, app.Bluesky)

	doc := parse(t, b.get(t, "/posts/"+p.ID+"/edit"))
	require.Equal(t, "Summer sale", doc.Find(`#composer-text`).Text())
	require.Equal(t, "10:00", doc.Find(`#composer-time`).AttrOr("value", ""))
	require.True(t, doc.Find(`input[name="networks"][value="BLUESKY"]`).Is("[checked]"))
	require.Equal(t, "/posts/"+p.ID+"/edit", doc.Find(`#composer-form`).AttrOr("action", ""))

	vals := url.Values{}
	doc.Find(`#composer-form input, #composer-form textarea, #composer-form select`).Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		if name == "" || name == "_csrf" {
			return
		}
		switch {
		case s.Is("textarea"):
			vals.Add(name, s.Text())
		case s.Is("select"):
			vals.Add(name, s.Find("option[selected]").AttrOr("value", ""))
		case s.Is(`[type="checkbox"]`):
			if s.Is("[checked]") {
				vals.Add(name, s.AttrOr("value", "on"))
			}
		default:
			vals.Add(name, s.AttrOr("value", ""))
		}
	})
	vals.Set("text", "Summer sale: 30% off")
	vals.Set("action", "schedule")
	rec := b.post(t, "/posts/"+p.ID+"/edit", vals)
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, "Summer sale: 30% off", x.Of(&got.Data).Text)
	require.True(t, got.PostDate.Equal(at))

	rec = b.post(t, "/posts/"+p.ID+"/reschedule", url.Values{"date": {at.Format("2006-01-02")}, "time": {"18:45"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	got, err = b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, at.Format("2006-01-02")+"T16:45:00Z", got.PostDate.UTC().Format(time.RFC3339))
}

func TestPostPageUnknownIs404(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	require.Equal(t, http.StatusNotFound, b.get(t, "/posts/00000000-0000-0000-0000-000000000000").Code)
	require.Equal(t, http.StatusNotFound, b.get(t, "/posts/not-a-post").Code)
}

// After an upload the composer's media grid reloads with the ticked uploads still ticked.
func TestComposerMediaKeepsSelection(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.postsTeam(t)
	one := b.upload(t, pngBytes(t, 4, 3, false), "image/png")
	two := b.upload(t, pngBytes(t, 5, 3, false), "image/png")
	rec := b.get(t, "/composer/media?uploadIds="+one.ID, "HX-Request", "true", "HX-Target", "composer-media")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.True(t, doc.Find(`input[name="uploadIds"][value="`+one.ID+`"]`).Is("[checked]"))
	require.False(t, doc.Find(`input[name="uploadIds"][value="`+two.ID+`"]`).Is("[checked]"))
	require.Equal(t, "checkbox", doc.Find(`input[name="uploadIds"]`).First().AttrOr("type", ""))

	// A network's own media: the same grid under its own name.
	rec = b.get(t, "/composer/media?name=TWITTER.uploadIds&TWITTER.uploadIds="+two.ID, "HX-Request", "true")
	doc = parse(t, rec)
	require.Equal(t, 2, doc.Find(`input[name="TWITTER.uploadIds"]`).Length())
	require.True(t, doc.Find(`input[name="TWITTER.uploadIds"][value="`+two.ID+`"]`).Is("[checked]"))
	require.Zero(t, doc.Find(`input[name="uploadIds"]`).Length())
	page := parse(t, b.get(t, "/composer"))
	require.Equal(t, "/composer/media?name=TWITTER.uploadIds", page.Find(`#own-media-grid-TWITTER`).AttrOr("hx-get", ""))

	// The previews show the chosen image on every network.
	rec = b.post(t, "/composer/preview", url.Values{"networks": {"TWITTER", "LINKEDIN"}, "text": {"With a picture"}, "uploadIds": {two.ID}}, "HX-Request", "true")
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find(`[data-testid="preview-TWITTER"] .preview__media img`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="preview-LINKEDIN"] .preview__media img`).Length())
}

// Paging the composer's media keeps the uploads ticked on other pages (they come first).
func TestComposerMediaPagingKeepsChoices(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	b.postsTeam(t)
	var first *app.Upload
	for i := 0; i < 25; i++ {
		u := b.upload(t, pngBytes(t, 3+i, 2, false), "image/png")
		if i == 24 {
			first = u // the newest: on page 1
		}
	}
	doc := parse(t, b.get(t, "/composer"))
	next := doc.Find(`#composer-media [data-testid="pager-next"]`).AttrOr("hx-get", "")
	require.Equal(t, "/composer/media?page=2", next)
	require.Equal(t, "#composer-media", doc.Find(`#composer-media`).AttrOr("hx-include", ""))
	doc = parse(t, b.get(t, next+"&uploadIds="+first.ID, "HX-Request", "true", "HX-Target", "media-picker-results"))
	boxes := doc.Find(`input[name="uploadIds"]`)
	require.Equal(t, 2, boxes.Length()) // the one left on page 2, and the choice from page 1
	require.Equal(t, first.ID, boxes.First().AttrOr("value", ""))
	require.True(t, boxes.First().Is("[checked]"))
}

func TestPostDeleteAndSentBackNote(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	p := b.createPost(t, team.ID, app.PostReview, time.Now().Add(24*time.Hour), "Needs work", app.Twitter)
	_, err := b.pub.RejectPost(b.ctx(t), p.ID, "Add the price")
	require.NoError(t, err)
	doc := parse(t, b.get(t, "/posts/"+p.ID+"/edit"))
	require.Contains(t, doc.Find(`[data-testid="composer-review-note"]`).Text(), "Add the price")

	rec := b.get(t, "/posts/"+p.ID+"/delete", "HX-Request", "true", "HX-Target", "org-dialog")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-dialog"]`).Text(), "Delete “Needs work”?")
	rec = b.post(t, "/posts/"+p.ID+"/delete", nil, "HX-Request", "true", "HX-Target", "org-dialog")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Equal(t, "/posts", rec.Header().Get("HX-Redirect"))
	got, err := b.pub.GetPost(b.ctx(t), p.ID)
	require.NoError(t, err)
	require.Equal(t, app.PostDeleted, got.Status)
	doc = parse(t, b.get(t, "/posts/"+p.ID))
	require.Zero(t, doc.Find(`[data-testid="post-delete"]`).Length())
	require.Zero(t, doc.Find(`[data-testid="post-edit"]`).Length())
}

// A network's limit on the shared text is said under the shared text, naming the network.
func TestComposerSharedTextTooLongForOneNetwork(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	long := strings.Repeat("coffee ", 50) // 350 characters: fine on LinkedIn, too long on X
	rec := b.post(t, "/composer", url.Values{"teamId": {team.ID}, "networks": {"TWITTER", "LINKEDIN"}, "text": {long}, "action": {"schedule"},
		"date": {time.Now().AddDate(0, 0, 3).Format("2006-01-02")}, "time": {"10:00"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="error-text"]`).Text(), "X: ")
	require.Equal(t, strings.TrimRight(long, " "), strings.TrimRight(doc.Find(`#composer-text`).Text(), " "))
}
