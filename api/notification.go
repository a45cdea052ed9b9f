package api

import (
	"context"

	"github.com/crier/crier/app"
)

// NotificationGetList answers GET /notification: the caller's notifications, the total matching
// and the unread count.
func (s *Server) NotificationGetList(ctx context.Context, req NotificationGetListRequestObject) (NotificationGetListResponseObject, error) {
	unread := req.Params.Unread != nil && *req.Params.Unread
	ns, total, unreadCount, err := s.svc.ListNotifications(ctx, unread, app.PageOf(req.Params.Offset, req.Params.Limit, app.DefaultNotificationListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]Notification, 0, len(ns))
	for _, n := range ns {
		items = append(items, toNotification(n))
	}
	return NotificationGetList200JSONResponse{Items: items, Total: total, UnreadCount: unreadCount}, nil
}

// NotificationMarkRead answers POST /notification/{id}/read with the notification.
func (s *Server) NotificationMarkRead(ctx context.Context, req NotificationMarkReadRequestObject) (NotificationMarkReadResponseObject, error) {
	n, err := s.svc.MarkNotificationRead(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return NotificationMarkRead200JSONResponse(toNotification(*n)), nil
}

// NotificationMarkAllRead answers POST /notification/read-all with how many were unread.
func (s *Server) NotificationMarkAllRead(ctx context.Context, _ NotificationMarkAllReadRequestObject) (NotificationMarkAllReadResponseObject, error) {
	n, err := s.svc.MarkAllNotificationsRead(ctx)
	if err != nil {
		return nil, err
	}
	return NotificationMarkAllRead200JSONResponse{Success: true, Updated: n}, nil
}

func toNotification(n app.Notification) Notification {
	data := n.Data
	return Notification{Id: n.ID, Type: NotificationType(n.Type), Title: n.Title, Message: n.Message, Link: n.Link, Data: &data,
		Read: n.Read, ReadAt: n.ReadAt, CreatedAt: n.CreatedAt}
}
