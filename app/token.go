package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Lifetimes of the tokens Crier mails. Every token is random (32 bytes from crypto/rand, base64url),
// stored only as its SHA-256, works once, and expires.
const (
	VerifyEmailTokenTTL   = 24 * time.Hour
	ResetPasswordTokenTTL = time.Hour
	InvitationTokenTTL    = 7 * 24 * time.Hour
)

// MailThrottle is the least time between two verification or reset mails to one user. Resending a
// verification sooner answers 429; a reset asked for sooner is silently not sent (forgot-password
// never tells whether an address exists).
const MailThrottle = time.Minute

// Token purposes (user_tokens.purpose).
const (
	purposeVerifyEmail   = "verify_email"
	purposeResetPassword = "reset_password"
)

const tokenBytes = 32

// newToken returns a fresh token and the hash to store.
func newToken() (string, []byte, error) {
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", nil, fmt.Errorf("app: token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	return token, hashToken(token), nil
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return h[:]
}

// tokenError is the 400 of a token that is unknown, used or expired; what names the link.
func tokenError(what, problem string) error {
	msg := fmt.Sprintf("%s %s", what, problem)
	return Invalid("Validation failed: token: "+msg, Issue{Code: IssueCustom, Message: msg, Path: []any{"token"}})
}

// checkToken answers the 400 for a token that was used or has expired at now.
func checkToken(what string, usedAt *time.Time, expiresAt, now time.Time) error {
	if usedAt != nil {
		return tokenError(what, "was already used; ask for a new one")
	}
	if !now.Before(expiresAt) {
		return tokenError(what, "has expired; ask for a new one")
	}
	return nil
}

const (
	verifyLinkName = "This verification link"
	resetLinkName  = "This password reset link"
)

// displayName is how mails address a user: the first name, else the address.
func displayName(firstName *string, email string) string {
	if firstName != nil && strings.TrimSpace(*firstName) != "" {
		return strings.TrimSpace(*firstName)
	}
	return email
}

// issueUserToken stores a token of purpose for the user, valid for ttl from now, in tx.
func (s *Service) issueUserToken(ctx context.Context, tx pgx.Tx, userID, email, purpose string, ttl time.Duration) (string, error) {
	token, hash, err := newToken()
	if err != nil {
		return "", err
	}
	now := s.now().UTC()
	if err := s.q.WithTx(tx).InsertUserToken(ctx, store.InsertUserTokenParams{UserID: userID, Purpose: purpose, Email: email,
		TokenHash: hash, CreatedAt: now, ExpiresAt: now.Add(ttl)}); err != nil {
		return "", fmt.Errorf("app: token %s: %w", purpose, err)
	}
	return token, nil
}

// sendVerification issues a verification token and mails its link, in tx.
func (s *Service) sendVerification(ctx context.Context, tx pgx.Tx, userID, email string, firstName *string) error {
	token, err := s.issueUserToken(ctx, tx, userID, email, purposeVerifyEmail, VerifyEmailTokenTTL)
	if err != nil {
		return err
	}
	return s.sendMail(ctx, tx, MailVerifyEmail, email, mailData{Name: displayName(firstName, email),
		Link: s.link(VerifyEmailPath, token), ButtonLabel: "Verify my email", Lifetime: lifetimeText(VerifyEmailTokenTTL),
		owner: outboxOwner{user: userID, tokenTTL: VerifyEmailTokenTTL}})
}

// throttled reports how long the user must still wait before another mail of purpose, zero if none.
func (s *Service) throttled(ctx context.Context, q *store.Queries, userID, purpose string) (time.Duration, error) {
	last, err := q.LastUserTokenAt(ctx, store.LastUserTokenAtParams{UserID: userID, Purpose: purpose})
	if err != nil {
		return 0, fmt.Errorf("app: throttle: %w", err)
	}
	if wait := last.Add(MailThrottle).Sub(s.now()); wait > 0 {
		return wait, nil
	}
	return 0, nil
}

// auditUser writes a user's own action (no caller principal: a mailed link) to the audit log of
// every organization the user belongs to.
func (s *Service) auditUser(ctx context.Context, tx pgx.Tx, userID, email, action string) error {
	ms, err := s.q.WithTx(tx).ListUserMemberships(ctx, userID)
	if err != nil {
		return fmt.Errorf("app: audit %s: %w", action, err)
	}
	for _, m := range ms {
		if err := s.Audit(ctx, tx, AuditItem{OrganizationID: m.OrganizationID, ActorType: "USER", ActorID: userID, ActorName: email,
			Action: action, TargetType: "user", TargetID: userID}); err != nil {
			return err
		}
	}
	return nil
}

