package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// APIKey is a key as listed (never with its secret).
type APIKey struct {
	ID         string
	Name       string
	Prefix     string
	LastUsedAt *time.Time
	CreatedAt  time.Time
}

// APIKeyWithSecret is a key at creation or roll: the only time the full key is shown.
type APIKeyWithSecret struct {
	APIKey
	Key string
}

// Keys look like crier_<prefix>_<secret>: the prefix (8 chars) finds the row, the SHA-256 of the
// whole key proves it. A fast hash is right here: the secret has 160 random bits.
const apiKeyScheme = "crier_"

var keyEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

func newAPIKeySecret() (key, prefix string, hash []byte, err error) {
	raw := make([]byte, 25)
	if _, err := rand.Read(raw); err != nil {
		return "", "", nil, err
	}
	enc := strings.ToLower(keyEncoding.EncodeToString(raw)) // 40 chars
	prefix = enc[:8]
	key = apiKeyScheme + prefix + "_" + enc[8:]
	sum := sha256.Sum256([]byte(key))
	return key, prefix, sum[:], nil
}

// AuthenticateAPIKey resolves an x-api-key secret to the principal of its creator's membership.
// Keys of revoked, suspended, deleted or API-disabled organizations are refused. While RunKeyCache
// runs, a key seen in the last KeyCacheTTL is answered from memory (keycache.go says why that is
// safe) and lastUsedAt is written in the background.
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string) (*Principal, error) {
	invalid := Errorf(EUnauthorized, "Invalid API key")
	rest, ok := strings.CutPrefix(key, apiKeyScheme)
	if !ok || len(rest) < 10 || rest[8] != '_' {
		return nil, invalid
	}
	prefix, now := rest[:8], s.now()
	sum := sha256.Sum256([]byte(key))
	e, hit, gen, cached := s.keys.get(prefix, now)
	if !hit {
		row, err := s.q.GetAPIKeyForAuth(ctx, prefix)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, invalid
		}
		if err != nil {
			return nil, fmt.Errorf("app: authenticate key: %w", err)
		}
		e = keyEntry{hash: row.SecretHash, lastUsed: row.LastUsedAt, expires: now.Add(KeyCacheTTL),
			p: Principal{UserID: row.UserID, OrganizationID: row.OrganizationID, MembershipID: row.MembershipID,
				Role: Role(row.Role), APIKeyID: row.ID, ActorName: row.Name}}
		if cached {
			s.keys.put(prefix, e, gen)
		}
	}
	if subtle.ConstantTimeCompare(sum[:], e.hash) != 1 {
		return nil, invalid
	}
	if cached {
		s.keys.touch(prefix, now)
	} else if e.lastUsed == nil || now.Sub(*e.lastUsed) > time.Minute {
		// lastUsedAt is kept to the minute: the update writes only when the stored value is older.
		if err := s.q.TouchAPIKey(ctx, e.p.APIKeyID); err != nil {
			s.log.WarnContext(ctx, "app: touch api key", "err", err)
		}
	}
	p := e.p
	return &p, nil
}

// ListAPIKeys answers the caller's organization's keys, newest first, filtered by name.
func (s *Service) ListAPIKeys(ctx context.Context, q string, page Page) ([]APIKey, int, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageAPIKeys)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	var search *string
	if q = strings.TrimSpace(q); q != "" {
		search = &q
	}
	total, err := s.q.CountAPIKeys(ctx, store.CountAPIKeysParams{OrganizationID: p.OrganizationID, Q: search})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list keys: %w", err)
	}
	rows, err := s.q.ListAPIKeys(ctx, store.ListAPIKeysParams{OrganizationID: p.OrganizationID, Q: search, Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list keys: %w", err)
	}
	out := make([]APIKey, 0, len(rows))
	for _, r := range rows {
		out = append(out, apiKeyFromRow(r))
	}
	return out, int(total), nil
}

// CreateAPIKey makes a key acting as the caller's membership; its secret is answered only now.
func (s *Service) CreateAPIKey(ctx context.Context, name string) (*APIKeyWithSecret, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageAPIKeys)
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if err := checkLength("name", name, 1, 100); err != nil {
		return nil, err
	}
	key, prefix, hash, err := newAPIKeySecret()
	if err != nil {
		return nil, fmt.Errorf("app: create key: %w", err)
	}
	var out *APIKeyWithSecret
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).CreateAPIKey(ctx, store.CreateAPIKeyParams{OrganizationID: p.OrganizationID, MembershipID: p.MembershipID, Name: name, Prefix: prefix, SecretHash: hash})
		if err != nil {
			return fmt.Errorf("app: create key: %w", err)
		}
		out = &APIKeyWithSecret{APIKey: apiKeyFromRow(row), Key: key}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "api_key.created", TargetType: "api_key", TargetID: row.ID, Metadata: map[string]any{"name": name}}))
	})
	return out, err
}

// RollAPIKey replaces a key's secret; the old one stops working at once.
func (s *Service) RollAPIKey(ctx context.Context, id string) (*APIKeyWithSecret, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActManageAPIKeys)
	if err != nil {
		return nil, err
	}
	key, prefix, hash, err := newAPIKeySecret()
	if err != nil {
		return nil, fmt.Errorf("app: roll key: %w", err)
	}
	var out *APIKeyWithSecret
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).RollAPIKey(ctx, store.RollAPIKeyParams{ID: id, OrganizationID: p.OrganizationID, Prefix: prefix, SecretHash: hash})
		if err != nil {
			return NotFoundOr(err, "API key", "app: roll key")
		}
		out = &APIKeyWithSecret{APIKey: apiKeyFromRow(row), Key: key}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "api_key.rolled", TargetType: "api_key", TargetID: row.ID}))
	})
	s.keys.forgetOrg(p.OrganizationID) // here at once; other instances on the trigger's NOTIFY
	return out, err
}

// DeleteAPIKey revokes a key.
func (s *Service) DeleteAPIKey(ctx context.Context, id string) error {
	p, err := Authorize(PrincipalFrom(ctx), ActManageAPIKeys)
	if err != nil {
		return err
	}
	defer s.keys.forgetOrg(p.OrganizationID) // here at once; other instances on the trigger's NOTIFY
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err := s.q.WithTx(tx).RevokeAPIKey(ctx, store.RevokeAPIKeyParams{ID: id, OrganizationID: p.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "API key", "app: delete key")
		}
		return s.Audit(ctx, tx, AuditBy(p, AuditItem{Action: "api_key.deleted", TargetType: "api_key", TargetID: row.ID, Metadata: map[string]any{"name": row.Name}}))
	})
}

func apiKeyFromRow(r store.ApiKey) APIKey {
	return APIKey{ID: r.ID, Name: r.Name, Prefix: r.Prefix, LastUsedAt: r.LastUsedAt, CreatedAt: r.CreatedAt}
}
