package sandbox

import (
	"fmt"
	"net/http"
	"time"

	"github.com/crier/crier/app"
)

// X (api.x.com v2): OAuth 2.0 with PKCE, Basic client auth, 2-hour access tokens with rotating
// refresh tokens; problem-JSON errors; x-rate-limit-* headers.
func xDialect() *dialect {
	d := &dialect{
		seg: "x", title: "X", network: app.Twitter,
		authorizePath: "/i/oauth2/authorize", tokenPath: "/2/oauth2/token",
		pkce: true, basicAuth: true, rotate: true, accessTTL: 2 * time.Hour,
		writeToken:   standardToken,
		writeError:   xWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "Unauthorized", Message: "Unauthorized"},
		routes: map[string]func(q *req){
			"GET /2/users/me": xMe,
		},
	}
	xPublish(d)
	return d
}

func xWriteError(q *req, e apiError) {
	h := q.w.Header()
	if e.Status == http.StatusTooManyRequests {
		h.Set("x-rate-limit-limit", "75")
		h.Set("x-rate-limit-remaining", "0")
		h.Set("x-rate-limit-reset", fmt.Sprint(e.ResetAt.Unix()))
	}
	title := e.Code
	if title == "" {
		title = http.StatusText(e.Status)
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	q.w.Header().Set("Content-Type", "application/problem+json")
	q.json(e.Status, map[string]any{"title": title, "detail": msg, "type": "about:blank", "status": e.Status})
}

func xMe(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"data": map[string]any{"id": u.ID, "name": u.Name, "username": u.Login,
		"description": u.Bio, "profile_image_url": u.Avatar, "subscription_type": "None"}})
}
