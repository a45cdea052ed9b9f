// Package store holds Crier's SQL: sqlc-generated queries for static SQL (queries/*.sql →
// *.gen.go) and hand-written pgx builders for dynamic filters. Nothing outside store writes SQL.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is the server's pool size when DATABASE_URL does not say (pool_max_conns):
// pgxpool's default (max(4, CPUs)) starves the River workers (publish 20, webhooks 20 …), which
// each hold a connection per transaction.
const DefaultMaxConns = 32

// WithMaxConns adds pool_max_conns=n to a database URL that does not set it.
func WithMaxConns(url string, n int) string {
	if strings.Contains(url, "pool_max_conns") {
		return url
	}
	sep := "?"
	switch {
	case !strings.Contains(url, "://"):
		sep = " " // keyword/value form
	case strings.Contains(url, "?"):
		sep = "&"
	}
	return fmt.Sprintf("%s%spool_max_conns=%d", url, sep, n)
}

// Connect opens a pool on url, creating the database first if it does not exist yet
// (so `make run` works against a fresh server), and checks that it answers.
func Connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: parse DATABASE_URL: %w", err)
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: open pool: %w", err)
	}
	err = pool.Ping(ctx)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "3D000" { // invalid_catalog_name: no such database
		pool.Close()
		if err := createDatabase(ctx, cfg.ConnConfig); err != nil {
			return nil, err
		}
		return Connect(ctx, url)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: connect to %s@%s:%d/%s: %w",
			cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	return pool, nil
}

func createDatabase(ctx context.Context, target *pgx.ConnConfig) error {
	admin := target.Copy()
	admin.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return fmt.Errorf("store: database %q is missing and the server's postgres database is unreachable: %w", target.Database, err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{target.Database}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: another instance won
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: create database %q: %w", target.Database, err)
	}
	return nil
}

// Beginner is satisfied by a pool and by a transaction (nested Begin is a savepoint).
type Beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// DB is what services hold: a pool in production, a transaction in tests that roll back.
type DB interface {
	DBTX
	Beginner
	Batcher // several statements in one round trip (post_read.go)
}

// InTx runs fn in a transaction on db, committing when fn returns nil and rolling back otherwise.
func InTx(ctx context.Context, db Beginner, fn func(tx pgx.Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after commit it is a no-op
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}
