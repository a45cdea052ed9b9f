package app

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
)

// Idempotency keys (Stripe's semantics; the API's middleware drives them, README "Idempotency"):
// an answer is kept for IdempotencyTTL per organization and key.
const (
	IdempotencyTTL = 24 * time.Hour
	// IdempotencyLease is how long an in-progress claim survives without a heartbeat: past it the
	// request is taken to have died with its process, and a retry may claim the key again.
	IdempotencyLease = 30 * time.Second
	// IdempotencyKeyMax is the longest key accepted.
	IdempotencyKeyMax = 255
)

// IdempotencyClaim is a key this request holds: it runs the operation, then finishes or releases.
type IdempotencyClaim struct {
	OrganizationID string
	Key            string
	claimedAt      time.Time // names this claim: a claim taken over later is left alone
}

// IdempotentAnswer is what an earlier request with the same key left: Done with its answer, or
// still running.
type IdempotentAnswer struct {
	Fingerprint []byte
	Done        bool
	Status      int
	ContentType string
	Body        []byte
}

// ClaimIdempotencyKey claims the key for the caller's organization. It answers the claim, or (nil
// claim) the earlier request's row; both nil means the earlier request ended without an answer
// between the two reads: claim again.
func (s *Service) ClaimIdempotencyKey(ctx context.Context, key string, fingerprint []byte) (*IdempotencyClaim, *IdempotentAnswer, error) {
	p := PrincipalFrom(ctx)
	if p == nil {
		return nil, nil, Errorf(EInternal, "idempotency: no principal")
	}
	at, err := s.q.ClaimIdempotencyKey(ctx, store.ClaimIdempotencyKeyParams{OrganizationID: p.OrganizationID, Key: key,
		Fingerprint: fingerprint, TtlSeconds: IdempotencyTTL.Seconds(), LeaseSeconds: IdempotencyLease.Seconds()})
	if err == nil {
		return &IdempotencyClaim{OrganizationID: p.OrganizationID, Key: key, claimedAt: at}, nil, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, err
	}
	row, err := s.q.GetIdempotencyKey(ctx, store.GetIdempotencyKeyParams{OrganizationID: p.OrganizationID, Key: key,
		TtlSeconds: IdempotencyTTL.Seconds()})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	a := &IdempotentAnswer{Fingerprint: row.Fingerprint, Done: row.State == "done", Body: row.ResponseBody}
	if row.ResponseStatus.Valid {
		a.Status = int(row.ResponseStatus.Int32)
	}
	if row.ContentType != nil {
		a.ContentType = *row.ContentType
	}
	return nil, a, nil
}

// Heartbeat keeps the claim's lease while its request runs.
func (s *Service) HeartbeatIdempotencyKey(ctx context.Context, c *IdempotencyClaim) error {
	return s.q.HeartbeatIdempotencyKey(ctx, store.HeartbeatIdempotencyKeyParams{OrganizationID: c.OrganizationID, Key: c.Key, CreatedAt: c.claimedAt})
}

// FinishIdempotencyKey stores the answer later requests with the key replay.
func (s *Service) FinishIdempotencyKey(ctx context.Context, c *IdempotencyClaim, status int, contentType string, body []byte) error {
	_, err := s.q.FinishIdempotencyKey(ctx, store.FinishIdempotencyKeyParams{OrganizationID: c.OrganizationID, Key: c.Key, CreatedAt: c.claimedAt,
		ResponseStatus: pgtype.Int4{Int32: int32(status), Valid: true}, ContentType: &contentType, ResponseBody: body})
	return err
}

// ReleaseIdempotencyKey forgets the claim, so a retry with the key runs the operation again.
func (s *Service) ReleaseIdempotencyKey(ctx context.Context, c *IdempotencyClaim) error {
	return s.q.ReleaseIdempotencyKey(ctx, store.ReleaseIdempotencyKeyParams{OrganizationID: c.OrganizationID, Key: c.Key, CreatedAt: c.claimedAt})
}

// PurgeIdempotencyKeys deletes keys past their 24 hours (a periodic job).
func (s *Service) PurgeIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.q.PurgeIdempotencyKeys(ctx, IdempotencyTTL.Seconds())
}

// IdempotencyPurgeArgs is the periodic job that runs PurgeIdempotencyKeys (kept beside the
// feature rather than in jobs.go, which lists the kinds the Service enqueues).
type IdempotencyPurgeArgs struct{}

func (IdempotencyPurgeArgs) Kind() string { return "idempotency_purge" }
