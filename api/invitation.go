package api

import (
	"context"
	"net/http"

	"github.com/crier/crier/app"
)

// UserGetInvitations answers GET /user/invitations: the pending invitations.
func (s *Server) UserGetInvitations(ctx context.Context, _ UserGetInvitationsRequestObject) (UserGetInvitationsResponseObject, error) {
	invs, total, err := s.svc.ListInvitations(ctx)
	if err != nil {
		return nil, err
	}
	items := make([]Invitation, 0, len(invs))
	for _, i := range invs {
		items = append(items, toInvitation(i))
	}
	return UserGetInvitations200JSONResponse{Items: &items, Total: &total}, nil
}

// UserCreateInvitation answers POST /user/invitations: 201 Invitation, and the mail goes out.
func (s *Server) UserCreateInvitation(ctx context.Context, req UserCreateInvitationRequestObject) (UserCreateInvitationResponseObject, error) {
	inv, err := s.svc.CreateInvitation(ctx, string(req.Body.Email), app.Role(req.Body.Role))
	if err != nil {
		return nil, err
	}
	return UserCreateInvitation201JSONResponse(toInvitation(*inv)), nil
}

// UserDeleteInvitation answers DELETE /user/invitations/{id}.
func (s *Server) UserDeleteInvitation(ctx context.Context, req UserDeleteInvitationRequestObject) (UserDeleteInvitationResponseObject, error) {
	if err := s.svc.DeleteInvitation(ctx, req.Id); err != nil {
		return nil, err
	}
	return UserDeleteInvitation200JSONResponse{Success: true}, nil
}

// UserAcceptInvitation answers POST /user/invitations/accept: 200 Session, signed in through the
// session cookie like sign-up and sign-in.
func (s *Server) UserAcceptInvitation(ctx context.Context, req UserAcceptInvitationRequestObject) (UserAcceptInvitationResponseObject, error) {
	b := req.Body
	sess, err := s.svc.AcceptInvitation(ctx, app.AcceptInvitationParams{Token: b.Token, Password: b.Password, FirstName: b.FirstName})
	if err != nil {
		return nil, err
	}
	cookie, err := s.sessionCookie(sess)
	if err != nil {
		return nil, err
	}
	return acceptInvitationResponse{UserAcceptInvitation200JSONResponse(toSession(sess)), cookie}, nil
}

type acceptInvitationResponse struct {
	UserAcceptInvitation200JSONResponse
	cookie *http.Cookie
}

func (r acceptInvitationResponse) VisitUserAcceptInvitationResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.UserAcceptInvitation200JSONResponse.VisitUserAcceptInvitationResponse(w)
}

func toInvitation(i app.Invitation) Invitation {
	created, expires := i.CreatedAt, i.ExpiresAt
	return Invitation{Id: i.ID, Email: i.Email, Role: Role(i.Role), CreatedAt: &created, ExpiresAt: &expires}
}
