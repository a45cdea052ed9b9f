package app

import (
	"context"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// OverviewWindow is how far back the home page counts published and failed posts.
const OverviewWindow = 30 * 24 * time.Hour

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
}

// Overview answers the caller's organization's figures, read in one statement.
func (s *Service) Overview(ctx context.Context) (*Overview, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	row, err := s.q.GetOrganizationOverview(ctx, store.GetOrganizationOverviewParams{
		OrganizationID: p.OrganizationID,
		Since:          s.now().Add(-OverviewWindow),
	})
	if err != nil {
		return nil, fmt.Errorf("app: overview: %w", err)
	}
	return &Overview{
		Scheduled: int(row.Scheduled), Published: int(row.Published), Failed: int(row.Failed),
		HasAccount: row.HasAccount, HasUpload: row.HasUpload, HasPost: row.HasPost, HasAPIKey: row.HasApiKey,
	}, nil
}
