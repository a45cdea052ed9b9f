package app

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/crier/crier/store"
)

// Platform statuses, as the Health record spells them.
const (
	StatusOperational = "operational"
	StatusDegraded    = "degraded"
	StatusOutage      = "outage"
	StatusMaintenance = "maintenance"
)

// PlatformStatus is one network's status in the Health record.
type PlatformStatus struct {
	Status    string
	Note      string
	Until     *time.Time
	UpdatedAt time.Time
}

// Health is the answer of GET /api/v1.
type Health struct {
	Status    string
	CreatedAt time.Time
	Note      string
	Platforms map[Network]PlatformStatus
}

// Health reports Crier's own status and every network's. A network whose window has ended reads
// operational even before the periodic job resets it.
func (s *Service) Health(ctx context.Context) (*Health, error) {
	rows, err := s.q.ListPlatformStatuses(ctx)
	if err != nil {
		return nil, fmt.Errorf("app: health: %w", err)
	}
	now := s.now()
	h := &Health{Status: StatusOperational, CreatedAt: now.UTC(), Platforms: make(map[Network]PlatformStatus, len(Networks))}
	for _, n := range Networks {
		h.Platforms[n] = PlatformStatus{Status: StatusOperational, Note: "No known issues"}
	}
	var troubled []string
	for _, r := range rows {
		p := platformStatusFromRow(r)
		if p.Until != nil && !p.Until.After(now) {
			p = PlatformStatus{Status: StatusOperational, UpdatedAt: *p.Until}
		}
		if p.Note == "" {
			p.Note = "No known issues"
			if p.Status != StatusOperational {
				p.Note = strings.ToUpper(p.Status[:1]) + p.Status[1:]
			}
		}
		n := Network(r.Network)
		h.Platforms[n] = p
		if p.Status != StatusOperational {
			troubled = append(troubled, fmt.Sprintf("%s (%s)", n.DisplayName(), p.Status))
		}
	}
	sort.Strings(troubled)
	switch {
	case len(troubled) == 0:
		h.Note = "All systems operational"
	default:
		h.Status = StatusDegraded
		h.Note = "Crier is operational; some networks report issues: " + strings.Join(troubled, ", ")
	}
	return h, nil
}

// SetPlatformStatusParams announces an incident or a maintenance window on a network.
type SetPlatformStatusParams struct {
	Network Network
	Status  string
	Note    string
	Until   *time.Time // nil: until changed again
}

// SetPlatformStatus records a network's status (an operator action, from the CLI).
func (s *Service) SetPlatformStatus(ctx context.Context, p SetPlatformStatusParams) (*PlatformStatus, error) {
	var issues []Issue
	if !p.Network.Valid() {
		issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: fmt.Sprintf("Invalid network %q", p.Network), Path: []any{"network"}})
	}
	switch p.Status {
	case StatusOperational, StatusDegraded, StatusOutage, StatusMaintenance:
	default:
		issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: "Expected 'operational' | 'degraded' | 'outage' | 'maintenance', received '" + p.Status + "'", Path: []any{"status"}})
	}
	if len(p.Note) > 500 {
		issues = append(issues, StringMax(500, "note"))
	}
	if p.Until != nil && !p.Until.After(s.now()) {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "until must be in the future", Path: []any{"until"}})
	}
	if len(issues) > 0 {
		return nil, Invalid("Invalid platform status", issues...)
	}
	row, err := s.q.SetPlatformStatus(ctx, store.SetPlatformStatusParams{Network: string(p.Network), Status: p.Status, Note: p.Note, Until: p.Until})
	if err != nil {
		return nil, fmt.Errorf("app: set platform status: %w", err)
	}
	ps := platformStatusFromRow(row)
	return &ps, nil
}

// ExpirePlatformStatuses resets statuses whose window has ended; the periodic job calls it.
func (s *Service) ExpirePlatformStatuses(ctx context.Context) (int64, error) {
	n, err := s.q.ExpirePlatformStatuses(ctx)
	if err != nil {
		return 0, fmt.Errorf("app: expire platform statuses: %w", err)
	}
	return n, nil
}

func platformStatusFromRow(r store.PlatformStatus) PlatformStatus {
	return PlatformStatus{Status: r.Status, Note: r.Note, Until: r.Until, UpdatedAt: r.UpdatedAt}
}
