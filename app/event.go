package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// The 16 event kinds of the spec, exactly. README ("Events") says which operation emits each.
const (
	EventPostPublished              = "post.published"
	EventCommentPublished           = "comment.published"
	EventCommentReceived            = "comment.received"
	EventSocialAccountCreated       = "social-account.created"
	EventSocialAccountUpdated       = "social-account.updated"
	EventSocialAccountDeleted       = "social-account.deleted"
	EventCreditLowBalance           = "credit.low-balance"
	EventCreditExhausted            = "credit.exhausted"
	EventConversationCreated        = "conversation.created"
	EventConversationUpdated        = "conversation.updated"
	EventConversationMessageCreated = "conversation.message.created"
	EventConversationMessageUpdated = "conversation.message.updated"
	EventConversationReadUpdated    = "conversation.read.updated"
	// EventTeamCreated, EventTeamUpdated and EventTeamDeleted are declared in team.go.
)

// EventKinds lists every kind a webhook may subscribe to, grouped as in the spec.
var EventKinds = []string{
	EventPostPublished, EventCommentPublished, EventCommentReceived,
	EventTeamCreated, EventTeamUpdated, EventTeamDeleted,
	EventSocialAccountCreated, EventSocialAccountUpdated, EventSocialAccountDeleted,
	EventCreditLowBalance, EventCreditExhausted,
	EventConversationCreated, EventConversationUpdated, EventConversationMessageCreated,
	EventConversationMessageUpdated, EventConversationReadUpdated,
}

// EventTest is the kind of the event POST /webhook/{id}/test sends; no webhook subscribes to it.
const EventTest = "webhook.test"

// IsEventKind reports whether kind is one of the 16 kinds.
func IsEventKind(kind string) bool {
	for _, k := range EventKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Emit records an event in the outbox inside tx — the transaction of the change it reports — and,
// when something will consume it (an active webhook of the organization subscribed to kind, or a
// notification fed by kind), enqueues its fan-out job in the same transaction with InsertTx.
// payload is the record the API would answer for the thing the event is about (a Team for team.*,
// a Post for post.published …); webhooks receive {"type": kind, "data": payload}.
//
// Every capability calls Emit (or its alias emit) for the kinds it causes. Why a job per event and
// not a dispatcher polling the outbox: the event and its job commit or vanish together, so nothing
// is lost or sent for a rolled-back change, there is no polling delay, no cursor to keep and no
// extra moving part; River already gives retries and crash recovery. Events no one consumes cost
// only their row.
func (s *Service) Emit(ctx context.Context, tx pgx.Tx, orgID, kind string, payload any) error {
	return s.emitWith(ctx, tx, orgID, kind, payload, s.q.WithTx(tx).InsertEvent)
}

// EmitWithPostStatus is Emit for a post's event whose payload the caller built from the row st
// writes (publishing's settling of a post): the status and the event go in one round trip
// (store.SetPostStatusThenInsertEvent).
func (s *Service) EmitWithPostStatus(ctx context.Context, tx pgx.Tx, st store.SetPostStatusParams, orgID, kind string, payload any) error {
	return s.emitWith(ctx, tx, orgID, kind, payload, func(ctx context.Context, ev store.InsertEventParams) (store.InsertEventRow, error) {
		return s.q.SetPostStatusThenInsertEvent(ctx, tx, st, ev)
	})
}

func (s *Service) emitWith(ctx context.Context, tx pgx.Tx, orgID, kind string, payload any,
	insert func(context.Context, store.InsertEventParams) (store.InsertEventRow, error)) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("app: event %s: %w", kind, err)
	}
	ev, err := insert(ctx, store.InsertEventParams{OrganizationID: orgID, Kind: kind, Payload: b})
	if err != nil {
		return fmt.Errorf("app: event %s: %w", kind, err)
	}
	if err := s.resolvePostFailures(ctx, tx, orgID, kind, payload); err != nil {
		return err
	}
	if !ev.Subscribed && !feedsNotification(kind, payload, b) {
		return nil
	}
	if _, err := s.jobs.InsertTx(ctx, tx, FanOutEventArgs{EventID: ev.ID}, nil); err != nil {
		return fmt.Errorf("app: event %s: enqueue fan-out: %w", kind, err)
	}
	return nil
}

// emit is Emit under the name the first capabilities used.
func (s *Service) emit(ctx context.Context, tx pgx.Tx, orgID, kind string, payload any) error {
	return s.Emit(ctx, tx, orgID, kind, payload)
}

// FanOutEvent creates one PENDING delivery per active webhook subscribed to the event's kind and
// enqueues their delivery jobs, and writes the notifications the event feeds — all in one
// transaction; a fan-out run twice (River retries) creates nothing twice (unique per webhook and
// event, and per user and event).
func (s *Service) FanOutEvent(ctx context.Context, eventID string) error {
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		ev, err := q.GetEvent(ctx, eventID)
		if err != nil {
			if ErrorCode(NotFoundOr(err, "Event", "app: fan out")) == ENotFound {
				return nil // the event is gone: nothing to deliver
			}
			return fmt.Errorf("app: fan out %s: %w", eventID, err)
		}
		ids, err := q.CreateDeliveriesForEvent(ctx, ev.ID)
		if err != nil {
			return fmt.Errorf("app: fan out %s: %w", eventID, err)
		}
		for _, id := range ids {
			if err := s.enqueueDelivery(ctx, tx, id); err != nil {
				return err
			}
		}
		if n := notificationForEvent(ev.Kind, ev.Payload); n != nil {
			n.eventID = ev.ID
			if err := s.notify(ctx, tx, ev.OrganizationID, *n); err != nil {
				return err
			}
		}
		return nil
	})
}
