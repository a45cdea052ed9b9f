// Package publishing is the publishing pipeline: posts, their comments and per-network targets, the
// checks and quotas a post passes before it is accepted, its review, and the worker's protocol that
// publishes each target exactly once (PublishTarget, run by jobs). It is built over app's core (the
// principal, the error type, transactions, the events outbox) and publishes with the accounts and
// uploads of app.Service; app never imports it.
package publishing

import (
	"errors"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// Service holds the publishing operations. Like app.Service, its methods scope every query by the
// caller's organization.
type Service struct {
	app          *app.Service // social accounts (tokens, adapters), uploads, the audit log and events
	db           store.DB
	q            *store.Queries
	jobs         app.Enqueuer
	storage      storage.Storage
	now          func() time.Time
	publishLease time.Duration
}

// New builds the publishing service over app's core and its Service (for the accounts and
// uploads); it fails when a dependency is missing, so an instance never starts unable to enqueue.
func New(core app.Core, accounts *app.Service) (*Service, error) {
	if core.DB == nil || core.Queries == nil || core.Jobs == nil || core.Now == nil || core.Storage == nil || accounts == nil {
		return nil, errors.New("publishing: New needs app's core (DB, Queries, Jobs, Storage, Now) and its Service")
	}
	return &Service{app: accounts, db: core.DB, q: core.Queries, jobs: core.Jobs, storage: core.Storage,
		now: core.Now, publishLease: core.PublishLease}, nil
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// nonEmpty is nil for "" (copies of app's small helpers: not worth a core export).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// isUUID reports whether s looks like a UUID (ids are uuids; anything else matches nothing).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
