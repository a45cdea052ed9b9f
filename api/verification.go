package api

import (
	"context"
)

// AuthVerifyEmail answers POST /auth/verify-email (no credentials: the mailed token is the proof).
func (s *Server) AuthVerifyEmail(ctx context.Context, req AuthVerifyEmailRequestObject) (AuthVerifyEmailResponseObject, error) {
	if err := s.svc.VerifyEmail(ctx, req.Body.Token); err != nil {
		return nil, err
	}
	return AuthVerifyEmail200JSONResponse{Success: true}, nil
}

// AuthResendVerification answers POST /auth/resend-verification for the caller.
func (s *Server) AuthResendVerification(ctx context.Context, _ AuthResendVerificationRequestObject) (AuthResendVerificationResponseObject, error) {
	if err := s.svc.ResendVerification(ctx); err != nil {
		return nil, err
	}
	return AuthResendVerification200JSONResponse{Success: true}, nil
}

// AuthForgotPassword answers POST /auth/forgot-password: 200 whether or not the address is known.
func (s *Server) AuthForgotPassword(ctx context.Context, req AuthForgotPasswordRequestObject) (AuthForgotPasswordResponseObject, error) {
	if err := s.svc.ForgotPassword(ctx, req.Body.Email); err != nil {
		return nil, err
	}
	return AuthForgotPassword200JSONResponse{Success: true}, nil
}

// AuthResetPassword answers POST /auth/reset-password.
func (s *Server) AuthResetPassword(ctx context.Context, req AuthResetPasswordRequestObject) (AuthResetPasswordResponseObject, error) {
	if err := s.svc.ResetPassword(ctx, req.Body.Token, req.Body.Password); err != nil {
		return nil, err
	}
	return AuthResetPassword200JSONResponse{Success: true}, nil
}
