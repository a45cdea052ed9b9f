package api

import (
	"context"

	"github.com/crier/crier/app"
)

// TeamCreateTeam answers POST /team with the Team record.
func (s *Server) TeamCreateTeam(ctx context.Context, req TeamCreateTeamRequestObject) (TeamCreateTeamResponseObject, error) {
	b := req.Body
	t, err := s.svc.CreateTeam(ctx, app.TeamParams{Name: &b.Name, AvatarURL: b.AvatarUrl, CopyTeamID: b.CopyTeamId})
	if err != nil {
		return nil, err
	}
	return TeamCreateTeam200JSONResponse(toTeam(*t)), nil
}

// TeamGetList answers GET /team: team details and the total.
func (s *Server) TeamGetList(ctx context.Context, req TeamGetListRequestObject) (TeamGetListResponseObject, error) {
	search := ""
	if req.Params.Search != nil {
		search = *req.Params.Search
	}
	page := app.PageOf(intOf(req.Params.Offset), intOf(req.Params.Limit), app.DefaultTeamListLimit)
	teams, total, err := s.svc.ListTeams(ctx, search, page)
	if err != nil {
		return nil, err
	}
	items := make([]TeamDetail, 0, len(teams))
	for _, t := range teams {
		items = append(items, toTeamDetail(t))
	}
	return TeamGetList200JSONResponse{Items: items, Total: float32(total)}, nil
}

// TeamGetTeam answers GET /team/{id}: from the cache of records when it holds the team at its
// current version (one narrow statement, store/team_read.go), else read, with the version hashed
// from the rows read, and kept at it — as GET post does.
func (s *Server) TeamGetTeam(ctx context.Context, req TeamGetTeamRequestObject) (TeamGetTeamResponseObject, error) {
	id := req.Id
	if b, err := s.teams.current(id, func() (int64, bool, error) { return s.svc.TeamVersion(ctx, id) }); err != nil {
		return nil, err
	} else if b != nil {
		return teamGetJSON{raw: b}, nil
	}
	at := s.svc.Core().Now()
	t, v, err := s.svc.GetTeamVersioned(ctx, id)
	if err != nil {
		return nil, err
	}
	return teamGetJSON{t: toTeamDetail(*t), keep: func(j []byte) { s.teams.put(id, v, at, j) }}, nil
}

// TeamUpdateTeam answers PATCH /team/{id}.
func (s *Server) TeamUpdateTeam(ctx context.Context, req TeamUpdateTeamRequestObject) (TeamUpdateTeamResponseObject, error) {
	t, err := s.svc.UpdateTeam(ctx, req.Id, app.TeamParams{Name: req.Body.Name, AvatarURL: req.Body.AvatarUrl})
	s.teams.forget(req.Id) // read next in one round trip (post_cache.go's forget)
	if err != nil {
		return nil, err
	}
	return TeamUpdateTeam200JSONResponse(toTeam(*t)), nil
}

// TeamDeleteTeam answers DELETE /team/{id} with the deleted team.
func (s *Server) TeamDeleteTeam(ctx context.Context, req TeamDeleteTeamRequestObject) (TeamDeleteTeamResponseObject, error) {
	t, err := s.svc.DeleteTeam(ctx, req.Id)
	s.teams.forget(req.Id)
	if err != nil {
		return nil, err
	}
	return TeamDeleteTeam200JSONResponse(toTeam(*t)), nil
}

func toTeam(t app.Team) Team {
	created, updated := t.CreatedAt, t.UpdatedAt
	return Team{Id: t.ID, Name: t.Name, AvatarUrl: t.AvatarURL, OrganizationId: t.OrganizationID, CreatedById: t.CreatedByID,
		CreatedAt: &created, UpdatedAt: &updated, DeletedAt: t.DeletedAt}
}

func toTeamDetail(t app.TeamDetail) TeamDetail {
	base := toTeam(t.Team)
	return TeamDetail{Id: base.Id, Name: base.Name, AvatarUrl: base.AvatarUrl, OrganizationId: base.OrganizationId,
		CreatedById: base.CreatedById, CreatedAt: base.CreatedAt, UpdatedAt: base.UpdatedAt, DeletedAt: base.DeletedAt,
		Organization: toOrganizationSummary(t.Organization), CreatedBy: toOrgOwner(t.CreatedBy),
		Bots: []Bot{}, SocialAccounts: toSocialAccounts(t.SocialAccounts)}
}

func toOrganizationSummary(o app.Organization) OrganizationSummary {
	created, updated, name, suspended := o.CreatedAt, o.UpdatedAt, o.Name, o.Suspended
	return OrganizationSummary{Id: o.ID, CreatedById: o.CreatedByID, Name: &name, AvatarUrl: o.AvatarURL, Ref: o.Ref,
		ApiAccess: o.APIAccess, Suspended: &suspended, AnalyticsDisabled: o.AnalyticsDisabled,
		AnalyticsPostsDisabled: o.AnalyticsPostsDisabled, UploadsCompressionEnabled: o.UploadsCompressionEnabled,
		ShowVerboseErrors: o.ShowVerboseErrors, DisconnectCheckEnabled: o.DisconnectCheckEnabled,
		DeleteAccountAfter: o.DeleteAccountAfter, CreatedAt: &created, UpdatedAt: &updated, DeletedAt: o.DeletedAt}
}

func toOrgOwner(u app.OrgOwner) OrgOwner {
	created, updated := u.CreatedAt, u.UpdatedAt
	return OrgOwner{Id: u.ID, ExternalId: u.ID, Email: u.Email, EmailVerified: u.EmailVerifiedAt, FirstName: u.FirstName,
		LastName: u.LastName, AvatarUrl: u.AvatarURL, Timezone: u.Timezone, Role: OrgOwnerRoleCUSTOMER,
		CreatedAt: &created, UpdatedAt: &updated, DeletedAt: u.DeletedAt}
}

// intOf converts the contract's number query parameters (whole numbers, checked by validation).
func intOf(f *float32) *int {
	if f == nil {
		return nil
	}
	i := int(*f)
	return &i
}
