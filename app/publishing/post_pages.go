package publishing

import (
	"context"
	"fmt"
	"time"

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
		out[i] = CalendarPost{ID: r.ID, Title: r.Title, Status: app.PostStatus(r.Status), PostDate: r.PostDate, PostedDate: r.PostedDate,
			Networks: make([]app.Network, len(r.Networks))}
		for j, n := range r.Networks {
			out[i].Networks[j] = app.Network(n)
		}
	}
	return out, nil
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
