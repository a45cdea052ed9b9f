package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// TikTok: consent at /v2/auth/authorize/ (client_key), token at /v2/oauth/token/ (form with
// client_key and client_secret), 24-hour access tokens with rotating 365-day refresh tokens; the user
// at /v2/user/info/ (is_business_account when asked: true for logins starting with "biz_", see
// TikTokBusinessLogin). Every answer carries {"error":{"code","message","log_id"}}, "ok" on success.
func tiktokDialect() *dialect {
	d := &dialect{
		seg: "tiktok", title: "TikTok", network: app.TikTok,
		authorizePath: "/v2/auth/authorize", tokenPath: "/v2/oauth/token", rotate: true, accessTTL: 24 * time.Hour,
		writeToken:      tiktokWriteToken,
		writeTokenError: tiktokWriteTokenError,
		writeError:      tiktokWriteError,
		invalidToken:    apiError{Status: http.StatusUnauthorized, Code: "access_token_invalid", Message: "The access token is invalid or not found in the request."},
		newUser:         func(n *Net, u *User) { u.ID = "-000" + u.ID },
		routes: map[string]func(q *req){
			"GET /v2/user/info": tiktokUserInfo,
		},
	}
	tiktokPublish(d)
	return d
}

func tiktokWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, u *User) {
	q.json(http.StatusOK, map[string]any{"access_token": access, "expires_in": int(ttl.Seconds()), "open_id": u.ID,
		"refresh_expires_in": 31536000, "refresh_token": refresh, "scope": scope, "token_type": "Bearer"})
}

func tiktokWriteTokenError(q *req, status int, code, msg string) {
	q.json(status, map[string]any{"error": code, "error_description": msg, "log_id": randID("2026")[:24]})
}

func tiktokWriteError(q *req, e apiError) {
	code := e.Code
	if code == "" {
		switch {
		case e.Status == http.StatusTooManyRequests:
			code = "rate_limit_exceeded"
		case e.Status == http.StatusUnauthorized:
			code = "access_token_invalid"
		case e.Status >= 500:
			code = "internal"
		default:
			code = "invalid_params"
		}
	}
	tiktokEnvelope(q, e.Status, map[string]any{}, code, e.Message)
}

func tiktokEnvelope(q *req, status int, data any, code, msg string) {
	q.json(status, map[string]any{"data": data, "error": map[string]string{"code": code, "message": msg, "log_id": randID("2026")[:24]}})
}

func tiktokUserInfo(q *req) {
	u := q.user
	user := map[string]any{"open_id": u.ID, "union_id": "u" + u.ID, "avatar_url": u.Avatar,
		"display_name": u.Name, "username": u.Login, "bio_description": u.Bio}
	for _, f := range strings.Split(q.r.URL.Query().Get("fields"), ",") {
		if f == "is_business_account" {
			user[f] = TikTokBusinessLogin(u.Login)
		}
	}
	tiktokEnvelope(q, http.StatusOK, map[string]any{"user": user}, "ok", "")
}

// TikTokBusinessLogin tells the twin's business accounts: logins starting with "biz_".
func TikTokBusinessLogin(login string) bool { return strings.HasPrefix(login, "biz_") }
