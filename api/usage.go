package api

import (
	"context"

	"github.com/crier/crier/app"
)

// OrganizationGetDailyLimitsUsage answers GET /organization/usage/daily-limits.
func (s *Server) OrganizationGetDailyLimitsUsage(ctx context.Context, req OrganizationGetDailyLimitsUsageRequestObject) (OrganizationGetDailyLimitsUsageResponseObject, error) {
	d, err := s.svc.DailyLimitsUsage(ctx, req.Params.SocialAccountId, req.Params.Date)
	if err != nil {
		return nil, err
	}
	return OrganizationGetDailyLimitsUsage200JSONResponse{
		Date: d.Date.Format("2006-01-02"), SocialAccountId: d.SocialAccountID, Type: NetworkType(d.Type),
		Posts: toUsage(d.Posts), Comments: toUsage(d.Comments),
	}, nil
}

// OrganizationGetImportsUsage answers GET /organization/usage/imports.
func (s *Server) OrganizationGetImportsUsage(ctx context.Context, req OrganizationGetImportsUsageRequestObject) (OrganizationGetImportsUsageResponseObject, error) {
	p := req.Params
	in := app.ImportsUsageParams{Page: float64p(p.Page), PageSize: float64p(p.PageSize), TeamID: p.TeamId, SocialAccountID: p.SocialAccountId}
	if p.SocialAccountType != nil {
		n := app.Network(*p.SocialAccountType)
		in.Type = &n
	}
	u, err := s.svc.ImportsUsage(ctx, in)
	if err != nil {
		return nil, err
	}
	out := OrganizationGetImportsUsage200JSONResponse{
		LimitPerSocialAccount: float32(u.LimitPerSocialAccount),
		Pagination:            Pagination{Page: float32(u.Page), PageSize: float32(u.PageSize), Total: float32(u.Total), TotalPages: float32(u.TotalPages)},
	}
	out.SocialAccounts = make([]struct {
		DisplayName *string `json:"displayName"`
		Id          string  `json:"id"`
		Limit       float32 `json:"limit"`
		Remaining   float32 `json:"remaining"`
		Type        string  `json:"type"`
		Used        float32 `json:"used"`
		Username    *string `json:"username"`
	}, len(u.SocialAccounts))
	for i, a := range u.SocialAccounts {
		o := &out.SocialAccounts[i]
		o.Id, o.Type, o.Username, o.DisplayName = a.ID, string(a.Type), a.Username, a.DisplayName
		o.Used, o.Limit, o.Remaining = float32(a.Used), float32(a.Limit), float32(a.Remaining)
	}
	return out, nil
}

func toUsage(u app.Usage) Usage {
	return Usage{Used: float32(u.Used), Limit: float32(u.Limit), Remaining: float32(u.Remaining)}
}

func float64p(v *float32) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}
