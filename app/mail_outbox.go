package app

import (
	"context"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// MailDefaultRetention is how long the outbox keeps the bodies of a mail without a token (a
// webhook's deactivation notice), so the dev mailbox can still show it for a while.
const MailDefaultRetention = 24 * time.Hour

// outboxOwner says whose a mail is and how long its link lives. Zero values: nobody's in
// particular (only its address finds it) and MailDefaultRetention.
type outboxOwner struct {
	user, organization string
	tokenTTL           time.Duration
}

func (o outboxOwner) userID() *string         { return nonEmpty(o.user) }
func (o outboxOwner) organizationID() *string { return nonEmpty(o.organization) }

// retention: a mail's bodies never outlive its token (the dev mailbox then has nothing left to leak).
func (o outboxOwner) retention() time.Duration {
	if o.tokenTTL > 0 {
		return o.tokenTTL
	}
	return MailDefaultRetention
}

// PurgeMailBodies clears the bodies of outbox mail past its retention (the MailPurgeArgs job);
// sent mail is cleared when it is sent. It answers how many mails it cleared.
func (s *Service) PurgeMailBodies(ctx context.Context) (int64, error) {
	n, err := s.q.PurgeOutboxMailBodies(ctx, s.now())
	if err != nil {
		return 0, fmt.Errorf("app: purge mail bodies: %w", err)
	}
	return n, nil
}

// OutboxMail is one mail of the outbox, as the dev mailbox shows it. Cleared is true once its
// bodies were removed (sent, or its link expired).
type OutboxMail struct {
	ID, To, Subject, Kind, Text, HTML string
	CreatedAt                         time.Time
	SentAt                            *time.Time
	Cleared                           bool
}

// DevMailboxDefaultLimit and DevMailboxMaxLimit bound DevMailbox and Outbox.
const (
	DevMailboxDefaultLimit = 50
	DevMailboxMaxLimit     = 500
)

// DevMailbox answers the caller's newest mails: those addressed to them (by account, or to their
// address once verified) and, for those who manage invitations, the invitations their organization
// sent. Never anyone else's: a reset link read here would be an account takeover. It does not
// exist in production.
func (s *Service) DevMailbox(ctx context.Context, limit int) ([]OutboxMail, error) {
	if s.opts.Production {
		return nil, NotFound("Dev mailbox")
	}
	p := PrincipalFrom(ctx)
	if p == nil {
		return nil, Errorf(EUnauthorized, "Authentication required")
	}
	u, err := s.q.GetUser(ctx, p.UserID)
	if err != nil {
		return nil, NotFoundOr(err, "User", "app: dev mailbox")
	}
	rows, err := s.q.ListOutboxMailOf(ctx, store.ListOutboxMailOfParams{
		UserID: &p.UserID, EmailVerified: u.EmailVerifiedAt != nil, Email: u.Email,
		SeeInvitations: Can(p.Role, ActManageMembers), OrganizationID: &p.OrganizationID, Lim: mailboxLimit(limit),
	})
	if err != nil {
		return nil, fmt.Errorf("app: dev mailbox: %w", err)
	}
	return outboxMails(rows), nil
}

// DevMail answers one mail of the caller's dev mailbox (DevMailbox's scope); not in production.
func (s *Service) DevMail(ctx context.Context, id string) (*OutboxMail, error) {
	mails, err := s.DevMailbox(ctx, DevMailboxMaxLimit)
	if err != nil {
		return nil, err
	}
	for _, m := range mails {
		if m.ID == id {
			return &m, nil
		}
	}
	return nil, NotFound("Mail")
}

// Outbox answers the newest mails of every organization. No transport serves it: it is for the
// operator's tools and for tests, which read the links a flow mailed.
func (s *Service) Outbox(ctx context.Context, limit int) ([]OutboxMail, error) {
	rows, err := s.q.ListOutboxMail(ctx, mailboxLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("app: outbox: %w", err)
	}
	return outboxMails(rows), nil
}

func mailboxLimit(limit int) int32 {
	if limit <= 0 {
		limit = DevMailboxDefaultLimit
	}
	return int32(min(limit, DevMailboxMaxLimit))
}

func outboxMails(rows []store.MailOutbox) []OutboxMail {
	out := make([]OutboxMail, 0, len(rows))
	for _, r := range rows {
		out = append(out, OutboxMail{ID: r.ID, To: r.ToAddress, Subject: r.Subject, Kind: r.Kind, Text: r.TextBody, HTML: r.HtmlBody,
			CreatedAt: r.CreatedAt, SentAt: r.SentAt, Cleared: r.TextBody == "" && r.HtmlBody == ""})
	}
	return out
}
