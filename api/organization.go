package api

import (
	"context"

	"github.com/crier/crier/app"
)

// OrganizationGetOrganization answers GET /organization: the full record with its creator and teams.
func (s *Server) OrganizationGetOrganization(ctx context.Context, _ OrganizationGetOrganizationRequestObject) (OrganizationGetOrganizationResponseObject, error) {
	o, err := s.svc.GetOrganization(ctx)
	if err != nil {
		return nil, err
	}
	sum := toOrganizationSummary(o.Organization)
	teams := make([]Team, 0, len(o.Teams))
	for _, t := range o.Teams {
		teams = append(teams, toTeam(t))
	}
	return OrganizationGetOrganization200JSONResponse{
		Id: sum.Id, CreatedById: sum.CreatedById, Name: sum.Name, AvatarUrl: sum.AvatarUrl, Ref: sum.Ref,
		ApiAccess: sum.ApiAccess, Suspended: sum.Suspended, AnalyticsDisabled: sum.AnalyticsDisabled,
		AnalyticsPostsDisabled: sum.AnalyticsPostsDisabled, UploadsCompressionEnabled: sum.UploadsCompressionEnabled,
		ShowVerboseErrors: sum.ShowVerboseErrors, DisconnectCheckEnabled: sum.DisconnectCheckEnabled,
		DeleteAccountAfter: sum.DeleteAccountAfter, CreatedAt: sum.CreatedAt, UpdatedAt: sum.UpdatedAt, DeletedAt: sum.DeletedAt,
		CreatedBy: toOrgOwner(o.CreatedBy), Teams: teams,
	}, nil
}

// OrganizationGetPostsUsage answers GET /organization/usage/posts.
func (s *Server) OrganizationGetPostsUsage(ctx context.Context, _ OrganizationGetPostsUsageRequestObject) (OrganizationGetPostsUsageResponseObject, error) {
	u, err := s.usage(ctx, app.UsagePosts)
	if err != nil {
		return nil, err
	}
	return OrganizationGetPostsUsage200JSONResponse(u), nil
}

// OrganizationGetCommentsUsage answers GET /organization/usage/comments.
func (s *Server) OrganizationGetCommentsUsage(ctx context.Context, _ OrganizationGetCommentsUsageRequestObject) (OrganizationGetCommentsUsageResponseObject, error) {
	u, err := s.usage(ctx, app.UsageComments)
	if err != nil {
		return nil, err
	}
	return OrganizationGetCommentsUsage200JSONResponse(u), nil
}

// OrganizationGetUploadsUsage answers GET /organization/usage/uploads.
func (s *Server) OrganizationGetUploadsUsage(ctx context.Context, _ OrganizationGetUploadsUsageRequestObject) (OrganizationGetUploadsUsageResponseObject, error) {
	u, err := s.usage(ctx, app.UsageUploads)
	if err != nil {
		return nil, err
	}
	return OrganizationGetUploadsUsage200JSONResponse(u), nil
}

func (s *Server) usage(ctx context.Context, kind app.UsageKind) (Usage, error) {
	u, err := s.svc.MonthlyUsage(ctx, kind)
	if err != nil {
		return Usage{}, err
	}
	return Usage{Used: float32(u.Used), Limit: float32(u.Limit), Remaining: float32(u.Remaining)}, nil
}

// OrganizationUpdateSettings answers PATCH /organization/settings with every setting.
func (s *Server) OrganizationUpdateSettings(ctx context.Context, req OrganizationUpdateSettingsRequestObject) (OrganizationUpdateSettingsResponseObject, error) {
	b := req.Body
	out, err := s.svc.UpdateSettings(ctx, app.SettingsParams{Name: b.Name, UploadsCompression: b.UploadsCompression, VerboseErrors: b.VerboseErrors,
		RemoteDisconnectChecks: b.RemoteDisconnectChecks, DeleteDisconnectedAfterHours: b.DeleteDisconnectedAfterHours,
		PortalBrandName: b.PortalBrandName, PortalLogoURL: b.PortalLogoUrl, PortalAccentColor: b.PortalAccentColor})
	if err != nil {
		return nil, err
	}
	return OrganizationUpdateSettings200JSONResponse(out), nil
}

// OrganizationDelete answers POST /organization/delete.
func (s *Server) OrganizationDelete(ctx context.Context, req OrganizationDeleteRequestObject) (OrganizationDeleteResponseObject, error) {
	if err := s.svc.DeleteOrganization(ctx, req.Body.ConfirmName); err != nil {
		return nil, err
	}
	return OrganizationDelete200JSONResponse{Success: true}, nil
}
