package app

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/crier/crier/store"
)

// Email is one message as a Mailer sends it.
type Email struct {
	ID      string // the outbox row; senders may use it as a stable Message-ID
	To      string
	Subject string
	Text    string
	HTML    string
}

// Mailer delivers one email (mail.SMTP implements it over SMTP_URL).
type Mailer interface {
	Send(ctx context.Context, m Email) error
}

// OutboxOnly is the Mailer of an instance without SMTP_URL: mail stays in the outbox table, which
// the dev mailbox reads, and gets no delivery job. With any other Mailer, every mail written to the
// outbox also gets a delivery job.
var OutboxOnly Mailer = outboxOnly{}

type outboxOnly struct{}

var errNoMailer = errors.New("app: deliver mail: no mailer configured (SMTP_URL)")

func (outboxOnly) Send(context.Context, Email) error { return errNoMailer }

// MailKind is what an email is for.
type MailKind string

const (
	MailVerifyEmail   MailKind = "verify_email"
	MailResetPassword MailKind = "reset_password"
	MailInvitation    MailKind = "invitation"
)

// Dashboard pages the emails link to (the dashboard serves them).
const (
	VerifyEmailPath      = "/verify-email"
	ResetPasswordPath    = "/reset-password"
	AcceptInvitationPath = "/invitations/accept"
)

//go:embed mailtemplates/*.tmpl
var mailTemplateFiles embed.FS

// mailTemplate is one kind's subject and text body (text/template) and HTML body (html/template,
// inside the shared layout).
type mailTemplate struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

var mailTemplates = func() map[MailKind]mailTemplate {
	out := map[MailKind]mailTemplate{}
	for _, kind := range []MailKind{MailVerifyEmail, MailResetPassword, MailInvitation} {
		text := texttemplate.Must(texttemplate.ParseFS(mailTemplateFiles, "mailtemplates/"+string(kind)+".txt.tmpl"))
		html := htmltemplate.Must(htmltemplate.ParseFS(mailTemplateFiles, "mailtemplates/layout.html.tmpl", "mailtemplates/"+string(kind)+".html.tmpl"))
		out[kind] = mailTemplate{text: text, html: html}
	}
	return out
}()

// mailData is what the templates may show.
type mailData struct {
	Subject          string
	Name             string // the addressee's first name, else their address
	Email            string
	Link             string
	ButtonLabel      string
	Lifetime         string // "24 hours"
	OrganizationName string
	InviterName      string
	Role             Role

	// Not for the templates: whose mail it is (the dev mailbox's scope) and how long its link lives
	// (how long the outbox may keep its bodies).
	owner outboxOwner
}

// renderMail produces the subject, text and HTML of a kind.
func renderMail(kind MailKind, d mailData) (subject, text, html string, err error) {
	t, ok := mailTemplates[kind]
	if !ok {
		return "", "", "", fmt.Errorf("app: no mail template %q", kind)
	}
	var b bytes.Buffer
	if err := t.text.ExecuteTemplate(&b, "subject", d); err != nil {
		return "", "", "", fmt.Errorf("app: mail %s subject: %w", kind, err)
	}
	d.Subject = strings.Join(strings.Fields(b.String()), " ") // one line, whatever the data held
	b.Reset()
	if err := t.text.ExecuteTemplate(&b, "text", d); err != nil {
		return "", "", "", fmt.Errorf("app: mail %s text: %w", kind, err)
	}
	text = b.String()
	b.Reset()
	if err := t.html.ExecuteTemplate(&b, "layout.html.tmpl", d); err != nil {
		return "", "", "", fmt.Errorf("app: mail %s html: %w", kind, err)
	}
	return d.Subject, text, b.String(), nil
}

// link builds an absolute dashboard link with a token.
func (s *Service) link(path, token string) string {
	return strings.TrimRight(s.opts.BaseURL, "/") + path + "?token=" + url.QueryEscape(token)
}

// lifetimeText says a token lifetime in words ("24 hours", "1 hour", "7 days").
func lifetimeText(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0 && d >= 48*time.Hour:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d == time.Hour:
		return "1 hour"
	default:
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
}

// DeliverMailMaxAttempts bounds River's retries of one mail (with its exponential backoff, about
// a day and a half of trying).
const DeliverMailMaxAttempts = 12

// sendMail writes a mail to the outbox in tx and, unless mail stays there (OutboxOnly), enqueues
// its delivery in the same transaction: the mail exists exactly when the change that caused it
// committed.
func (s *Service) sendMail(ctx context.Context, tx pgx.Tx, kind MailKind, to string, d mailData) error {
	d.Email = to
	subject, text, html, err := renderMail(kind, d)
	if err != nil {
		return err
	}
	return s.queueRenderedMail(ctx, tx, kind, to, subject, text, html, d.owner)
}

// queueRenderedMail writes a rendered mail to the outbox in tx and, unless mail stays there
// (OutboxOnly), enqueues its delivery in the same transaction.
func (s *Service) queueRenderedMail(ctx context.Context, tx pgx.Tx, kind MailKind, to, subject, text, html string, o outboxOwner) error {
	id, err := s.q.WithTx(tx).InsertOutboxMail(ctx, store.InsertOutboxMailParams{ToAddress: to, Subject: subject, TextBody: text, HtmlBody: html,
		Kind: string(kind), UserID: o.userID(), OrganizationID: o.organizationID(), PurgeAt: s.now().Add(o.retention())})
	if err != nil {
		return fmt.Errorf("app: outbox %s: %w", kind, err)
	}
	if s.mailer == OutboxOnly {
		return nil
	}
	if _, err := s.jobs.InsertTx(ctx, tx, DeliverMailArgs{MailID: id}, nil); err != nil {
		return fmt.Errorf("app: enqueue mail %s: %w", kind, err)
	}
	return nil
}

// DeliverMail sends one outbox mail through the mailer and marks it sent (the DeliverMailArgs job).
// A failure is recorded on the row (attempts, last_error) and returned, so River retries it. A mail
// already sent is not sent again.
func (s *Service) DeliverMail(ctx context.Context, id string) error {
	if s.mailer == OutboxOnly {
		return errNoMailer // a job enqueued by an instance with SMTP_URL: the mail is left as it is
	}
	m, err := s.q.GetOutboxMail(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return river.JobCancel(fmt.Errorf("app: deliver mail %s: no such mail", id))
	}
	if err != nil {
		return fmt.Errorf("app: deliver mail: %w", err)
	}
	if m.SentAt != nil {
		return nil
	}
	if m.TextBody == "" && m.HtmlBody == "" { // past its retention: its link has expired, nothing worth sending
		return river.JobCancel(fmt.Errorf("app: deliver mail %s: cleared after its link expired", id))
	}
	sendErr := s.mailer.Send(ctx, Email{ID: m.ID, To: m.ToAddress, Subject: m.Subject, Text: m.TextBody, HTML: m.HtmlBody})
	ctx = context.WithoutCancel(ctx) // record the outcome even if the job's time ran out
	if sendErr != nil {
		msg := sendErr.Error()
		if err := s.q.MarkOutboxMailFailed(ctx, store.MarkOutboxMailFailedParams{ID: id, LastError: &msg}); err != nil {
			s.log.Error("record mail failure", "mail_id", id, "err", err)
		}
		return fmt.Errorf("app: deliver mail %s: %w", id, sendErr)
	}
	if err := s.q.MarkOutboxMailSent(ctx, id); err != nil {
		return fmt.Errorf("app: mark mail %s sent: %w", id, err)
	}
	return nil
}
