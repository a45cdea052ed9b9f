// Package migrations holds Crier's SQL migrations (tern format, embedded) and applies them together
// with River's own migrations.
//
// Why tern: it is pgx-native, reads an embed.FS, keeps up and down in one file, and sqlc reads its
// files as the schema. Both tern's and River's migrations run under one advisory lock held on a
// dedicated connection, so two instances booting together apply them once.
package migrations

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/tern/v2/migrate"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed *.sql
var files embed.FS

// lockKey is the advisory lock taken while migrating ("crier-migrate" in ASCII, truncated).
const lockKey int64 = 0x6372696572_6d67

// versionTable is tern's bookkeeping table.
const versionTable = "schema_version"

// Migrate applies River's and Crier's migrations, in that order, under an advisory lock.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrations: acquire: %w", err)
	}
	defer conn.Release()

	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return fmt.Errorf("migrations: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck

	riverMigrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("migrations: river: %w", err)
	}
	if _, err := riverMigrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrations: river: %w", err)
	}

	m, err := migrate.NewMigrator(ctx, conn.Conn(), versionTable)
	if err != nil {
		return fmt.Errorf("migrations: tern: %w", err)
	}
	if err := m.LoadMigrations(files); err != nil {
		return fmt.Errorf("migrations: load: %w", err)
	}
	if err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrations: apply: %w", err)
	}
	return nil
}

// Fingerprint hashes the migration files, so test templates are rebuilt when they change.
func Fingerprint() string {
	names, _ := fs.Glob(files, "*.sql")
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, _ := files.ReadFile(n)
		h.Write([]byte(n))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Latest is the version a fully migrated database is at: tern numbers migrations 1…n, so the
// number of embedded files (readiness compares it with schema_version).
func Latest() int {
	names, _ := fs.Glob(files, "*.sql")
	return len(names)
}
