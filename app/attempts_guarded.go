package app

import "context"

// The credential operations, each one guarded attempt (attempts.go); the work is in the
// lower-case method of the same name.

// Login checks the credentials; the message is the same whether or not the email is known.
func (s *Service) Login(ctx context.Context, email, password string) (*Session, error) {
	var sess *Session
	err := s.guarded(ctx, s.loginAttempt(), email, func() (err error) {
		sess, err = s.login(ctx, email, password)
		return err
	})
	return sess, err
}

// ForgotPassword mails a password reset link when email belongs to a user (forgotPassword).
func (s *Service) ForgotPassword(ctx context.Context, email string) error {
	return s.guarded(ctx, s.forgotAttempt(), email, func() error { return s.forgotPassword(ctx, email) })
}

// VerifyEmail marks the address a verification token was mailed to as verified (verifyEmail).
func (s *Service) VerifyEmail(ctx context.Context, token string) error {
	return s.guarded(ctx, s.tokenAttempt(), "", func() error { return s.verifyEmail(ctx, token) })
}

// ResetPassword sets a new password with a mailed reset token (resetPassword).
func (s *Service) ResetPassword(ctx context.Context, token, password string) error {
	return s.guarded(ctx, s.tokenAttempt(), "", func() error { return s.resetPassword(ctx, token, password) })
}

// AcceptInvitation joins the invitation's organization (acceptInvitation).
func (s *Service) AcceptInvitation(ctx context.Context, in AcceptInvitationParams) (*Session, error) {
	var sess *Session
	err := s.guarded(ctx, s.tokenAttempt(), "", func() (err error) {
		sess, err = s.acceptInvitation(ctx, in)
		return err
	})
	return sess, err
}

// Portal answers the portal view of a token (portal).
func (s *Service) Portal(ctx context.Context, token string) (*PortalView, error) {
	var v *PortalView
	err := s.guarded(ctx, s.tokenAttempt(), "", func() (err error) {
		v, err = s.portal(ctx, token)
		return err
	})
	return v, err
}

// PortalConnect answers the network's consent URL for a portal visitor (portalConnect).
func (s *Service) PortalConnect(ctx context.Context, token string, n Network, serverURL string) (string, error) {
	var u string
	err := s.guarded(ctx, s.tokenAttempt(), "", func() (err error) {
		u, err = s.portalConnect(ctx, token, n, serverURL)
		return err
	})
	return u, err
}

// PortalDisconnect disconnects one of the allowed networks of the portal's team (portalDisconnect).
func (s *Service) PortalDisconnect(ctx context.Context, token string, n Network) error {
	return s.guarded(ctx, s.tokenAttempt(), "", func() error { return s.portalDisconnect(ctx, token, n) })
}
