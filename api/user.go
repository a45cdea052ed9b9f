package api

import (
	"context"
	"net/http"

	"github.com/crier/crier/app"
)

// UserGetMe answers GET /user/me.
func (s *Server) UserGetMe(ctx context.Context, _ UserGetMeRequestObject) (UserGetMeResponseObject, error) {
	u, err := s.svc.Me(ctx)
	if err != nil {
		return nil, err
	}
	return UserGetMe200JSONResponse(toUser(*u)), nil
}

// UserUpdateMe answers PATCH /user/me.
func (s *Server) UserUpdateMe(ctx context.Context, req UserUpdateMeRequestObject) (UserUpdateMeResponseObject, error) {
	b := req.Body
	u, err := s.svc.UpdateMe(ctx, app.UpdateMeParams{FirstName: b.FirstName, LastName: b.LastName, Timezone: b.Timezone, AvatarURL: b.AvatarUrl})
	if err != nil {
		return nil, err
	}
	return UserUpdateMe200JSONResponse(toUser(*u)), nil
}

// UserCompleteOnboarding answers POST /user/me/onboarding with the session.
func (s *Server) UserCompleteOnboarding(ctx context.Context, _ UserCompleteOnboardingRequestObject) (UserCompleteOnboardingResponseObject, error) {
	sess, err := s.svc.CompleteOnboarding(ctx)
	if err != nil {
		return nil, err
	}
	return UserCompleteOnboarding200JSONResponse(toSession(sess)), nil
}

// AuthSwitchOrganization answers POST /auth/switch-organization and moves the session cookie.
func (s *Server) AuthSwitchOrganization(ctx context.Context, req AuthSwitchOrganizationRequestObject) (AuthSwitchOrganizationResponseObject, error) {
	sess, err := s.svc.SwitchOrganization(ctx, req.Body.OrganizationId)
	if err != nil {
		return nil, err
	}
	cookie, err := s.sessionCookie(sess)
	if err != nil {
		return nil, err
	}
	return switchResponse{AuthSwitchOrganization200JSONResponse(toSession(sess)), cookie}, nil
}

type switchResponse struct {
	AuthSwitchOrganization200JSONResponse
	cookie *http.Cookie
}

func (r switchResponse) VisitAuthSwitchOrganizationResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.AuthSwitchOrganization200JSONResponse.VisitAuthSwitchOrganizationResponse(w)
}

// OrganizationCreate answers POST /organization/create: 201 with the new OWNER membership.
func (s *Server) OrganizationCreate(ctx context.Context, req OrganizationCreateRequestObject) (OrganizationCreateResponseObject, error) {
	m, err := s.svc.CreateOrganization(ctx, req.Body.Name)
	if err != nil {
		return nil, err
	}
	name := m.OrganizationName
	return OrganizationCreate201JSONResponse{Id: m.ID, OrganizationId: m.OrganizationID, OrganizationName: &name, Role: Role(m.Role)}, nil
}

// OrganizationGetAuditLog answers GET /organization/audit-log, newest first.
func (s *Server) OrganizationGetAuditLog(ctx context.Context, req OrganizationGetAuditLogRequestObject) (OrganizationGetAuditLogResponseObject, error) {
	items, total, err := s.svc.AuditLog(ctx, app.PageOf(req.Params.Offset, req.Params.Limit, app.DefaultAuditLogLimit))
	if err != nil {
		return nil, err
	}
	out := make([]AuditLogItem, 0, len(items))
	for _, it := range items {
		meta := it.Metadata
		out = append(out, AuditLogItem{Id: it.ID, ActorType: AuditLogItemActorType(it.ActorType), ActorName: it.ActorName, Action: it.Action,
			TargetType: it.TargetType, TargetId: it.TargetID, Metadata: &meta, CreatedAt: it.CreatedAt})
	}
	return OrganizationGetAuditLog200JSONResponse{Items: out, Total: total}, nil
}

func toUser(u app.User) User {
	created := u.CreatedAt
	return User{Id: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, AvatarUrl: u.AvatarURL,
		Timezone: u.Timezone, EmailVerifiedAt: u.EmailVerifiedAt, OnboardedAt: u.OnboardedAt, CreatedAt: &created}
}
