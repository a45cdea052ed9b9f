// Package storetest gives tests a real, migrated PostgreSQL database fast.
//
// One template database is migrated per migration fingerprint (shared by every package's test
// binary, built under an advisory lock); each NewDB clones it (CREATE DATABASE … TEMPLATE, ≈20 ms)
// and drops the clone when the test ends. Tx gives a rolled-back transaction on a shared clone, for
// tests that need no commits. The server is CRIER_TEST_DATABASE_URL, default the local trust-auth
// PostgreSQL at 127.0.0.1:5432.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/crier/crier/migrations"
	"github.com/crier/crier/store"
)

// AdminURL is the maintenance database tests create their databases from.
func AdminURL() string {
	if u := os.Getenv("CRIER_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

const templateLock int64 = 0x6372696572_7470 // "crier-tp"

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// template returns the name of the migrated template database, building it once per fingerprint.
func template(t testing.TB) string {
	t.Helper()
	templateOnce.Do(func() { templateName, templateErr = buildTemplate(context.Background()) })
	if templateErr != nil {
		t.Fatalf("storetest: template database: %v", templateErr)
	}
	return templateName
}

func buildTemplate(ctx context.Context) (string, error) {
	name := "crier_tmpl_" + migrations.Fingerprint() + "_" + riverVersion()
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return "", fmt.Errorf("connect %s (is PostgreSQL running?): %w", AdminURL(), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return "", err
	}
	defer admin.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock) //nolint:errcheck

	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Templates (and their shared clones) of other migration sets are dropped once a day has passed
	// since they were built (the build time is the database's comment) and nobody uses them: another
	// checkout testing with its own migrations (a colleague's work in progress, an older branch) keeps
	// its databases while it works. `make test-clean` drops them all.
	type database struct {
		Name     string
		Template bool
		Built    *string
	}
	rows, err := admin.Query(ctx, `SELECT datname, datistemplate, shobj_description(oid, 'pg_database')
		FROM pg_database WHERE datname LIKE 'crier\_tmpl\_%'`)
	if err != nil {
		return "", err
	}
	others, err := pgx.CollectRows(rows, pgx.RowToStructByPos[database])
	if err != nil {
		return "", err
	}
	for _, db := range others {
		built, err := time.Parse(time.RFC3339, strings.TrimPrefix(deref(db.Built), "built "))
		if err == nil && time.Since(built) < 24*time.Hour {
			continue
		}
		id := pgx.Identifier{db.Name}.Sanitize()
		if _, err := admin.Exec(ctx, "ALTER DATABASE "+id+" WITH IS_TEMPLATE false"); err != nil {
			continue
		}
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+id); err != nil && db.Template {
			// In use: keep it as it was; a later run tries again.
			_, _ = admin.Exec(ctx, "ALTER DATABASE "+id+" WITH IS_TEMPLATE true")
		}
	}
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, urlFor(name))
	if err != nil {
		return "", err
	}
	err = migrations.Migrate(ctx, pool)
	pool.Close()
	if err != nil {
		return "", err
	}
	// Marked as template only once complete, so a crashed build is rebuilt rather than reused.
	if _, err := admin.Exec(ctx, "COMMENT ON DATABASE "+ident+" IS 'built "+time.Now().UTC().Format(time.RFC3339)+"'"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident+" WITH IS_TEMPLATE true"); err != nil {
		return "", err
	}
	return name, nil
}

// NewDB returns a pool on a fresh migrated database, dropped when the test ends, and its URL.
func NewDB(t testing.TB) (*pgxpool.Pool, string) {
	t.Helper()
	tmpl := template(t)
	ctx := context.Background()
	name := "crier_test_" + randomHex(6)
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{tmpl}.Sanitize()); err != nil {
		t.Fatalf("storetest: clone template: %v", err)
	}
	url := urlFor(name)
	pool, err := store.Connect(ctx, url)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() {
		pool.Close()
		ctx := context.Background()
		admin, err := pgx.Connect(ctx, AdminURL())
		if err != nil {
			t.Errorf("storetest: drop %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("storetest: drop %s: %v", name, err)
		}
	})
	return pool, url
}

var (
	sharedOnce sync.Once
	sharedPool *pgxpool.Pool
	sharedErr  error
)

// Tx returns a transaction on a database shared by every test binary of this migration set, rolled
// back when the test ends. Randomise unique values in fixtures: parallel transactions block each
// other on unique indexes.
func Tx(t testing.TB) pgx.Tx {
	t.Helper()
	tmpl := template(t)
	sharedOnce.Do(func() { sharedPool, sharedErr = openShared(context.Background(), tmpl) })
	if sharedErr != nil {
		t.Fatalf("storetest: shared database: %v", sharedErr)
	}
	tx, err := sharedPool.Begin(context.Background())
	if err != nil {
		t.Fatalf("storetest: begin: %v", err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.WithoutCancel(context.Background())) })
	return tx
}

// openShared clones the template once into <template>_shared, which later runs reuse.
func openShared(ctx context.Context, tmpl string) (*pgxpool.Pool, error) {
	name := tmpl + "_shared"
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return nil, err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return nil, err
	}
	defer admin.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock) //nolint:errcheck
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{tmpl}.Sanitize()); err != nil {
			return nil, err
		}
	}
	return store.Connect(ctx, urlFor(name))
}

func urlFor(db string) string {
	cfg, err := pgx.ParseConfig(AdminURL())
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, db)
}

func riverVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/riverqueue/river" {
				return sanitize(d.Version)
			}
		}
	}
	return "river"
}

func sanitize(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			out = append(out, c)
		}
	}
	return string(out)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
