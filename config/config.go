// Package config reads Crier's runtime configuration from the environment.
// The variable names are the runtime contract of ../shared/design.md: keep them stable.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/ratelimit"
)

// Config is the whole runtime configuration. Zero values are never used: Load fills defaults.
type Config struct {
	DatabaseURL string
	Addr        string
	BaseURL     string // public URL without a trailing slash
	Secret      []byte // signs cookies and state, encrypts tokens; at least 32 bytes
	Env         string // development | production
	Sandbox     bool
	// SandboxURL is where the simulated networks run as their own process (`crier sandbox`, which
	// outlives Crier's restarts): SANDBOX_URL, without a trailing slash; it implies SANDBOX. Empty:
	// they run inside Crier, under BASE_URL/sandbox.
	SandboxURL string
	// SandboxAddr is where `crier sandbox` listens (SANDBOX_ADDR, default 127.0.0.1:8081).
	SandboxAddr string
	SMTPURL     string // empty: mail goes to the outbox table
	StorageURL  string
	DataDir     string

	StripeSecretKey     string
	StripeWebhookSecret string
	StripeAPIBase       string

	AllowPrivateURLs bool
	// WebhookDeactivateAfter: a webhook whose deliveries all failed for this long is deactivated
	// (WEBHOOK_DEACTIVATE_AFTER, a Go duration such as 72h; default 72h).
	WebhookDeactivateAfter time.Duration

	// S3 credentials of STORAGE_URL=s3://… (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
	AWSAccessKeyID     string
	AWSSecretAccessKey string
	// Upload limits (UPLOAD_MAX_IMAGE_MB, UPLOAD_MAX_VIDEO_MB, UPLOAD_MAX_DOCUMENT_MB), the multipart
	// part size (UPLOAD_PART_SIZE_MB) and how long unused uploads are kept (UPLOAD_RETENTION_DAYS).
	UploadMaxImageMB    int
	UploadMaxVideoMB    int
	UploadMaxDocumentMB int
	UploadPartSizeMB    int
	UploadRetentionDays int

	// Operations (README "Operating Crier"). MetricsAddr serves /metrics on a listener of its own
	// (METRICS_ADDR; empty: no metrics), behind MetricsToken when set (METRICS_TOKEN, a bearer token;
	// required unless the address is loopback). AdminEmails are the instance administrators
	// (CRIER_ADMIN_EMAILS, comma-separated, lower-cased): signed in with one of these verified
	// emails, a user sees the River UI and, with Pprof (CRIER_PPROF=1), the profiler.
	MetricsAddr  string
	MetricsToken string
	AdminEmails  []string
	Pprof        bool
	// Abuse limits (README "Rate limits"): the request budget per API key, session or IP
	// (CRIER_RATE_LIMITS, e.g. 100/1s,500/10s,2000/1m; "off"), the instances sharing it
	// (CRIER_INSTANCES), requests served at once before answering 503 (CRIER_MAX_INFLIGHT), and
	// the proxies whose X-Forwarded-For names the client (CRIER_TRUSTED_PROXIES, CIDRs).
	RateLimits     ratelimit.Policy
	Instances      int
	MaxInflight    int
	TrustedProxies []*net.IPNet
	// PostCacheMB bounds the API's cache of posts' records (CRIER_POST_CACHE_MB, megabytes of
	// JSON per instance; 0 turns it off): api/post_cache.go.
	PostCacheMB int
}

// SandboxBase is the URL the simulated networks are served under (its /sandbox/<network>):
// SANDBOX_URL, else Crier's own.
func (c Config) SandboxBase() string {
	if c.SandboxURL != "" {
		return c.SandboxURL
	}
	return c.BaseURL
}

// Production reports whether Crier runs in production mode (no dev pages, https required for webhooks).
func (c Config) Production() bool { return c.Env == "production" }

// Getenv is os.Getenv's shape, so tests can pass a map.
type Getenv func(string) string

