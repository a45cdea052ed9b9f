package sandbox

import (
	"fmt"
	"net/http"
	"time"

	"github.com/crier/crier/app"
)

// Pinterest: consent /oauth/, token /v5/oauth/token (Basic client auth, form), ~30-day access and
// ~1-year refresh tokens; /v5/user_account and /v5/boards; errors {"code","message"}.
func pinterestDialect() *dialect {
	d := &dialect{
		seg: "pinterest", title: "Pinterest", network: app.Pinterest,
		authorizePath: "/oauth", tokenPath: "/v5/oauth/token", basicAuth: true, accessTTL: 30 * 24 * time.Hour,
		writeToken:   pinterestWriteToken,
		writeError:   pinterestWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "2", Message: "Authentication failed."},
		newUser:      pinterestNewUser,
		routes: map[string]func(q *req){
			"GET /v5/user_account": pinterestUserAccount,
			"GET /v5/boards":       pinterestBoards,
		},
	}
	pinterestPublish(d)
	return d
}

func pinterestWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, _ *User) {
	out := map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds()), "scope": scope, "response_type": "authorization_code"}
	if refresh != "" {
		out["refresh_token"], out["refresh_token_expires_in"] = refresh, 31536000
	}
	q.json(http.StatusOK, out)
}

func pinterestWriteError(q *req, e apiError) {
	code := 0
	if e.Code != "" {
		_, _ = fmt.Sscan(e.Code, &code)
	} else if e.Status == http.StatusUnauthorized {
		code = 2
	} else if e.Status == http.StatusTooManyRequests {
		code = 8
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	q.json(e.Status, map[string]any{"code": code, "message": msg})
}

func pinterestNewUser(n *Net, u *User) {
	for i, name := range []string{"Recipes", "Garden ideas"} {
		u.Channels = append(u.Channels, Channel{ID: numericID(u.ID + fmt.Sprint("/board", i)), Name: name, Username: u.Login})
	}
}

func pinterestUserAccount(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"account_type": "BUSINESS", "id": u.ID, "username": u.Login, "business_name": u.Name,
		"about": u.Bio, "profile_image": u.Avatar, "website_url": "https://sandbox.crier.invalid"})
}

func pinterestBoards(q *req) {
	items := []map[string]any{}
	for _, c := range q.user.Channels {
		items = append(items, map[string]any{"id": c.ID, "name": c.Name, "description": "", "privacy": "PUBLIC",
			"owner": map[string]string{"username": c.Username}, "media": map[string]any{"image_cover_url": nil}})
	}
	q.json(http.StatusOK, map[string]any{"items": items, "bookmark": nil})
}
