// Package mail delivers Crier's email through an SMTP server: it implements app.Mailer over SMTP_URL
// with go-mail (MIME multipart/alternative, STARTTLS, implicit TLS, SMTP AUTH negotiation).
//
// SMTP_URL forms:
//
//	smtp://user:pass@host:port    STARTTLS when the server offers it (port 587 by default)
//	smtps://user:pass@host:port   implicit TLS (port 465 by default)
//
// Query parameters: from= sets the From address (default "Crier <noreply@HOST-OF-BASE_URL>");
// starttls=required refuses an smtp:// server that does not offer STARTTLS; auth= picks the AUTH
// mechanism (plain, login, cram-md5, or auto: the strongest the server offers, never a plain
// password over an unencrypted connection). The default is auto, except plain for a loopback host
// (a local mail catcher without TLS). Credentials are optional and URL-encoded.
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/crier/crier/app"
)

// Options tune the sender.
type Options struct {
	// BaseURL names the default sender's domain (noreply@host).
	BaseURL string
	// TLSConfig replaces the TLS settings (tests trust their own CA with it). ServerName is filled in.
	TLSConfig *tls.Config
	// Timeout bounds one delivery (connect to QUIT); default 30 s.
	Timeout time.Duration
}

// SMTP sends mail through one SMTP server. It is safe for concurrent use: every Send opens its own
// connection.
type SMTP struct {
	host      string
	port      int
	implicit  bool
	mandatory bool
	user      string
	pass      string
	from      string
	tls       *tls.Config
	timeout   time.Duration
	redacted  string
	auth      gomail.SMTPAuthType
}

var _ app.Mailer = (*SMTP)(nil)

// New parses an SMTP_URL.
func New(rawURL string, opts Options) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL: %w", err)
	}
	s := &SMTP{host: u.Hostname(), redacted: u.Redacted(), timeout: opts.Timeout}
	switch u.Scheme {
	case "smtp":
		s.port = 587
	case "smtps":
		s.port, s.implicit = 465, true
	default:
		return nil, fmt.Errorf("mail: SMTP_URL must start with smtp:// or smtps://, got %q", s.redacted)
	}
	if s.host == "" {
		return nil, fmt.Errorf("mail: SMTP_URL has no host: %q", s.redacted)
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port < 1 || s.port > 65535 {
			return nil, fmt.Errorf("mail: SMTP_URL port %q is not a port", p)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	q := u.Query()
	switch v := q.Get("starttls"); v {
	case "", "opportunistic":
	case "required":
		s.mandatory = true
	default:
		return nil, fmt.Errorf("mail: SMTP_URL starttls must be required or opportunistic, got %q", v)
	}
	switch v := strings.ToLower(q.Get("auth")); v {
	case "":
		s.auth = gomail.SMTPAuthAutoDiscover
		if ip := net.ParseIP(s.host); s.host == "localhost" || (ip != nil && ip.IsLoopback()) {
			s.auth = gomail.SMTPAuthPlain
		}
	case "auto":
		s.auth = gomail.SMTPAuthAutoDiscover
	case "plain":
		s.auth = gomail.SMTPAuthPlain
	case "login":
		s.auth = gomail.SMTPAuthLogin
	case "cram-md5":
		s.auth = gomail.SMTPAuthCramMD5
	default:
		return nil, fmt.Errorf("mail: SMTP_URL auth must be auto, plain, login or cram-md5, got %q", v)
	}
	s.from = q.Get("from")
	if s.from == "" {
		domain := "localhost"
		if b, err := url.Parse(opts.BaseURL); err == nil && b.Hostname() != "" {
			domain = b.Hostname()
		}
		s.from = "Crier <noreply@" + domain + ">"
	}
	if _, err := netmail.ParseAddress(s.from); err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL from=%q is not an address: %w", s.from, err)
	}
	if opts.TLSConfig != nil {
		s.tls = opts.TLSConfig.Clone()
	} else {
		s.tls = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	s.tls.ServerName = s.host
	if s.timeout <= 0 {
		s.timeout = 30 * time.Second
	}
	return s, nil
}

// From is the sender address.
func (s *SMTP) From() string { return s.from }

// String is the server URL without its password, for logs.
func (s *SMTP) String() string { return s.redacted }

// Send delivers m: a multipart/alternative message with the text and HTML bodies.
func (s *SMTP) Send(ctx context.Context, m app.Email) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.ID != "" {
		msg.SetMessageIDWithValue(m.ID + "@" + domainOf(s.from))
	} else {
		msg.SetMessageID()
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}

	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(s.timeout), gomail.WithTLSConfig(s.tls)}
	switch {
	case s.implicit:
		opts = append(opts, gomail.WithSSL())
	case s.mandatory:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(s.auth), gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return fmt.Errorf("mail: client for %s: %w", s.redacted, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send to %s through %s: %w", m.To, s.redacted, err)
	}
	return nil
}

func domainOf(addr string) string {
	if a, err := netmail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "crier"
}