// Load reads and checks the configuration. Every error names the variable at fault.
func Load(getenv Getenv) (Config, error) {
	c := Config{
		DataDir: or(getenv("CRIER_DATA_DIR"), ".data"),
		// Production unless told otherwise: development mode opens the dev mailbox, so it must be a
		// choice (`make run` makes it), never what a forgotten variable gives a public server.
		Env: or(getenv("CRIER_ENV"), "production"),
	}
	var errs []error
	fail := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}

	if c.Env != "development" && c.Env != "production" {
		fail("CRIER_ENV", "must be development or production, got %q", c.Env)
	}

	c.DatabaseURL = or(getenv("DATABASE_URL"), "postgres://postgres@127.0.0.1:5432/crier?sslmode=disable")
	if _, err := pgxpool.ParseConfig(c.DatabaseURL); err != nil {
		fail("DATABASE_URL", "not a PostgreSQL URL: %v", err)
	}

	c.Addr = or(getenv("ADDR"), "127.0.0.1:8080")
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil || port == "" {
		fail("ADDR", "must be host:port, got %q", c.Addr)
	}

	c.BaseURL = strings.TrimRight(getenv("BASE_URL"), "/")
	if c.BaseURL == "" {
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "127.0.0.1"
		}
		c.BaseURL = "http://" + net.JoinHostPort(host, port)
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fail("BASE_URL", "must be an absolute http(s) URL, got %q", c.BaseURL)
	}

	for _, b := range []struct {
		name string
		dst  *bool
	}{{"SANDBOX", &c.Sandbox}, {"ALLOW_PRIVATE_URLS", &c.AllowPrivateURLs}, {"CRIER_PPROF", &c.Pprof}} {
		v, err := parseBool(getenv(b.name))
		if err != nil {
			fail(b.name, "%v", err)
		}
		*b.dst = v
	}

	c.SandboxURL = strings.TrimRight(strings.TrimSpace(getenv("SANDBOX_URL")), "/")
	if c.SandboxURL != "" {
		if u, err := url.Parse(c.SandboxURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fail("SANDBOX_URL", "must be an absolute http(s) URL such as http://127.0.0.1:8081, got %q", c.SandboxURL)
		}
		c.Sandbox = true
	}
	c.SandboxAddr = or(getenv("SANDBOX_ADDR"), "127.0.0.1:8081")
	if _, port, err := net.SplitHostPort(c.SandboxAddr); err != nil || port == "" {
		fail("SANDBOX_ADDR", "must be host:port, got %q", c.SandboxAddr)
	}

	c.WebhookDeactivateAfter = 72 * time.Hour
	if v := strings.TrimSpace(getenv("WEBHOOK_DEACTIVATE_AFTER")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			fail("WEBHOOK_DEACTIVATE_AFTER", "must be a duration of at least 1m (e.g. 72h), got %q", v)
		} else {
			c.WebhookDeactivateAfter = d
		}
	}

	c.SMTPURL = getenv("SMTP_URL")
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			fail("SMTP_URL", "must look like smtp://user:pass@host:port or smtps://…, got %q", redact(c.SMTPURL))
		}
	}

	c.StorageURL = or(getenv("STORAGE_URL"), "file://"+filepath.Join(c.DataDir, "uploads"))
	if u, err := url.Parse(c.StorageURL); err != nil {
		fail("STORAGE_URL", "not a URL: %v", err)
	} else {
		switch {
		case u.Scheme == "file" && u.Host+u.Path != "":
		case u.Scheme == "s3" && u.Host != "":
		default:
			fail("STORAGE_URL", "must be file://DIR or s3://BUCKET?endpoint=…&region=…, got %q", redact(c.StorageURL))
		}
	}

	c.AWSAccessKeyID, c.AWSSecretAccessKey = getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	for _, n := range []struct {
		name     string
		dst      *int
		def, min int
		max      int
	}{
		{"UPLOAD_MAX_IMAGE_MB", &c.UploadMaxImageMB, 20, 1, 5 << 10},
		{"UPLOAD_MAX_VIDEO_MB", &c.UploadMaxVideoMB, 4 << 10, 1, 5 << 20},
		{"UPLOAD_MAX_DOCUMENT_MB", &c.UploadMaxDocumentMB, 100, 1, 5 << 10},
		{"UPLOAD_PART_SIZE_MB", &c.UploadPartSizeMB, 64, 5, 5 << 10},
		{"UPLOAD_RETENTION_DAYS", &c.UploadRetentionDays, 90, 1, 36500},
	} {
		*n.dst = n.def
		if v := strings.TrimSpace(getenv(n.name)); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < n.min || i > n.max {
				fail(n.name, "must be a whole number from %d to %d, got %q", n.min, n.max, v)
				continue
			}
			*n.dst = i
		}
	}

	c.MetricsAddr, c.MetricsToken = strings.TrimSpace(getenv("METRICS_ADDR")), getenv("METRICS_TOKEN")
	if c.MetricsAddr != "" {
		if h, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			fail("METRICS_ADDR", "must be host:port (e.g. 127.0.0.1:9090), got %q", c.MetricsAddr)
		} else if ip := net.ParseIP(h); (ip == nil || !ip.IsLoopback()) && h != "localhost" && len(c.MetricsToken) < 16 {
			// Metrics name routes and volumes: never served to the world without a token.
			fail("METRICS_TOKEN", "must be at least 16 characters when METRICS_ADDR (%q) is not a loopback address", c.MetricsAddr)
		}
	}
	for _, e := range strings.Split(getenv("CRIER_ADMIN_EMAILS"), ",") {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			if !strings.Contains(e, "@") {
				fail("CRIER_ADMIN_EMAILS", "must be comma-separated email addresses, got %q", e)
			}
			c.AdminEmails = append(c.AdminEmails, e)
		}
	}
	c.loadLimits(getenv, fail)

	c.StripeSecretKey = getenv("STRIPE_SECRET_KEY")
	c.StripeWebhookSecret = getenv("STRIPE_WEBHOOK_SECRET")
	c.StripeAPIBase = getenv("STRIPE_API_BASE")
	if c.StripeAPIBase != "" {
		if u, err := url.Parse(c.StripeAPIBase); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fail("STRIPE_API_BASE", "must be an absolute http(s) URL, got %q", c.StripeAPIBase)
		}
	}
	if c.StripeSecretKey != "" && !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_") {
		fail("STRIPE_SECRET_KEY", "must start with sk_ or rk_")
	}

	secret := getenv("CRIER_SECRET")
	switch {
	case secret != "":
		if len(secret) < 32 {
			fail("CRIER_SECRET", "must be at least 32 characters (try: openssl rand -hex 32)")
		}
		c.Secret = []byte(secret)
	case c.Production():
		fail("CRIER_SECRET", "is required when CRIER_ENV=production")
	default:
		s, err := devSecret(c.DataDir)
		if err != nil {
			fail("CRIER_SECRET", "unset, and the development secret under %s could not be kept: %v", c.DataDir, err)
		}
		c.Secret = s
	}

	return c, errors.Join(errs...)
}

// devSecret returns the development secret kept in DataDir/secret, generating it on first use,
// so sessions and encrypted tokens survive restarts of `make run`.
func devSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, "secret")
	if b, err := os.ReadFile(path); err == nil {
		if s := strings.TrimSpace(string(b)); len(s) >= 32 {
			return []byte(s), nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	s := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false, nil
	case "1", "true", "yes", "on":
		return true, nil
	}
	return false, fmt.Errorf("must be 1 or 0 (true/false), got %q", v)
}

// redact hides a URL's password in error messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
