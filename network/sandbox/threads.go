package sandbox

import (
	"net/http"
	"time"

	"github.com/crier/crier/app"
)

// Threads: consent at /oauth/authorize, short-lived token at POST /oauth/access_token ({access_token,
// user_id}), long-lived via GET /access_token?grant_type=th_exchange_token, renewed via
// GET /refresh_access_token?grant_type=th_refresh_token; the user at /v1.0/me; Graph errors.
func threadsDialect() *dialect {
	d := &dialect{
		seg: "threads", title: "Threads", network: app.Threads,
		authorizePath: "/oauth/authorize", tokenPath: "/oauth/access_token", noRefresh: true, accessTTL: time.Hour,
		bearer:          graphBearer,
		writeToken:      threadsWriteToken,
		writeTokenError: threadsWriteTokenError,
		writeError:      graphError,
		invalidToken:    apiError{Status: http.StatusUnauthorized, Code: "190", Message: "Error validating access token: Session has expired."},
		routes: map[string]func(q *req){
			"GET /v1.0/me": threadsMe,
		},
	}
	d.unauthenticated = map[string]func(q *req){
		"GET /access_token":         threadsLongLived("th_exchange_token", "access_token", true),
		"GET /refresh_access_token": threadsLongLived("th_refresh_token", "access_token", false),
	}
	threadsPublish(d)
	return d
}

func threadsWriteToken(q *req, access, _ string, _ time.Duration, _ string, u *User) {
	q.json(http.StatusOK, map[string]any{"access_token": access, "user_id": u.ID})
}

func threadsWriteTokenError(q *req, status int, code, msg string) {
	graphError(q, apiError{Status: status, Code: "100", Message: msg})
}

func threadsMe(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"id": u.ID, "username": u.Login, "name": u.Name,
		"threads_profile_picture_url": u.Avatar, "threads_biography": u.Bio})
}

func threadsLongLived(grant, param string, needSecret bool) func(q *req) {
	return func(q *req) {
		v := q.r.URL.Query()
		if v.Get("grant_type") != grant || (needSecret && v.Get("client_secret") != ClientSecret("threads")) {
			graphError(q, apiError{Status: http.StatusBadRequest, Code: "100", Message: "Invalid grant_type or client_secret"})
			return
		}
		t, ok := q.net.access[v.Get(param)]
		if !ok || t.revoked || !t.expires.After(q.net.sb.Now()) {
			graphError(q, apiError{Status: http.StatusBadRequest, Code: "190", Message: "Error validating access token: The session has been invalidated."})
			return
		}
		ttl := 60 * 24 * time.Hour
		if q.net.knobs.TokenTTLSeconds > 0 {
			ttl = q.net.ttl()
		}
		access := randID("threads-ll-")
		q.net.access[access] = &issued{user: t.user, scope: t.scope, expires: q.net.sb.Now().Add(ttl), token: access}
		q.json(http.StatusOK, map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds())})
	}
}
