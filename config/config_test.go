package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/config"
)

func env(t *testing.T, kv map[string]string) config.Getenv {
	t.Helper()
	if _, ok := kv["CRIER_DATA_DIR"]; !ok {
		kv["CRIER_DATA_DIR"] = t.TempDir()
	}
	if _, ok := kv["CRIER_ENV"]; !ok {
		kv["CRIER_ENV"] = "development" // the mode of `make run`; TestEnvDefaultsToProduction checks the default
	}
	return func(k string) string { return kv[k] }
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{}))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", c.Addr)
	require.Equal(t, "http://127.0.0.1:8080", c.BaseURL)
	require.Equal(t, "development", c.Env)
	require.False(t, c.Sandbox)
	require.Len(t, c.Secret, 64)
	require.Contains(t, c.StorageURL, "file://")
}

// Without CRIER_ENV Crier runs in production: the dev mailbox must never be what a forgotten
// variable gives a public server, and production refuses to start without a real secret.
func TestEnvDefaultsToProduction(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	getenv := func(kv map[string]string) config.Getenv { return func(k string) string { return kv[k] } }
	_, err := config.Load(getenv(map[string]string{"CRIER_DATA_DIR": dir}))
	require.ErrorContains(t, err, "CRIER_SECRET: is required when CRIER_ENV=production")

	c, err := config.Load(getenv(map[string]string{"CRIER_DATA_DIR": dir, "CRIER_SECRET": "0123456789abcdef0123456789abcdef"}))
	require.NoError(t, err)
	require.Equal(t, "production", c.Env)
	require.True(t, c.Production())
}

func TestDevSecretIsKeptAcrossStarts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, err := config.Load(env(t, map[string]string{"CRIER_DATA_DIR": dir}))
	require.NoError(t, err)
	b, err := config.Load(env(t, map[string]string{"CRIER_DATA_DIR": dir}))
	require.NoError(t, err)
	require.Equal(t, a.Secret, b.Secret)
	info, err := os.Stat(filepath.Join(dir, "secret"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

func TestBaseURLFollowsAddr(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{"ADDR": "0.0.0.0:9000", "SANDBOX": "1", "ALLOW_PRIVATE_URLS": "true"}))
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:9000", c.BaseURL)
	require.True(t, c.Sandbox)
	require.True(t, c.AllowPrivateURLs)
}

// Every bad variable is reported at once, each message naming its variable.
func TestBadConfigurationNamesTheVariable(t *testing.T) {
	t.Parallel()
	_, err := config.Load(env(t, map[string]string{
		"DATABASE_URL":       "mysql://nope",
		"ADDR":               "8080",
		"BASE_URL":           "ftp://x",
		"SANDBOX":            "maybe",
		"ALLOW_PRIVATE_URLS": "2",
		"SMTP_URL":           "http://mail",
		"STORAGE_URL":        "gs://bucket",
		"STRIPE_API_BASE":    "localhost:12111",
		"STRIPE_SECRET_KEY":  "pk_test_123",
		"CRIER_SECRET":       "short",
		"CRIER_ENV":          "staging",
	}))
	require.Error(t, err)
	for _, name := range []string{"DATABASE_URL", "ADDR", "BASE_URL", "SANDBOX", "ALLOW_PRIVATE_URLS", "SMTP_URL",
		"STORAGE_URL", "STRIPE_API_BASE", "STRIPE_SECRET_KEY", "CRIER_SECRET", "CRIER_ENV"} {
		require.Contains(t, err.Error(), name+":")
	}
}

func TestProductionRequiresSecret(t *testing.T) {
	t.Parallel()
	_, err := config.Load(env(t, map[string]string{"CRIER_ENV": "production"}))
	require.ErrorContains(t, err, "CRIER_SECRET: is required")

	c, err := config.Load(env(t, map[string]string{"CRIER_ENV": "production", "CRIER_SECRET": "0123456789abcdef0123456789abcdef", "BASE_URL": "https://crier.example/"}))
	require.NoError(t, err)
	require.True(t, c.Production())
	require.Equal(t, "https://crier.example", c.BaseURL)
}

