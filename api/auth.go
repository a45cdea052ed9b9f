package api

import (
	"context"
	"net/http"

	"github.com/crier/crier/app"
	"github.com/crier/crier/session"
)

// AuthSignup answers POST /auth/signup: 201 Session, signed in through the session cookie.
func (s *Server) AuthSignup(ctx context.Context, req AuthSignupRequestObject) (AuthSignupResponseObject, error) {
	b := req.Body
	sess, err := s.svc.Signup(ctx, app.SignupParams{Email: string(b.Email), Password: b.Password, FirstName: b.FirstName, LastName: b.LastName, OrganizationName: b.OrganizationName})
	if err != nil {
		return nil, err
	}
	cookie, err := s.sessionCookie(sess)
	if err != nil {
		return nil, err
	}
	return signupResponse{AuthSignup201JSONResponse(toSession(sess)), cookie}, nil
}

// AuthLogin answers POST /auth/login: 200 Session and the cookie; wrong credentials 401.
func (s *Server) AuthLogin(ctx context.Context, req AuthLoginRequestObject) (AuthLoginResponseObject, error) {
	sess, err := s.svc.Login(ctx, req.Body.Email, req.Body.Password)
	if err != nil {
		return nil, err
	}
	cookie, err := s.sessionCookie(sess)
	if err != nil {
		return nil, err
	}
	return loginResponse{AuthLogin200JSONResponse(toSession(sess)), cookie}, nil
}

// AuthLogout clears the session cookie.
func (s *Server) AuthLogout(context.Context, AuthLogoutRequestObject) (AuthLogoutResponseObject, error) {
	return logoutResponse{AuthLogout200JSONResponse{Success: true}, session.ExpiredCookie(s.sessions)}, nil
}

// AuthGetSession answers GET /auth/me.
func (s *Server) AuthGetSession(ctx context.Context, _ AuthGetSessionRequestObject) (AuthGetSessionResponseObject, error) {
	sess, err := s.svc.CurrentSession(ctx)
	if err != nil {
		return nil, err
	}
	return AuthGetSession200JSONResponse(toSession(sess)), nil
}

func (s *Server) sessionCookie(sess *app.Session) (*http.Cookie, error) {
	d := session.Data{UserID: sess.User.ID, Generation: sess.Generation}
	if sess.CurrentOrganizationID != nil {
		d.OrganizationID = *sess.CurrentOrganizationID
	}
	return session.NewCookie(s.sessions, d)
}

// Responses that also set the session cookie.
type (
	signupResponse struct {
		AuthSignup201JSONResponse
		cookie *http.Cookie
	}
	loginResponse struct {
		AuthLogin200JSONResponse
		cookie *http.Cookie
	}
	logoutResponse struct {
		AuthLogout200JSONResponse
		cookie *http.Cookie
	}
)

func (r signupResponse) VisitAuthSignupResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.AuthSignup201JSONResponse.VisitAuthSignupResponse(w)
}

func (r loginResponse) VisitAuthLoginResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.AuthLogin200JSONResponse.VisitAuthLoginResponse(w)
}

func (r logoutResponse) VisitAuthLogoutResponse(w http.ResponseWriter) error {
	http.SetCookie(w, r.cookie)
	return r.AuthLogout200JSONResponse.VisitAuthLogoutResponse(w)
}

func toSession(s *app.Session) Session {
	out := Session{CurrentOrganizationId: s.CurrentOrganizationID, Memberships: make([]Membership, 0, len(s.Memberships))}
	out.User = toUser(s.User)
	for _, m := range s.Memberships {
		name := m.OrganizationName
		out.Memberships = append(out.Memberships, Membership{Id: m.ID, OrganizationId: m.OrganizationID, OrganizationName: &name, Role: Role(m.Role)})
	}
	return out
}