// verifyEmail marks the address a verification token was mailed to as verified. The token works once
// (the user's other verification links end with it) and for VerifyEmailTokenTTL.
func (s *Service) verifyEmail(ctx context.Context, token string) error {
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		t, err := q.GetUserTokenForUpdate(ctx, store.GetUserTokenForUpdateParams{TokenHash: hashToken(token), Purpose: purposeVerifyEmail})
		if errors.Is(err, pgx.ErrNoRows) {
			return tokenError(verifyLinkName, "is not valid; ask for a new one")
		}
		if err != nil {
			return fmt.Errorf("app: verify email: %w", err)
		}
		now := s.now().UTC()
		if err := checkToken(verifyLinkName, t.UsedAt, t.ExpiresAt, now); err != nil {
			return err
		}
		n, err := q.SetEmailVerified(ctx, store.SetEmailVerifiedParams{ID: t.UserID, Email: t.Email, VerifiedAt: &now})
		if err != nil {
			return fmt.Errorf("app: verify email: %w", err)
		}
		if n == 0 {
			return tokenError(verifyLinkName, "is for an address that is no longer this account's")
		}
		if err := q.UseUserTokens(ctx, store.UseUserTokensParams{UserID: t.UserID, Purpose: purposeVerifyEmail, UsedAt: &now}); err != nil {
			return fmt.Errorf("app: verify email: %w", err)
		}
		return s.auditUser(ctx, tx, t.UserID, t.Email, "user.email_verified")
	})
}

// ResendVerification mails the caller a new verification link: 400 when the address is already
// verified, 429 when the last link went out less than MailThrottle ago.
func (s *Service) ResendVerification(ctx context.Context) error {
	p, err := Authorize(PrincipalFrom(ctx), ActManageOwnAccess)
	if err != nil {
		return err
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if _, err := q.LockUser(ctx, p.UserID); err != nil { // one resend at a time per user
			return NotFoundOr(err, "User", "app: resend verification")
		}
		u, err := q.GetUser(ctx, p.UserID)
		if err != nil {
			return NotFoundOr(err, "User", "app: resend verification")
		}
		if u.EmailVerifiedAt != nil {
			return Invalid("Your email address is already verified")
		}
		wait, err := s.throttled(ctx, q, u.ID, purposeVerifyEmail)
		if err != nil {
			return err
		}
		if wait > 0 {
			return Errorf(ERateLimited, "A verification email was sent less than a minute ago; try again in %d seconds", int(math.Ceil(wait.Seconds())))
		}
		if err := s.sendVerification(ctx, tx, u.ID, u.Email, u.FirstName); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "user.verification_resent", TargetType: "user", TargetID: u.ID}))
	})
}

// forgotPassword mails a password reset link when email belongs to a user. It answers the same
// whether or not it does (no user enumeration), and a request within MailThrottle of the last one is
// silently dropped.
func (s *Service) forgotPassword(ctx context.Context, email string) error {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil
	}
	u, err := s.q.GetUserByEmail(ctx, email)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("app: forgot password: %w", err)
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if _, err := q.LockUser(ctx, u.ID); errors.Is(err, pgx.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("app: forgot password: %w", err)
		}
		wait, err := s.throttled(ctx, q, u.ID, purposeResetPassword)
		if err != nil || wait > 0 {
			return err
		}
		token, err := s.issueUserToken(ctx, tx, u.ID, u.Email, purposeResetPassword, ResetPasswordTokenTTL)
		if err != nil {
			return err
		}
		if err := s.sendMail(ctx, tx, MailResetPassword, u.Email, mailData{Name: displayName(u.FirstName, u.Email),
			Link: s.link(ResetPasswordPath, token), ButtonLabel: "Choose a new password", Lifetime: lifetimeText(ResetPasswordTokenTTL),
			owner: outboxOwner{user: u.ID, tokenTTL: ResetPasswordTokenTTL}}); err != nil {
			return err
		}
		return s.auditUser(ctx, tx, u.ID, u.Email, "user.password_reset_requested")
	})
}

// resetPassword sets a new password with a mailed reset token. The token works once (every other
// reset link of the user ends with it) and for ResetPasswordTokenTTL; the user's sessions end (the
// session generation moves on), and the address counts as verified, since the mail was read.
func (s *Service) resetPassword(ctx context.Context, token, password string) error {
	if err := checkLength("password", password, MinPasswordLength, 200); err != nil {
		return err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return fmt.Errorf("app: reset password: %w", err)
	}
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		t, err := q.GetUserTokenForUpdate(ctx, store.GetUserTokenForUpdateParams{TokenHash: hashToken(token), Purpose: purposeResetPassword})
		if errors.Is(err, pgx.ErrNoRows) {
			return tokenError(resetLinkName, "is not valid; ask for a new one")
		}
		if err != nil {
			return fmt.Errorf("app: reset password: %w", err)
		}
		now := s.now().UTC()
		if err := checkToken(resetLinkName, t.UsedAt, t.ExpiresAt, now); err != nil {
			return err
		}
		if _, err := q.GetUser(ctx, t.UserID); err != nil { // a deleted user's links end with them
			if errors.Is(err, pgx.ErrNoRows) {
				return tokenError(resetLinkName, "is not valid; ask for a new one")
			}
			return fmt.Errorf("app: reset password: %w", err)
		}
		if _, err := q.SetPassword(ctx, store.SetPasswordParams{ID: t.UserID, PasswordHash: hash}); err != nil {
			return fmt.Errorf("app: reset password: %w", err)
		}
		if err := q.UseUserTokens(ctx, store.UseUserTokensParams{UserID: t.UserID, Purpose: purposeResetPassword, UsedAt: &now}); err != nil {
			return fmt.Errorf("app: reset password: %w", err)
		}
		if _, err := q.SetEmailVerified(ctx, store.SetEmailVerifiedParams{ID: t.UserID, Email: t.Email, VerifiedAt: &now}); err != nil {
			return fmt.Errorf("app: reset password: %w", err)
		}
		return s.auditUser(ctx, tx, t.UserID, t.Email, "user.password_reset")
	})
}
