package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// AuditLogItem is one line of the audit log.
type AuditLogItem struct {
	ID         string
	ActorType  string
	ActorID    *string
	ActorName  *string // as recorded: the user's email or the key's name
	Action     string
	TargetType *string
	TargetID   *string
	Metadata   map[string]any
	CreatedAt  time.Time

	// For people: the actor's name now (empty when they have none), and the target's name now
	// (a team's, a key's, a post's title …; empty when it is gone or has none).
	ActorPerson string
	TargetName  string
}

// AuditLogFilter narrows the audit log; empty fields do not filter.
type AuditLogFilter struct {
	ActorID      string // a user's or an API key's id
	ActionPrefix string // "post." for every post action; a whole action for one
}

// AuditActor is someone (or a key) who appears in the audit log.
type AuditActor struct {
	Type string // USER, API_KEY, SYSTEM
	ID   string
	Name string
}

// DefaultAuditLogLimit is the page size of GET /organization/audit-log.
const DefaultAuditLogLimit = 20

// AuditLog answers the organization's audit log, newest first.
func (s *Service) AuditLog(ctx context.Context, page Page) ([]AuditLogItem, int, error) {
	return s.AuditLogFiltered(ctx, AuditLogFilter{}, page)
}

// AuditLogFiltered answers the lines of the organization's audit log that f selects, newest first,
// with the names of their actors and targets.
func (s *Service) AuditLogFiltered(ctx context.Context, f AuditLogFilter, page Page) ([]AuditLogItem, int, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadAuditLog)
	if err != nil {
		return nil, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, err
	}
	actor, prefix := nilIfEmpty(f.ActorID), nilIfEmpty(f.ActionPrefix)
	total, err := s.q.CountAuditLogFiltered(ctx, store.CountAuditLogFilteredParams{OrganizationID: p.OrganizationID, ActorID: actor, ActionPrefix: prefix})
	if err != nil {
		return nil, 0, fmt.Errorf("app: audit log: %w", err)
	}
	rows, err := s.q.ListAuditLogNamed(ctx, store.ListAuditLogNamedParams{OrganizationID: p.OrganizationID, ActorID: actor, ActionPrefix: prefix,
		Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: audit log: %w", err)
	}
	out := make([]AuditLogItem, 0, len(rows))
	for _, r := range rows {
		item := AuditLogItem{ID: r.ID, ActorType: r.ActorType, ActorID: r.ActorID, ActorName: r.ActorName, Action: r.Action,
			TargetType: r.TargetType, TargetID: r.TargetID, CreatedAt: r.CreatedAt, ActorPerson: r.ActorPerson, TargetName: r.TargetName}
		_ = json.Unmarshal(r.Metadata, &item.Metadata)
		out = append(out, item)
	}
	return out, int(total), nil
}

// AuditActors lists who appears in the organization's audit log, for a filter.
func (s *Service) AuditActors(ctx context.Context) ([]AuditActor, error) {
	p, err := Authorize(PrincipalFrom(ctx), ActReadAuditLog)
	if err != nil {
		return nil, err
	}
	rows, err := s.q.ListAuditActors(ctx, p.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("app: audit actors: %w", err)
	}
	out := make([]AuditActor, 0, len(rows))
	for _, r := range rows {
		out = append(out, AuditActor{Type: r.ActorType, ID: r.ActorID, Name: r.Name})
	}
	return out, nil
}

// AuditRow is the audit_log row of item (what Audit writes), for a caller that sends it in a batch
// with the change it records.
func AuditRow(item AuditItem) store.InsertAuditItemParams {
	meta, err := json.Marshal(item.Metadata)
	if err != nil || item.Metadata == nil {
		meta = []byte("{}")
	}
	return store.InsertAuditItemParams{
		OrganizationID: item.OrganizationID, ActorType: item.ActorType, ActorID: nilIfEmpty(item.ActorID),
		ActorName: nilIfEmpty(item.ActorName), Action: item.Action, TargetType: nilIfEmpty(item.TargetType),
		TargetID: nilIfEmpty(item.TargetID), Metadata: meta,
	}
}
