// Package notifications is the notifications page: the caller's in-app notifications, newest
// first, with an unread filter, mark one read and mark all read.
package notifications

import (
	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// Page is GET /notifications.
type Page struct {
	Items   []Item
	Unread  int
	OnlyNew bool // the unread filter is on
	All     templ.SafeURL
	New     templ.SafeURL // the unread filter
	ReadAll templ.SafeURL // POST
	Pager   components.Pager
}

// Item is one notification.
type Item struct {
	ID      string
	Type    string
	Title   string
	Message string
	Link    templ.SafeURL
	At      string
	Read    bool
	MarkURL templ.SafeURL // POST
	// Resolved says when a failure stopped mattering ("Published later, …"); "" while it
	// still does.
	Resolved string
}

func itemID(id string) string { return "notification-" + id }
