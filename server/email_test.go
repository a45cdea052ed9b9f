package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/mail/mailtest"
	"github.com/crier/crier/server/servertest"
)

var linkToken = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// outboxToken returns the token of the newest outbox mail of kind to addr (no SMTP_URL: the dev
// mailbox is where mail goes).
func outboxToken(t *testing.T, srv *servertest.Server, addr string, kind app.MailKind) string {
	t.Helper()
	ms, err := srv.Service.Outbox(context.Background(), 100)
	require.NoError(t, err)
	for _, m := range ms {
		if strings.EqualFold(m.To, addr) && m.Kind == string(kind) {
			match := linkToken.FindStringSubmatch(m.Text)
			require.NotNil(t, match, m.Text)
			return match[1]
		}
	}
	t.Fatalf("no %s mail to %s", kind, addr)
	return ""
}

func sessionCookieOf(t *testing.T, res *http.Response) string {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == "crier_session" {
			require.True(t, c.HttpOnly)
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

func signup(t *testing.T, srv *servertest.Server, email, password string) string {
	t.Helper()
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+email+`","password":"`+password+`","firstName":"Grace","organizationName":"Acme"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	return sessionCookieOf(t, res)
}

// With SMTP_URL, the verification mail of a sign-up reaches a real SMTP server through the River
// job, with the right recipient, subject and link; the link's token verifies the address once.
func TestSignupVerificationMailIsDeliveredBySMTP(t *testing.T) {
	t.Parallel()
	smtpd := mailtest.Start(t, mailtest.Options{Username: "crier", Password: "s3cret"})
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"SMTP_URL": smtpd.URL() + "?from=Crier%20%3Cno-reply%40crier.test%3E"}})
	email := newEmail()
	cookie := signup(t, srv, email, "0123456789")

	msg := smtpd.WaitFor(t, email, 20*time.Second)
	require.Equal(t, []string{email}, msg.To)
	require.Equal(t, "no-reply@crier.test", msg.From)
	require.Equal(t, "Verify your email address for Crier", msg.Subject)
	prefix := srv.URL + "/verify-email?token="
	require.Contains(t, msg.Text, prefix)
	require.Contains(t, msg.HTML, `href="`+prefix)
	token := linkToken.FindStringSubmatch(msg.Text)[1]

	// The outbox row is marked sent.
	require.Eventually(t, func() bool {
		ms, err := srv.Service.Outbox(context.Background(), 10)
		require.NoError(t, err)
		for _, m := range ms {
			if m.To == email {
				return m.SentAt != nil
			}
		}
		return false
	}, 10*time.Second, 50*time.Millisecond)

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"`+token+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var me struct {
		User struct{ EmailVerifiedAt *time.Time }
	}
	require.NoError(t, json.Unmarshal(b, &me))
	require.NotNil(t, me.User.EmailVerifiedAt)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"`+token+`"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	require.Equal(t, "custom", e.Issues[0].Code)
	require.Equal(t, []any{"token"}, e.Issues[0].Path)
	require.Contains(t, e.Issues[0].Message, "already used")
}

// A refused delivery is retried by River until the server takes it.
func TestMailDeliveryIsRetried(t *testing.T) {
	t.Parallel()
	smtpd := mailtest.Start(t, mailtest.Options{FailFirst: 1})
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"SMTP_URL": smtpd.URL()}})
	email := newEmail()
	signup(t, srv, email, "0123456789")
	msg := smtpd.WaitFor(t, email, 45*time.Second)
	require.Equal(t, "Verify your email address for Crier", msg.Subject)
	require.Equal(t, 1, smtpd.Failures())
	var attempts int
	var lastError *string
	require.Eventually(t, func() bool {
		require.NoError(t, srv.Pool.QueryRow(context.Background(),
			"SELECT attempts, last_error FROM mail_outbox WHERE to_address = $1", email).Scan(&attempts, &lastError))
		return attempts == 2
	}, 10*time.Second, 50*time.Millisecond)
	require.Nil(t, lastError, "cleared once sent")
}

func TestVerifyEmailAndResendOverTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	email := newEmail()
	cookie := signup(t, srv, email, "0123456789")
	same := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}

	// Just signed up: a resend within the minute is 429.
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/resend-verification", "", same...)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "less than a minute ago")
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/auth/resend-verification", "")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)

	for body, code := range map[string]string{`{}`: "invalid_type", `{"token":"x","extra":1}`: "unrecognized_keys", `{"token":"unknown-token"}`: "custom"} {
		res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", body)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, body)
		require.Equal(t, code, decodeError(t, b).Issues[0].Code, body)
	}

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"`+outboxToken(t, srv, email, app.MailVerifyEmail)+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	// Verified: resend is a 400 with a message.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/resend-verification", "", same...)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, "Your email address is already verified", decodeError(t, b).Message)
}

func TestForgotAndResetPasswordOverTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	email := newEmail()
	cookie := signup(t, srv, email, "0123456789")

	// Same answer for a known and an unknown address.
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/forgot-password", `{"email":"`+newEmail()+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"success":true}`, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/forgot-password", `{"email":"`+email+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"success":true}`, string(b))
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/auth/forgot-password", `{"email":"`+email+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "throttled silently")
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/forgot-password", `{}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"email"}, decodeError(t, b).Issues[0].Path)
	token := outboxToken(t, srv, email, app.MailResetPassword)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/reset-password", `{"token":"`+token+`","password":"short"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	require.Equal(t, "too_small", e.Issues[0].Code)
	require.Equal(t, []any{"password"}, e.Issues[0].Path)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/reset-password", `{"token":"bogus","password":"a-new-password"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Equal(t, []any{"token"}, decodeError(t, b).Issues[0].Path)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/reset-password", `{"token":"`+token+`","password":"a-new-password"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	// Sessions end; the new password signs in; the token is spent.
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", `{"email":"`+email+`","password":"a-new-password"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/reset-password", `{"token":"`+token+`","password":"a-third-password"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, decodeError(t, b).Message, "already used")
}
