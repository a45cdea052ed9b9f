// Package mailtest runs a real SMTP server (emersion/go-smtp) inside a test process, on a random
// loopback port, and keeps what it receives, decoded, for assertions.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one received mail: the envelope and the decoded headers and bodies.
type Message struct {
	From    string   // envelope MAIL FROM
	To      []string // envelope RCPT TO
	Header  netmail.Header
	Subject string // decoded
	Text    string // the text/plain part, decoded
	HTML    string // the text/html part, decoded
	Raw     []byte
}

// Options tune the server.
type Options struct {
	// Username and Password, when set, are required (AUTH PLAIN) before MAIL.
	Username, Password string
	// TLS serves implicit TLS (smtps://) with a fresh self-signed certificate; ClientTLS trusts it.
	TLS bool
	// FailFirst rejects the first n messages with a temporary error (451), to exercise retries.
	FailFirst int
}

// Server is a running SMTP server.
type Server struct {
	Addr string
	opts Options
	srv  *smtp.Server
	ca   *x509.CertPool

	mu       sync.Mutex
	messages []Message
	failures int
	notify   chan struct{}
}

// Start runs a server until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts, notify: make(chan struct{}, 1)}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "mailtest.local"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.AllowInsecureAuth = true // loopback only
	s.srv.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	if opts.TLS {
		cert, pool, err := selfSigned()
		if err != nil {
			t.Fatalf("mailtest: certificate: %v", err)
		}
		s.ca = pool
		s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		ln = tls.NewListener(ln, s.srv.TLSConfig)
	}
	s.Addr = ln.Addr().String()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = s.srv.Close()
		<-done
	})
	return s
}

// URL is the SMTP_URL that reaches this server, with its credentials.
func (s *Server) URL() string {
	u := url.URL{Scheme: "smtp", Host: s.Addr}
	if s.opts.TLS {
		u.Scheme = "smtps"
	}
	if s.opts.Username != "" {
		u.User = url.UserPassword(s.opts.Username, s.opts.Password)
	}
	return u.String()
}

// ClientTLS is a client TLS configuration that trusts the server's certificate.
func (s *Server) ClientTLS() *tls.Config {
	return &tls.Config{RootCAs: s.ca, MinVersion: tls.VersionTLS12}
}

// Messages returns what arrived so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Failures is how many messages were rejected on purpose (FailFirst).
func (s *Server) Failures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures
}

// WaitFor waits until a message to rcpt arrives and returns it (the newest such).
func (s *Server) WaitFor(t testing.TB, rcpt string, timeout time.Duration) Message {
	t.Helper()
	deadline := time.After(timeout)
	for {
		msgs := s.Messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			for _, to := range msgs[i].To {
				if strings.EqualFold(to, rcpt) {
					return msgs[i]
				}
			}
		}
		select {
		case <-s.notify:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("mailtest: no message to %s within %s (got %d messages)", rcpt, timeout, len(msgs))
		}
	}
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }

type session struct {
	srv    *Server
	authed bool
	from   string
	to     []string
}

var errAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}

func (se *session) AuthMechanisms() []string {
	if se.srv.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (se *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != se.srv.opts.Username || password != se.srv.opts.Password {
			return errors.New("invalid username or password")
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.srv.opts.Username != "" && !se.authed {
		return errAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if se.srv.opts.Username != "" && !se.authed {
		return errAuthRequired
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := se.srv
	s.mu.Lock()
	if s.failures < s.opts.FailFirst {
		s.failures++
		s.mu.Unlock()
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later (mailtest)"}
	}
	s.mu.Unlock()
	msg, err := Parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Unparsable message: " + err.Error()}
	}
	msg.From, msg.To = se.from, append([]string(nil), se.to...)
	s.mu.Lock()
	s.messages = append(s.messages, msg)
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
	return nil
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

// Parse decodes a raw message: headers, subject, and its text and HTML bodies (single part or
// multipart, quoted-printable or base64).
func Parse(raw []byte) (Message, error) {
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Message{}, err
	}
	out := Message{Header: m.Header, Raw: raw}
	dec := new(mime.WordDecoder)
	if out.Subject, err = dec.DecodeHeader(m.Header.Get("Subject")); err != nil {
		return Message{}, fmt.Errorf("subject: %w", err)
	}
	err = walk(&out, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	return out, err
}

func walk(out *Message, contentType, encoding string, body io.Reader) error {
	if contentType == "" {
		contentType = "text/plain"
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walk(out, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &stripNewlines{r: body})
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	switch mt {
	case "text/plain":
		out.Text = string(b)
	case "text/html":
		out.HTML = string(b)
	}
	return nil
}

type stripNewlines struct{ r io.Reader }

func (s *stripNewlines) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[j] = c
			j++
		}
	}
	return j, err
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "mailtest"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, pool, nil
}
