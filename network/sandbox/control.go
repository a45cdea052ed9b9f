package sandbox

// The control endpoints under /sandbox/<net>/_sandbox (see the package comment): the state they
// show and the failures they inject into the next matching calls.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

func (n *Net) state() map[string]any {
	users := make([]*User, 0, len(n.users))
	for _, u := range n.users {
		users = append(users, u)
	}
	sort.Slice(users, func(i, j int) bool { return users[i].Login < users[j].Login })
	live := 0
	for _, t := range n.access {
		if !t.revoked && t.expires.After(n.sb.Now()) {
			live++
		}
	}
	return map[string]any{"network": n.d.network, "users": users, "calls": n.calls, "knobs": n.knobs,
		"pendingFailures": n.failures, "liveAccessTokens": live, "refreshTokens": len(n.refresh), "held": n.held}
}

// injected answers the next matching injected failure, if any.
func (n *Net) injected(q *req, token bool) bool {
	for i, f := range n.failures {
		if f.Path != "" && !strings.Contains(q.path, f.Path) {
			continue
		}
		f.Times--
		if f.Times <= 0 {
			n.failures = append(n.failures[:i], n.failures[i+1:]...)
		}
		e := apiError{Status: f.Status, Code: f.Code, Message: f.Message}
		if f.ResetInSeconds > 0 || f.Status == http.StatusTooManyRequests {
			e.ResetAt = n.sb.Now().Add(time.Duration(max(f.ResetInSeconds, 1)) * time.Second)
		}
		if token {
			if e.ResetAt.IsZero() {
				n.tokenError(q, f.Status, f.Code, f.Message)
			} else {
				q.w.Header().Set("Retry-After", fmt.Sprint(int(time.Until(e.ResetAt).Seconds()+0.5)))
				n.tokenError(q, f.Status, f.Code, f.Message)
			}
			return true
		}
		q.fail(e)
		return true
	}
	return false
}

func (n *Net) control(q *req) {
	action := strings.TrimPrefix(q.path, "/_sandbox")
	if q.r.Method == http.MethodGet && action == "" {
		q.json(http.StatusOK, n.state())
		return
	}
	if q.r.Method != http.MethodPost {
		q.json(http.StatusMethodNotAllowed, map[string]string{"error": "POST"})
		return
	}
	switch action {
	case "/fail":
		var f Failure
		if err := json.NewDecoder(q.r.Body).Decode(&f); err != nil || f.Status < 400 {
			q.json(http.StatusBadRequest, map[string]string{"error": "want {status>=400, code, message, times, path, resetInSeconds}"})
			return
		}
		if f.Times <= 0 {
			f.Times = 1
		}
		n.failures = append(n.failures, &f)
	case "/knobs":
		if err := json.NewDecoder(q.r.Body).Decode(&n.knobs); err != nil {
			q.json(http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
	case "/expire-tokens":
		for _, t := range n.access {
			t.expires = n.sb.Now().Add(-time.Second)
		}
	case "/revoke-tokens":
		for _, t := range n.access {
			t.revoked = true
		}
		n.refresh = map[string]*issued{}
	case "/reset":
		n.reset()
	case "/forget-apps":
		// A server that lost its app registrations (Mastodon): connects must register again.
		n.apps = map[string]string{}
	default:
		q.json(http.StatusNotFound, map[string]string{"error": "unknown control " + action})
		return
	}
	q.json(http.StatusOK, n.state())
}
