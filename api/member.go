package api

import (
	"context"
	"net/http"

	"github.com/crier/crier/app"
	"github.com/crier/crier/session"
)

// UserGetMembers answers GET /user/members.
func (s *Server) UserGetMembers(ctx context.Context, req UserGetMembersRequestObject) (UserGetMembersResponseObject, error) {
	ms, total, err := s.svc.ListMembers(ctx, app.PageOf(req.Params.Offset, req.Params.Limit, app.DefaultMemberListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]Member, 0, len(ms))
	for _, m := range ms {
		items = append(items, toMember(m))
	}
	return UserGetMembers200JSONResponse{Items: &items, Total: &total}, nil
}

// UserUpdateMember answers PATCH /user/members/{id}.
func (s *Server) UserUpdateMember(ctx context.Context, req UserUpdateMemberRequestObject) (UserUpdateMemberResponseObject, error) {
	m, err := s.svc.UpdateMemberRole(ctx, req.Id, app.Role(req.Body.Role))
	if err != nil {
		return nil, err
	}
	return UserUpdateMember200JSONResponse(toMember(*m)), nil
}

// UserRemoveMember answers DELETE /user/members/{id}.
func (s *Server) UserRemoveMember(ctx context.Context, req UserRemoveMemberRequestObject) (UserRemoveMemberResponseObject, error) {
	if err := s.svc.RemoveMember(ctx, req.Id); err != nil {
		return nil, err
	}
	return UserRemoveMember200JSONResponse{Success: true}, nil
}

// UserChangePassword answers POST /user/me/password. Other sessions end; a cookie caller gets a
// fresh cookie so this session continues.
func (s *Server) UserChangePassword(ctx context.Context, req UserChangePasswordRequestObject) (UserChangePasswordResponseObject, error) {
	gen, err := s.svc.ChangePassword(ctx, req.Body.CurrentPassword, req.Body.NewPassword)
	if err != nil {
		return nil, err
	}
	p := app.PrincipalFrom(ctx)
	if p.APIKeyID != "" {
		return UserChangePassword200JSONResponse{Success: true}, nil
	}
	cookie, err := session.NewCookie(s.sessions, session.Data{UserID: p.UserID, OrganizationID: p.OrganizationID, Generation: gen})
	if err != nil {
		return nil, err
	}
	return passwordResponse{UserChangePassword200JSONResponse{Success: true}, cookie}, nil
}

type passwordResponse struct {
	UserChangePassword200JSONResponse
	cookie *http.Cookie
}

func (r passwordResponse) VisitUserChangePasswordResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.UserChangePassword200JSONResponse.VisitUserChangePasswordResponse(w)
}

func toMember(m app.Member) Member {
	created := m.CreatedAt
	return Member{Id: m.ID, UserId: m.UserID, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName, Role: Role(m.Role), CreatedAt: &created}
}
