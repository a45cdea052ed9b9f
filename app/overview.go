package app

import (
	"context"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// OverviewWindow is how far back the home page counts published and failed posts; OverviewAhead how
// far ahead it lists scheduled ones.
const (
	OverviewWindow = 30 * 24 * time.Hour
	OverviewAhead  = 7 * 24 * time.Hour
)

// OverviewPost is a post as the home page lists it.
type OverviewPost struct {
	ID       string
	Title    string
	PostDate time.Time
	Networks []Network
	Error    *string
}

// Overview is what the dashboard home shows of an organization: its post counts and which first
// steps it has taken.
type Overview struct {
	Scheduled int // waiting for their publish time
	Published int // posted within OverviewWindow
	Failed    int // failed within OverviewWindow

	HasAccount bool // a connected social account
	HasUpload  bool // an upload in the media library
	HasPost    bool // a post, whatever its status
	HasAPIKey  bool // a live API key

	Upcoming []OverviewPost // the next five scheduled within OverviewAhead, soonest first
	Failing  []OverviewPost // the last five failed within OverviewWindow, latest first
}

// Overview answers the caller's organization's figures and short lists (two statements).
func (s *Service) Overview(ctx context.Context) (*Overview, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	now := s.now()
	row, err := s.q.GetOrganizationOverview(ctx, store.GetOrganizationOverviewParams{
		OrganizationID: p.OrganizationID,
		Since:          now.Add(-OverviewWindow),
	})
	if err != nil {
		return nil, fmt.Errorf("app: overview: %w", err)
	}
	ov := &Overview{
		Scheduled: int(row.Scheduled), Published: int(row.Published), Failed: int(row.Failed),
		HasAccount: row.HasAccount, HasUpload: row.HasUpload, HasPost: row.HasPost, HasAPIKey: row.HasApiKey,
		Upcoming: []OverviewPost{}, Failing: []OverviewPost{},
	}
	posts, err := s.q.ListOverviewPosts(ctx, store.ListOverviewPostsParams{
		OrganizationID: p.OrganizationID, Until: now.Add(OverviewAhead), Since: now.Add(-OverviewWindow),
	})
	if err != nil {
		return nil, fmt.Errorf("app: overview posts: %w", err)
	}
	for _, r := range posts {
		op := OverviewPost{ID: r.ID, Title: r.Title, PostDate: r.PostDate, Error: r.Error, Networks: networksOf(r.SocialAccountTypes)}
		if r.List == "upcoming" {
			ov.Upcoming = append(ov.Upcoming, op)
		} else {
			ov.Failing = append(ov.Failing, op)
		}
	}
	return ov, nil
}
