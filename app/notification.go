package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// NotificationType says what a notification is about. The spec leaves notification shapes out;
// Crier's design is in the contract (x-crier-designed) and the README.
type NotificationType string

const (
	NotificationPostFailed            NotificationType = "POST_FAILED"
	NotificationAccountNeedsReconnect NotificationType = "ACCOUNT_NEEDS_RECONNECT"
	NotificationWebhookDeactivated    NotificationType = "WEBHOOK_DEACTIVATED"
	NotificationCreditLow             NotificationType = "CREDIT_LOW"
	NotificationCreditExhausted       NotificationType = "CREDIT_EXHAUSTED"
	NotificationImportFinished        NotificationType = "IMPORT_FINISHED"
)

// Notification is one in-app notification of the caller (each member has their own copy, so read
// state is personal).
type Notification struct {
	ID        string           `json:"id"`
	Type      NotificationType `json:"type"`
	Title     string           `json:"title"`
	Message   string           `json:"message"`
	Link      *string          `json:"link"`
	Data      map[string]any   `json:"data"`
	Read      bool             `json:"read"`
	ReadAt    *time.Time       `json:"readAt"`
	CreatedAt time.Time        `json:"createdAt"`
}

// NotificationParams is a notification to write: who gets it (the members of the organization with
// one of Roles; all members when empty) and what it says. Link is a dashboard path.
type NotificationParams struct {
	Type    NotificationType
	Roles   []Role
	Title   string
	Message string
	Link    string
	Data    map[string]any
	eventID string // set by the fan-out: one notification per user and event
}

// DefaultNotificationListLimit is the page size of GET /notification.
const DefaultNotificationListLimit = 20

// Notify writes a notification for the members of an organization inside tx (system conditions:
// a post failed, an account needs reconnecting, an import finished …). Events feed notifications
// through notificationForEvent instead.
func (s *Service) Notify(ctx context.Context, tx pgx.Tx, orgID string, p NotificationParams) error {
	return s.notify(ctx, tx, orgID, p)
}

func (s *Service) notify(ctx context.Context, tx pgx.Tx, orgID string, p NotificationParams) error {
	roles := p.Roles
	if len(roles) == 0 {
		roles = []Role{RoleOwner, RoleAdmin, RoleMember}
	}
	rs := make([]string, len(roles))
	for i, r := range roles {
		rs[i] = string(r)
	}
	data := p.Data
	if data == nil {
		data = map[string]any{}
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("app: notify %s: %w", p.Type, err)
	}
	_, err = s.q.WithTx(tx).NotifyMembers(ctx, store.NotifyMembersParams{Type: string(p.Type), Title: p.Title, Message: p.Message,
		Link: nilIfEmpty(p.Link), Data: b, EventID: nilIfEmpty(p.eventID), OrganizationID: orgID, Roles: rs})
	if err != nil {
		return fmt.Errorf("app: notify %s: %w", p.Type, err)
	}
	return nil
}

// feedsNotification says whether an event feeds a notification (notificationForEvent). A
// post.published event given as a Post is read from it, not decoded from its payload: only a
// failed post notifies, and nearly every publish succeeds (each was a decode of the whole post).
func feedsNotification(kind string, payload any, b []byte) bool {
	if kind == EventPostPublished {
		switch p := payload.(type) {
		case Post:
			return p.Status == PostError && postFailedNotification(b) != nil
		case *Post:
			return p != nil && p.Status == PostError && postFailedNotification(b) != nil
		}
	}
	return notificationForEvent(kind, b) != nil
}

