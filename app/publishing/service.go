// Package publishing is the publishing pipeline: posts, their comments and per-network targets, the
// checks and quotas a post passes before it is accepted, its review, and the worker's protocol that
// publishes each target exactly once (PublishTarget, run by jobs). It is built over app's core (the
// principal, the error type, transactions, the events outbox) and publishes with the accounts and
// uploads of app.Service; app never imports it.
package publishing

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// Accounts is what publishing uses of app.Service: the team's social accounts, their adapters and
// tokens, the uploads, the audit log and the events outbox.
type Accounts interface {
	AccountByType(ctx context.Context, q *store.Queries, orgID, teamID string, n app.Network) (store.SocialAccount, error)
	Adapter(n app.Network) (app.Adapter, error)
	WithToken(ctx context.Context, row store.SocialAccount, fn func(*app.Token) error) (store.SocialAccount, error)
	UploadFromRow(ctx context.Context, r store.Upload) *app.Upload
	Audit(ctx context.Context, tx pgx.Tx, item app.AuditItem) error
	Emit(ctx context.Context, tx pgx.Tx, orgID, kind string, payload any) error
	EmitWithPostStatus(ctx context.Context, tx pgx.Tx, st store.SetPostStatusParams, orgID, kind string, payload any) error
}

var _ Accounts = (*app.Service)(nil)

// Service holds the publishing operations. Like app.Service, its methods scope every query by the
// caller's organization.
type Service struct {
	accounts     Accounts
	db           store.DB
	q            *store.Queries
	jobs         app.Enqueuer
	storage      storage.Storage
	now          func() time.Time
	publishLease time.Duration
	obs          app.Observer
	writes       *writeCache // what posts' writes are checked against, kept a short while (write_cache.go)
}

// New builds the publishing service over app's core and its accounts (an *app.Service); it fails
// when a dependency is missing, so an instance never starts unable to enqueue.
func New(core app.Core, accounts Accounts) (*Service, error) {
	if svc, ok := accounts.(*app.Service); accounts == nil || ok && svc == nil ||
		core.DB == nil || core.Queries == nil || core.Jobs == nil || core.Now == nil || core.Storage == nil {
		return nil, errors.New("publishing: New needs app's core (DB, Queries, Jobs, Storage, Now) and its Service")
	}
	return &Service{accounts: accounts, db: core.DB, q: core.Queries, jobs: core.Jobs, storage: core.Storage,
		now: core.Now, publishLease: core.PublishLease, obs: cmp.Or[app.Observer](core.Observer, app.NoObserver{}), writes: newWriteCache()}, nil
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// nonEmpty is nil for "" (a copy of app's four-line helper: not worth a core export).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
