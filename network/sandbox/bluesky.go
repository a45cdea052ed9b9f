package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// appPassword is the shape of a Bluesky app password.
var appPassword = regexp.MustCompile(`^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$`)

// Bluesky (a PDS): POST /xrpc/com.atproto.server.createSession with {identifier, password} (any
// app-password-shaped password is accepted; anything else is 401 AuthenticationRequired),
// POST refreshSession with the refresh JWT (rotating), GET getSession and app.bsky.actor.getProfile.
// Access JWTs last 2 hours (their exp is real). Errors {"error","message"}; 429 with RateLimit-*.
func blueskyDialect() *dialect {
	d := &dialect{
		seg: "bluesky", title: "Bluesky", network: app.Bluesky,
		authorizePath: "/-/no-oauth", tokenPath: "/-/no-oauth-token", accessTTL: 2 * time.Hour,
		writeToken:   standardToken,
		writeError:   blueskyWriteError,
		invalidToken: apiError{Status: http.StatusBadRequest, Code: "ExpiredToken", Message: "Token has expired"},
		newUser:      func(n *Net, u *User) { u.ID = "did:plc:sandbox" + u.ID[:10] },
	}
	d.unauthenticated = map[string]func(q *req){
		"POST /xrpc/com.atproto.server.createSession":  blueskyCreateSession,
		"POST /xrpc/com.atproto.server.refreshSession": blueskyRefreshSession,
	}
	d.routes = map[string]func(q *req){
		"GET /xrpc/com.atproto.server.getSession": blueskyGetSession,
		"GET /xrpc/app.bsky.actor.getProfile":     blueskyGetProfile,
	}
	blueskyPublish(d)
	return d
}

func blueskyWriteError(q *req, e apiError) {
	if !e.ResetAt.IsZero() {
		q.w.Header().Set("RateLimit-Limit", "30")
		q.w.Header().Set("RateLimit-Remaining", "0")
		q.w.Header().Set("RateLimit-Reset", fmt.Sprint(e.ResetAt.Unix()))
		q.w.Header().Set("RateLimit-Policy", "30;w=300")
	}
	code := e.Code
	if code == "" {
		code = "InvalidRequest"
		if e.Status == http.StatusTooManyRequests {
			code = "RateLimitExceeded"
		} else if e.Status >= 500 {
			code = "InternalServerError"
		}
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	q.json(e.Status, map[string]any{"error": code, "message": msg})
}

// blueskySession issues an access JWT (with a real exp) and a refresh JWT, answering the session.
func blueskySession(q *req, u *User) {
	ttl := q.net.ttl()
	exp := q.net.sb.Now().Add(ttl)
	payload, _ := json.Marshal(map[string]any{"scope": "com.atproto.appPass", "sub": u.ID, "iat": q.net.sb.Now().Unix(), "exp": exp.Unix(), "jti": randID("")})
	access := "eyJhbGciOiJIUzI1NiJ9." + base64.RawURLEncoding.EncodeToString(payload) + "." + randID("sig")
	q.net.access[access] = &issued{user: u, expires: exp, token: access}
	refresh := randID("bsky-refresh-")
	q.net.refresh[refresh] = &issued{user: u, token: refresh}
	q.json(http.StatusOK, map[string]any{"accessJwt": access, "refreshJwt": refresh, "handle": u.Login + ".sandbox.bsky", "did": u.ID,
		"email": u.Email, "emailConfirmed": true, "active": true})
}

func blueskyCreateSession(q *req) {
	var in struct{ Identifier, Password string }
	_ = json.NewDecoder(q.r.Body).Decode(&in)
	if in.Identifier == "" || !appPassword.MatchString(in.Password) {
		q.fail(apiError{Status: http.StatusUnauthorized, Code: "AuthenticationRequired", Message: "Invalid identifier or password"})
		return
	}
	blueskySession(q, q.net.user(strings.TrimSuffix(in.Identifier, ".sandbox.bsky")))
}

func blueskyRefreshSession(q *req) {
	rt := strings.TrimPrefix(q.r.Header.Get("Authorization"), "Bearer ")
	t, ok := q.net.refresh[rt]
	if !ok || t.revoked {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "ExpiredToken", Message: "Token has been revoked"})
		return
	}
	delete(q.net.refresh, rt)
	blueskySession(q, t.user)
}

func blueskyGetSession(q *req) {
	q.json(http.StatusOK, map[string]any{"handle": q.user.Login + ".sandbox.bsky", "did": q.user.ID, "active": true})
}

func blueskyGetProfile(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"did": u.ID, "handle": u.Login + ".sandbox.bsky", "displayName": u.Name, "description": u.Bio,
		"avatar": u.Avatar, "followersCount": 0, "followsCount": 0, "postsCount": 0})
}