// notificationForEvent is the notification an event feeds, or nil. Emit enqueues a fan-out for
// these kinds even without webhooks.
func notificationForEvent(kind string, payload []byte) *NotificationParams {
	switch kind {
	case EventPostPublished:
		return postFailedNotification(payload)
	case EventCreditLowBalance, EventCreditExhausted:
	default:
		return nil // no notification: don't decode the payload
	}
	var rec map[string]any
	_ = json.Unmarshal(payload, &rec)
	switch kind {
	case EventCreditLowBalance:
		return &NotificationParams{Type: NotificationCreditLow, Roles: []Role{RoleOwner}, Title: "Credit is running low",
			Message: "Your prepaid credit is below its threshold; top it up to keep billable actions running.",
			Link:    "/billing", Data: rec}
	case EventCreditExhausted:
		return &NotificationParams{Type: NotificationCreditExhausted, Roles: []Role{RoleOwner}, Title: "Credit exhausted",
			Message: "Your prepaid credit is used up; billable actions are paused until you top it up.",
			Link:    "/billing", Data: rec}
	}
	return nil
}

// ListNotifications answers the caller's notifications in their organization, newest first, the
// total matching and the unread count.
func (s *Service) ListNotifications(ctx context.Context, unreadOnly bool, page Page) (items []Notification, total, unread int, err error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := page.Validate(); err != nil {
		return nil, 0, 0, err
	}
	n, err := s.q.CountNotifications(ctx, store.CountNotificationsParams{OrganizationID: pr.OrganizationID, UserID: pr.UserID, UnreadOnly: unreadOnly})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("app: list notifications: %w", err)
	}
	u, err := s.q.CountUnreadNotifications(ctx, store.CountUnreadNotificationsParams{OrganizationID: pr.OrganizationID, UserID: pr.UserID})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("app: list notifications: %w", err)
	}
	rows, err := s.q.ListNotifications(ctx, store.ListNotificationsParams{OrganizationID: pr.OrganizationID, UserID: pr.UserID,
		UnreadOnly: unreadOnly, Off: int32(page.Offset), Lim: int32(page.Limit)})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("app: list notifications: %w", err)
	}
	items = make([]Notification, 0, len(rows))
	for _, r := range rows {
		items = append(items, notificationFromRow(r))
	}
	return items, int(n), int(u), nil
}

// UnreadNotifications answers the caller's unread count (the dashboard's bell).
func (s *Service) UnreadNotifications(ctx context.Context) (int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return 0, err
	}
	n, err := s.q.CountUnreadNotifications(ctx, store.CountUnreadNotificationsParams{OrganizationID: pr.OrganizationID, UserID: pr.UserID})
	if err != nil {
		return 0, fmt.Errorf("app: unread notifications: %w", err)
	}
	return int(n), nil
}

// MarkNotificationRead marks one of the caller's notifications read (again: no change) and answers it.
func (s *Service) MarkNotificationRead(ctx context.Context, id string) (*Notification, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	row, err := s.q.MarkNotificationRead(ctx, store.MarkNotificationReadParams{At: s.now().UTC(), ID: id, OrganizationID: pr.OrganizationID, UserID: pr.UserID})
	if err != nil {
		return nil, NotFoundOr(err, "Notification", "app: mark notification read")
	}
	n := notificationFromRow(row)
	return &n, nil
}

// MarkAllNotificationsRead marks every unread notification of the caller read and answers how many.
func (s *Service) MarkAllNotificationsRead(ctx context.Context) (int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return 0, err
	}
	n, err := s.q.MarkAllNotificationsRead(ctx, store.MarkAllNotificationsReadParams{At: s.now().UTC(), OrganizationID: pr.OrganizationID, UserID: pr.UserID})
	if err != nil {
		return 0, fmt.Errorf("app: mark all notifications read: %w", err)
	}
	return int(n), nil
}

func notificationFromRow(r store.Notification) Notification {
	data := map[string]any{}
	_ = json.Unmarshal(r.Data, &data)
	return Notification{ID: r.ID, Type: NotificationType(r.Type), Title: r.Title, Message: r.Message, Link: r.Link, Data: data,
		Read: r.ReadAt != nil, ReadAt: r.ReadAt, CreatedAt: r.CreatedAt}
}