func TestS3StorageURL(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{"STORAGE_URL": "s3://media?endpoint=http://127.0.0.1:7070&region=us-east-1"}))
	require.NoError(t, err)
	require.Equal(t, "s3://media?endpoint=http://127.0.0.1:7070&region=us-east-1", c.StorageURL)
}

func TestUploadLimits(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{}))
	require.NoError(t, err)
	require.Equal(t, []int{20, 4096, 100, 64, 90}, []int{c.UploadMaxImageMB, c.UploadMaxVideoMB, c.UploadMaxDocumentMB, c.UploadPartSizeMB, c.UploadRetentionDays})
	c, err = config.Load(env(t, map[string]string{"UPLOAD_MAX_IMAGE_MB": "8", "UPLOAD_RETENTION_DAYS": "30"}))
	require.NoError(t, err)
	require.Equal(t, 8, c.UploadMaxImageMB)
	require.Equal(t, 30, c.UploadRetentionDays)
	_, err = config.Load(env(t, map[string]string{"UPLOAD_PART_SIZE_MB": "1"}))
	require.ErrorContains(t, err, "UPLOAD_PART_SIZE_MB")
}

// Operations are off by default; metrics beyond loopback need a token; admins are lower-cased.
func TestOperations(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{}))
	require.NoError(t, err)
	require.Empty(t, c.MetricsAddr)
	require.Empty(t, c.AdminEmails)
	require.False(t, c.Pprof)

	c, err = config.Load(env(t, map[string]string{"METRICS_ADDR": "127.0.0.1:9090", "CRIER_PPROF": "1",
		"CRIER_ADMIN_EMAILS": " Ops@Example.com, ,root@example.com"}))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:9090", c.MetricsAddr)
	require.True(t, c.Pprof)
	require.Equal(t, []string{"ops@example.com", "root@example.com"}, c.AdminEmails)

	_, err = config.Load(env(t, map[string]string{"METRICS_ADDR": ":9090"}))
	require.ErrorContains(t, err, "METRICS_TOKEN:")
	_, err = config.Load(env(t, map[string]string{"METRICS_ADDR": ":9090", "METRICS_TOKEN": "0123456789abcdef"}))
	require.NoError(t, err)
	_, err = config.Load(env(t, map[string]string{"METRICS_ADDR": "9090", "CRIER_ADMIN_EMAILS": "root", "CRIER_PPROF": "maybe"}))
	for _, name := range []string{"METRICS_ADDR", "CRIER_ADMIN_EMAILS", "CRIER_PPROF"} {
		require.ErrorContains(t, err, name+":")
	}
}

// The sandbox runs inside Crier unless SANDBOX_URL names its own process (`crier sandbox`, on
// SANDBOX_ADDR), which implies SANDBOX.
func TestSandboxURL(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(t, map[string]string{"SANDBOX": "1"}))
	require.NoError(t, err)
	require.Equal(t, c.BaseURL, c.SandboxBase())
	require.Equal(t, "127.0.0.1:8081", c.SandboxAddr)

	c, err = config.Load(env(t, map[string]string{"SANDBOX_URL": "http://127.0.0.1:9191/", "SANDBOX_ADDR": "127.0.0.1:9191"}))
	require.NoError(t, err)
	require.True(t, c.Sandbox)
	require.Equal(t, "http://127.0.0.1:9191", c.SandboxBase())
	require.Equal(t, "127.0.0.1:9191", c.SandboxAddr)

	_, err = config.Load(env(t, map[string]string{"SANDBOX_URL": "127.0.0.1:9191", "SANDBOX_ADDR": "nope"}))
	require.ErrorContains(t, err, "SANDBOX_URL")
	require.ErrorContains(t, err, "SANDBOX_ADDR")
}
