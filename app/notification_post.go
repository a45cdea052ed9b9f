package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Notifications about posts: a failed publish names the post and the networks that refused it and
// links to the post; when a retry publishes it, those notifications say it is resolved (and are
// read: nothing is left to act on).

// postFailedNotification is the notification of a post.published event whose post failed (nil when
// it did not): “Spring sale” failed on Instagram and X.
func postFailedNotification(payload []byte) *NotificationParams {
	var p struct {
		ID                 string              `json:"id"`
		Title              string              `json:"title"`
		Status             PostStatus          `json:"status"`
		Errors             map[Network]*string `json:"errors"`
		SocialAccountTypes []Network           `json:"socialAccountTypes"`
	}
	if err := json.Unmarshal(payload, &p); err != nil || p.Status != PostError {
		return nil
	}
	var failed, posted []Network
	for _, n := range p.SocialAccountTypes {
		if e := p.Errors[n]; e != nil && *e != "" {
			failed = append(failed, n)
		} else {
			posted = append(posted, n)
		}
	}
	for n, e := range p.Errors { // an error of a network the list does not name (defensive)
		if e != nil && *e != "" && !slices.Contains(failed, n) {
			failed = append(failed, n)
		}
	}
	title := quotedTitle(p.Title) + " failed to publish"
	msg := "Open the post to see what went wrong and retry."
	if len(failed) > 0 {
		title = quotedTitle(p.Title) + " failed on " + networkList(failed)
		if len(failed) == 1 {
			msg = failed[0].DisplayNameOr() + " said: " + cut(*p.Errors[failed[0]], 200) + " Open the post to retry."
		} else {
			msg = "Open the post to see each network's error and retry."
		}
	}
	if len(posted) > 0 {
		msg = "Posted on " + networkList(posted) + ". " + msg
	}
	names := make([]string, len(failed))
	for i, n := range failed {
		names[i] = string(n)
	}
	return &NotificationParams{Type: NotificationPostFailed, Title: title, Message: msg, Link: "/posts/" + p.ID,
		Data: map[string]any{"postId": p.ID, "postTitle": p.Title, "networks": names}}
}

// resolvePostFailures marks the failed-publish notifications of a post that is now POSTED resolved,
// in the transaction that emits its event. Only a post that may have failed before costs the
// statement (failedBefore).
func (s *Service) resolvePostFailures(ctx context.Context, tx pgx.Tx, orgID, kind string, payload any) error {
	if kind != EventPostPublished {
		return nil
	}
	var p *Post
	switch v := payload.(type) {
	case Post:
		p = &v
	case *Post:
		p = v
	}
	if p == nil || p.Status != PostPosted || !failedBefore(p) {
		return nil
	}
	_, err := s.q.WithTx(tx).ResolvePostFailedNotifications(ctx, store.ResolvePostFailedNotificationsParams{
		At: s.now().UTC(), OrganizationID: orgID, PostID: p.ID})
	if err != nil {
		return fmt.Errorf("app: resolve post notifications: %w", err)
	}
	return nil
}

// failedBefore says whether a POSTED post may have failed before: it was retried, or a network
// took more than one attempt — a failed post edited and rescheduled after its account was
// reconnected keeps its retry count at 0, but its failed target's attempts add up. A post
// published at the first attempt everywhere answers false.
func failedBefore(p *Post) bool {
	if p.RetryCount > 0 {
		return true
	}
	for _, t := range p.Targets {
		if t.Kind == TargetPost && t.Attempts > 1 {
			return true
		}
	}
	return false
}

// DisplayNameOr is the network's common name, else its value.
func (n Network) DisplayNameOr() string {
	if d := n.DisplayName(); d != "" {
		return d
	}
	return string(n)
}

// networkList names networks as people do: "X", "X and Bluesky", "X, Bluesky and Threads".
func networkList(ns []Network) string {
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = n.DisplayNameOr()
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// quotedTitle is a post's title in quotes, cut to fit a notification's line.
func quotedTitle(t string) string {
	if t = strings.TrimSpace(t); t == "" {
		return "A post"
	}
	return "“" + cut(t, 60) + "”"
}

// cut shortens s to at most n characters, with an ellipsis when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}
