package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Team is a team (social set) record; its JSON is the event payload of team.* events.
type Team struct {
	ID             string     `json:"id"`
	Name           string     `json:"name"`
	AvatarURL      *string    `json:"avatarUrl"`
	OrganizationID string     `json:"organizationId"`
	CreatedByID    string     `json:"createdById"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
	DeletedAt      *time.Time `json:"deletedAt"`
}

// TeamDetail is a team with its organization and the organization's creator. Bots, social
// accounts and the bio page arrive with their capabilities.
type TeamDetail struct {
	Team
	Organization   Organization
	CreatedBy      OrgOwner
	SocialAccounts []SocialAccount
}

// Event kinds of teams.
const (
	EventTeamCreated = "team.created"
	EventTeamUpdated = "team.updated"
	EventTeamDeleted = "team.deleted"
)

// TeamParams is the body of team creation and update.
type TeamParams struct {
	Name       *string
	AvatarURL  *string
	CopyTeamID *string // creation only: start from another team of the organization
}

// DefaultTeamListLimit is the spec's page size of GET /team.
const DefaultTeamListLimit = 10

func validateTeam(p TeamParams, creating bool) error {
	var issues []Issue
	if p.Name != nil || creating {
		name := ""
		if p.Name != nil {
			name = strings.TrimSpace(*p.Name)
		}
		if err := checkLength("name", name, 3, 80); err != nil {
			issues = append(issues, ErrorIssues(err)...)
		}
	}
	if p.AvatarURL != nil && *p.AvatarURL != "" {
		if u, err := url.Parse(*p.AvatarURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			issues = append(issues, InvalidString("url", "avatarUrl"))
		}
	}
	if len(issues) > 0 {
		return Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	return nil
}

// CreateTeam creates a team within the plan's team limit; team.created is written with it.
func (s *Service) CreateTeam(ctx context.Context, p TeamParams) (*Team, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageTeams)
	if err != nil {
		return nil, err
	}
	if err := validateTeam(p, true); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(*p.Name)
	var out Team
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if err := q.LockOrganization(ctx, pr.OrganizationID); err != nil {
			return fmt.Errorf("app: create team: %w", err)
		}
		org, err := q.GetOrganization(ctx, pr.OrganizationID)
		if err != nil {
			return NotFoundOr(err, "Organization", "app: create team")
		}
		n, err := q.CountTeams(ctx, store.CountTeamsParams{OrganizationID: pr.OrganizationID})
		if err != nil {
			return fmt.Errorf("app: create team: %w", err)
		}
		if limit := LimitsOf(Plan(org.Plan)).Teams; limit > 0 && int(n) >= limit {
			return Errorf(EForbidden, "The %s plan allows at most %d teams; delete one to create another", org.Plan, limit)
		}
		avatar := p.AvatarURL
		if p.CopyTeamID != nil {
			src, err := q.GetTeam(ctx, store.GetTeamParams{ID: *p.CopyTeamID, OrganizationID: pr.OrganizationID})
			if err != nil {
				return NotFoundOr(err, "Team to copy", "app: create team")
			}
			if avatar == nil {
				avatar = src.AvatarUrl
			}
		}
		row, err := q.CreateTeam(ctx, store.CreateTeamParams{OrganizationID: pr.OrganizationID, CreatedByID: pr.UserID, Name: name, AvatarUrl: avatar})
		if err != nil {
			return fmt.Errorf("app: create team: %w", err)
		}
		out = teamFromRow(row)
		return s.recordTeamChange(ctx, tx, pr, EventTeamCreated, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListTeams answers the organization's teams with details, oldest first, filtered by name.
func (s *Service) ListTeams(ctx context.Context, search string, page Page) ([]TeamDetail, int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	var sp *string
	if search = strings.TrimSpace(search); search != "" {
		sp = &search
	}
	total, err := s.q.CountTeams(ctx, store.CountTeamsParams{OrganizationID: pr.OrganizationID, Search: sp})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list teams: %w", err)
	}
	rows, err := s.q.ListTeams(ctx, store.ListTeamsParams{OrganizationID: pr.OrganizationID, Search: sp, Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list teams: %w", err)
	}
	org, owner, err := s.organizationAndOwner(ctx, s.db, pr.OrganizationID)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	accounts, err := s.teamSocialAccounts(ctx, pr.OrganizationID, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]TeamDetail, 0, len(rows))
	for _, r := range rows {
		out = append(out, TeamDetail{Team: teamFromRow(r), Organization: org, CreatedBy: owner, SocialAccounts: accounts[r.ID]})
	}
	return out, int(total), nil
}

// GetTeam answers one team of the caller's organization.
func (s *Service) GetTeam(ctx context.Context, id string) (*TeamDetail, error) {
	t, _, err := s.GetTeamVersioned(ctx, id)
	return t, err
}

// GetTeamVersioned is GetTeam with the version of the rows read (store/team_read.go).
func (s *Service) GetTeamVersioned(ctx context.Context, id string) (*TeamDetail, int64, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, 0, err
	}
	// One round trip: what organizationAndOwner and teamSocialAccounts read, batched with the team.
	r, err := store.ReadTeam(ctx, s.db, pr.OrganizationID, id)
	if err != nil {
		return nil, 0, NotFoundOr(err, "Team", "app: get team") // not a uuid: 404
	}
	if len(r.Team) == 0 {
		return nil, 0, NotFound("Team")
	}
	if len(r.Organization) == 0 {
		return nil, 0, NotFound("Organization")
	}
	o := r.Organization[0]
	// A deleted creator is still the creator: shown by id, without failing the read.
	owner := OrgOwner{User: User{ID: o.CreatedByID}}
	if len(r.Creator) > 0 {
		u := r.Creator[0]
		owner = OrgOwner{User: userFromRow(u), UpdatedAt: u.UpdatedAt, DeletedAt: u.DeletedAt}
	}
	var accounts []SocialAccount
	for _, a := range r.Accounts {
		accounts = append(accounts, SocialAccountFromRow(a))
	}
	return &TeamDetail{Team: teamFromRow(r.Team[0]), Organization: organizationFromRow(o), CreatedBy: owner, SocialAccounts: accounts}, r.Version, nil
}

// UpdateTeam renames a team or changes its avatar (an empty avatarUrl removes it).
func (s *Service) UpdateTeam(ctx context.Context, id string, p TeamParams) (*Team, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageTeams)
	if err != nil {
		return nil, err
	}
	if err := validateTeam(p, false); err != nil {
		return nil, err
	}
	var out Team
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		cur, err := q.GetTeam(ctx, store.GetTeamParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Team", "app: update team")
		}
		name, avatar := cur.Name, cur.AvatarUrl
		if p.Name != nil {
			name = strings.TrimSpace(*p.Name)
		}
		if p.AvatarURL != nil {
			avatar = p.AvatarURL
			if *p.AvatarURL == "" {
				avatar = nil
			}
		}
		row, err := q.UpdateTeam(ctx, store.UpdateTeamParams{ID: id, OrganizationID: pr.OrganizationID, Name: name, AvatarUrl: avatar})
		if err != nil {
			return NotFoundOr(err, "Team", "app: update team")
		}
		out = teamFromRow(row)
		return s.recordTeamChange(ctx, tx, pr, EventTeamUpdated, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteTeam soft-deletes a team and answers it.
func (s *Service) DeleteTeam(ctx context.Context, id string) (*Team, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageTeams)
	if err != nil {
		return nil, err
	}
	var out Team
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).DeleteTeam(ctx, store.DeleteTeamParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Team", "app: delete team")
		}
		out = teamFromRow(row)
		return s.recordTeamChange(ctx, tx, pr, EventTeamDeleted, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// recordTeamChange writes the audit item and the event of a team change in its transaction.
func (s *Service) recordTeamChange(ctx context.Context, tx pgx.Tx, pr *Principal, kind string, t Team) error {
	if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: kind, TargetType: "team", TargetID: t.ID, Metadata: map[string]any{"name": t.Name}})); err != nil {
		return err
	}
	return s.emit(ctx, tx, pr.OrganizationID, kind, t)
}

func teamFromRow(r store.Team) Team {
	return Team{ID: r.ID, Name: r.Name, AvatarURL: r.AvatarUrl, OrganizationID: r.OrganizationID, CreatedByID: r.CreatedByID,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
}
