package sandbox

import (
	"net/http"
	"time"

	"github.com/crier/crier/app"
)

// Mastodon: one simulated server at /sandbox/mastodon: POST /api/v1/apps registers an app (its
// credentials are then the only ones accepted), /oauth/authorize and /oauth/token (tokens without
// expiry and without refresh), /api/v1/accounts/verify_credentials. Errors {"error": "…"}; 429 with
// X-RateLimit-Reset as an ISO time.
func mastodonDialect() *dialect {
	return &dialect{
		seg: "mastodon", title: "Mastodon", network: app.Mastodon,
		authorizePath: "/oauth/authorize", tokenPath: "/oauth/token", noRefresh: true, accessTTL: 100 * 365 * 24 * time.Hour,
		writeToken: func(q *req, access, _ string, _ time.Duration, scope string, _ *User) {
			q.json(http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "scope": scope, "created_at": q.net.sb.Now().Unix()})
		},
		writeError: func(q *req, e apiError) {
			if !e.ResetAt.IsZero() {
				q.w.Header().Set("X-RateLimit-Limit", "300")
				q.w.Header().Set("X-RateLimit-Remaining", "0")
				q.w.Header().Set("X-RateLimit-Reset", e.ResetAt.UTC().Format(time.RFC3339))
			}
			msg := e.Message
			if msg == "" {
				msg = http.StatusText(e.Status)
			}
			q.json(e.Status, map[string]any{"error": msg})
		},
		invalidToken: apiError{Status: http.StatusUnauthorized, Message: "The access token is invalid"},
		unauthenticated: map[string]func(q *req){
			"POST /api/v1/apps": func(q *req) {
				_ = q.r.ParseForm()
				if q.r.PostForm.Get("client_name") == "" || q.r.PostForm.Get("redirect_uris") == "" {
					q.json(http.StatusUnprocessableEntity, map[string]any{"error": "Validation failed: Application name can't be blank"})
					return
				}
				id, secret := randID("mastodon-app-"), randID("mastodon-secret-")
				q.net.apps[id] = secret
				q.json(http.StatusOK, map[string]any{"id": "563419", "name": q.r.PostForm.Get("client_name"), "website": q.r.PostForm.Get("website"),
					"redirect_uri": q.r.PostForm.Get("redirect_uris"), "client_id": id, "client_secret": secret, "vapid_key": "BCk-sandbox"})
			},
		},
		routes: map[string]func(q *req){
			"GET /api/v1/accounts/verify_credentials": func(q *req) {
				u := q.user
				q.json(http.StatusOK, map[string]any{"id": u.ID, "username": u.Login, "acct": u.Login, "display_name": u.Name,
					"note": "<p>" + u.Bio + "</p>", "avatar": u.Avatar, "url": "https://sandbox.crier.invalid/@" + u.Login})
			},
		},
	}
}
