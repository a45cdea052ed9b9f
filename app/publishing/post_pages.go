package publishing

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// CalendarPost is what the calendar shows of a post: the rest of a post (payloads, uploads,
// accounts) stays in the database.
type CalendarPost struct {
	ID         string
	Title      string
	Status     app.PostStatus
	PostDate   time.Time
	PostedDate *time.Time
	Networks   []app.Network // its POST targets', by name (else the networks it was written for)
	DayTotal   int           // CalendarDays: the posts of its local day, shown or not
}

// CalendarPosts answers a team's live posts dated in [from, to), in time order, at most limit, in
// one query. A team of another organization has none.
func (s *Service) CalendarPosts(ctx context.Context, teamID string, from, to time.Time, limit int) ([]CalendarPost, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	if !app.IsUUID(teamID) {
		return []CalendarPost{}, nil
	}
	rows, err := s.q.ListCalendarPosts(ctx, store.ListCalendarPostsParams{OrganizationID: pr.OrganizationID, TeamID: teamID,
		PostDateFrom: from, PostDateTo: to, Lim: int32(limit)})
	if err != nil {
		return nil, fmt.Errorf("app: calendar posts: %w", err)
	}
	out := make([]CalendarPost, len(rows))
	for i, r := range rows {
		out[i] = calendarPost(r.ID, r.Title, r.Status, r.PostDate, r.PostedDate, r.Networks)
	}
	return out, nil
}

// CalendarDays answers, for each local day of loc in [from, to), the first perDay of a team's live
// posts there (a POSTED post stands at its posting time) with the day's total, in one query: the
// month view shows a few posts a day and counts the rest.
func (s *Service) CalendarDays(ctx context.Context, teamID string, from, to time.Time, loc *time.Location, perDay int) ([]CalendarPost, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	if !app.IsUUID(teamID) {
		return []CalendarPost{}, nil
	}
	rows, err := s.q.ListCalendarDays(ctx, store.ListCalendarDaysParams{Tz: loc.String(), OrganizationID: pr.OrganizationID, TeamID: teamID,
		PostDateFrom: from, PostDateTo: to, PerDay: int64(perDay)})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "22023" { // invalid_parameter_value: the zone
		// Go knows the zone and PostgreSQL's tzdata does not: group the posts here instead.
		return s.calendarDaysInGo(ctx, teamID, from, to, loc, perDay)
	}
	if err != nil {
		return nil, fmt.Errorf("app: calendar days: %w", err)
	}
	out := make([]CalendarPost, len(rows))
	for i, r := range rows {
		out[i] = calendarPost(r.ID, r.Title, r.Status, r.PostDate, r.PostedDate, r.Networks)
		out[i].DayTotal = int(r.DayTotal)
	}
	return out, nil
}

func (s *Service) calendarDaysInGo(ctx context.Context, teamID string, from, to time.Time, loc *time.Location, perDay int) ([]CalendarPost, error) {
	all, err := s.CalendarPosts(ctx, teamID, from, to, calendarDaysFallbackLimit)
	if err != nil {
		return nil, err
	}
	byDay := map[string][]int{}
	for i, p := range all {
		day := calendarAt(p).In(loc).Format(time.DateOnly)
		byDay[day] = append(byDay[day], i)
	}
	out := []CalendarPost{}
	for _, idx := range byDay {
		sort.Slice(idx, func(a, b int) bool { return calendarAt(all[idx[a]]).Before(calendarAt(all[idx[b]])) })
		for _, i := range idx[:min(perDay, len(idx))] {
			p := all[i]
			p.DayTotal = len(idx)
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return calendarAt(out[a]).Before(calendarAt(out[b])) })
	return out, nil
}

// calendarDaysFallbackLimit bounds the posts calendarDaysInGo reads.
const calendarDaysFallbackLimit = 1000

// calendarAt is where the calendar places a post: its posting time once POSTED, else its date.
func calendarAt(p CalendarPost) time.Time {
	if p.Status == app.PostPosted && p.PostedDate != nil {
		return *p.PostedDate
	}
	return p.PostDate
}

func calendarPost(id, title, status string, postDate time.Time, postedDate *time.Time, networks []string) CalendarPost {
	p := CalendarPost{ID: id, Title: title, Status: app.PostStatus(status), PostDate: postDate, PostedDate: postedDate,
		Networks: make([]app.Network, len(networks))}
	for i, n := range networks {
		p.Networks[i] = app.Network(n)
	}
	return p
}

// CountPosts answers how many live posts of a team have status (the approval queue's tab). A
// team of another organization has none.
func (s *Service) CountPosts(ctx context.Context, teamID string, status app.PostStatus) (int, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return 0, err
	}
	if !app.IsUUID(teamID) {
		return 0, nil
	}
	n, err := s.q.CountTeamPostsWithStatus(ctx, store.CountTeamPostsWithStatusParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Status: string(status)})
	if err != nil {
		return 0, fmt.Errorf("app: count posts: %w", err)
	}
	return int(n), nil
}
