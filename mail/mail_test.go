package mail_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/mail"
	"github.com/crier/crier/mail/mailtest"
)

const link = "https://crier.example/verify-email?token=Zm9vYmFyLWJhei1xdXV4LWxvbmctdG9rZW4tdmFsdWUtMDEyMzQ1Njc4OQ"

func email(to string) app.Email {
	return app.Email{
		ID: "6f1c2a52-0d5e-4d7e-9d7e-3b5e0c7b1a11", To: to, Subject: "Vérifiez votre adresse — Crier",
		Text: "Hi Ada,\n\nOpen this link:\n\n" + link + "\n\nThanks.\n",
		HTML: `<p>Hi Ada,</p><p><a href="` + link + `">Verify</a></p>`,
	}
}

// Delivery through a real SMTP server with AUTH: recipient, subject, both bodies and the link arrive.
func TestSendThroughSMTPWithAuth(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t, mailtest.Options{Username: "crier", Password: "p@ss:word/1"})
	m, err := mail.New(srv.URL(), mail.Options{BaseURL: "https://crier.example"})
	require.NoError(t, err)
	require.Equal(t, "Crier <noreply@crier.example>", m.From())
	require.NotContains(t, m.String(), "p@ss")

	require.NoError(t, m.Send(context.Background(), email("ada@example.com")))
	got := srv.WaitFor(t, "ada@example.com", 5*time.Second)
	require.Equal(t, []string{"ada@example.com"}, got.To)
	require.Equal(t, "noreply@crier.example", got.From)
	require.Equal(t, "Vérifiez votre adresse — Crier", got.Subject)
	require.Contains(t, got.Text, link)
	require.Contains(t, got.HTML, `href="`+link+`"`)
	require.Contains(t, got.Header.Get("Message-Id"), "6f1c2a52-0d5e-4d7e-9d7e-3b5e0c7b1a11@crier.example")
	require.NotEmpty(t, got.Header.Get("Date"))
}

func TestSendWithWrongPasswordFails(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t, mailtest.Options{Username: "crier", Password: "right"})
	m, err := mail.New(strings.Replace(srv.URL(), "right", "wrong", 1), mail.Options{})
	require.NoError(t, err)
	require.Error(t, m.Send(context.Background(), email("ada@example.com")))
	require.Empty(t, srv.Messages())
}

// smtps:// speaks TLS from the first byte; the sender trusts the server's certificate.
func TestSendOverImplicitTLS(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t, mailtest.Options{TLS: true, Username: "u", Password: "p"})
	require.True(t, strings.HasPrefix(srv.URL(), "smtps://"))
	m, err := mail.New(srv.URL()+"?from=Crier%20Alerts%20%3Calerts%40crier.example%3E", mail.Options{TLSConfig: srv.ClientTLS()})
	require.NoError(t, err)
	require.NoError(t, m.Send(context.Background(), email("grace@example.com")))
	got := srv.WaitFor(t, "grace@example.com", 5*time.Second)
	require.Equal(t, "alerts@crier.example", got.From)
	require.Contains(t, got.Text, link)

	// Without trusting the certificate, delivery fails rather than going out unverified.
	untrusting, err := mail.New(srv.URL(), mail.Options{})
	require.NoError(t, err)
	require.Error(t, untrusting.Send(context.Background(), email("grace@example.com")))
}

// starttls=required refuses a server that does not offer STARTTLS.
func TestStartTLSRequired(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t, mailtest.Options{})
	m, err := mail.New(srv.URL()+"?starttls=required", mail.Options{})
	require.NoError(t, err)
	require.Error(t, m.Send(context.Background(), email("ada@example.com")))
	require.Empty(t, srv.Messages())
}

func TestNewRejectsBadURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"http://mail.example.com",
		"smtp://",
		"smtp://mail.example.com:notaport",
		"smtp://mail.example.com:70000",
		"smtp://mail.example.com?starttls=sometimes",
		"smtp://mail.example.com?from=not-an-address",
		"smtp://mail.example.com?auth=magic",
	} {
		_, err := mail.New(u, mail.Options{})
		require.Error(t, err, u)
	}
	m, err := mail.New("smtps://mail.example.com", mail.Options{})
	require.NoError(t, err)
	require.Equal(t, "Crier <noreply@localhost>", m.From())
}
