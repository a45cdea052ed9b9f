package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/notifications"
)

// Paths and route names of the notifications page.
const (
	pathNotifications       = "/notifications"
	pathNotificationsRead   = pathNotifications + "/read-all"
	pathNotificationRead    = pathNotifications + "/:id/read"
	routeNotifications      = "notifications"
	routeNotificationRead   = "notification.read"
	routeNotificationsRead  = "notifications.read-all"
	notificationsPageSize   = 20
	notificationsListTarget = "notifications"
)

// bell is the top bar's notifications bell for the signed-in user (nil when the count is unknown:
// the bell is a convenience, never a reason for a page to fail).
func (h *Handler) bell(c echo.Context) templ.Component {
	if viewer(c) == nil || principal(c) == nil {
		return nil
	}
	n, err := h.svc.UnreadNotifications(c.Request().Context())
	if err != nil {
		h.log.Warn("web: unread notifications", "err", err)
		return nil
	}
	return layout.Bell(layout.BellProps{Unread: n, Href: pathNotifications})
}

// notificationsShow serves GET /notifications[?filter=unread].
func (h *Handler) notificationsShow(c echo.Context) error {
	d, err := h.notificationsData(c, c.QueryParam("filter") == "unread", pageNumber(c))
	if err != nil {
		return pageError(err)
	}
	if hxTarget(c) == notificationsListTarget {
		return render(c, http.StatusOK, notifications.List(d), nil)
	}
	return render(c, http.StatusOK, notifications.PageView(h.shell(c, "", "Notifications"), d), notifications.Content(d))
}

func (h *Handler) notificationsData(c echo.Context, unread bool, n int) (notifications.Page, error) {
	items, total, unreadCount, err := h.svc.ListNotifications(c.Request().Context(), unread, servicePage(n, notificationsPageSize))
	if err != nil {
		return notifications.Page{}, err
	}
	filter := ""
	if unread {
		filter = "unread"
	}
	d := notifications.Page{Unread: unreadCount, OnlyNew: unread, All: pathNotifications, New: withQuery(pathNotifications, "filter", "unread"),
		ReadAll: withQuery(pathNotificationsRead, "filter", filter)}
	for _, it := range items {
		item := notificationItem(c, it)
		item.MarkURL = withQuery(string(item.MarkURL), "filter", filter, "page", strconv.Itoa(n))
		d.Items = append(d.Items, item)
	}
	d.Pager = components.NewPager(n, notificationsPageSize, total, "notification/notifications", notificationsListTarget, func(p int) templ.SafeURL {
		return withQuery(pathNotifications, "filter", filter, "page", strconv.Itoa(p))
	})
	return d, nil
}

func notificationItem(c echo.Context, it app.Notification) notifications.Item {
	out := notifications.Item{ID: it.ID, Type: string(it.Type), Title: it.Title, Message: it.Message, At: viewerMoment(c, it.CreatedAt), Read: it.Read,
		MarkURL: idURL(pathNotifications, it.ID, "/read")}
	if it.Link != nil && safeNext(*it.Link) == *it.Link {
		out.Link = templ.SafeURL(*it.Link)
	}
	if at, ok := it.Data["resolvedAt"].(string); ok {
		out.Resolved = "Published later" // after a retry, or an edit that rescheduled it
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
			out.Resolved += ", " + viewerMoment(c, t)
		}
		out.Resolved += "."
	}
	return out
}

// notificationRead serves POST /notifications/:id/read[?filter=&page=]: the list again (the item
// read, the unread count down) and the bell (htmx), or back to the page.
func (h *Handler) notificationRead(c echo.Context) error {
	if _, err := h.svc.MarkNotificationRead(c.Request().Context(), c.Param("id")); err != nil {
		return pageError(err)
	}
	unreadOnly := c.QueryParam("filter") == "unread"
	if !isHTMX(c) {
		return redirect(c, string(withQuery(pathNotifications, "filter", c.QueryParam("filter"), "page", strconv.Itoa(pageNumber(c)))))
	}
	d, err := h.notificationsData(c, unreadOnly, pageNumber(c))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templ.Join(notifications.List(d), layout.BellOOB(layout.BellProps{Unread: d.Unread, Href: pathNotifications})), nil)
}

// notificationsReadAll serves POST /notifications/read-all: the list again and the bell (htmx).
func (h *Handler) notificationsReadAll(c echo.Context) error {
	if _, err := h.svc.MarkAllNotificationsRead(c.Request().Context()); err != nil {
		return pageError(err)
	}
	unreadOnly := c.QueryParam("filter") == "unread"
	if !isHTMX(c) {
		return flashRedirect(c, "All notifications marked read.", pathNotifications)
	}
	d, err := h.notificationsData(c, unreadOnly, 1)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templ.Join(notifications.List(d), layout.BellOOB(layout.BellProps{Unread: d.Unread, Href: pathNotifications})), nil)
}
