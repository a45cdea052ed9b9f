package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// Slack: consent at /oauth/v2/authorize, POST /api/oauth.v2.access answering a bot token (here with
// token rotation on: 12-hour tokens and rotating refresh tokens), /api/team.info, /api/auth.test,
// /api/conversations.list. Errors are HTTP 200 {"ok":false,"error":"<code>"}; 429 has Retry-After.
func slackDialect() *dialect {
	d := &dialect{
		seg: "slack", title: "Slack", network: app.Slack,
		authorizePath: "/oauth/v2/authorize", tokenPath: "/api/oauth.v2.access", rotate: true, accessTTL: 12 * time.Hour,
		writeToken:      slackWriteToken,
		writeTokenError: slackWriteTokenError,
		writeError:      slackWriteError,
		invalidToken:    apiError{Status: http.StatusOK, Code: "invalid_auth"},
		bearer:          slackBearer,
		newUser:         slackNewUser,
	}
	d.routes = map[string]func(q *req){
		"GET /api/team.info":          slackTeamInfo,
		"POST /api/auth.test":         slackAuthTest,
		"GET /api/conversations.list": slackConversationsList,
	}
	slackPublish(d)
	return d
}

func slackWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, u *User) {
	out := map[string]any{"ok": true, "access_token": "xoxb-" + access, "token_type": "bot", "scope": scope,
		"bot_user_id": "U0BOT" + u.ID[:4], "app_id": "A0SANDBOX", "expires_in": int(ttl.Seconds()), "refresh_token": refresh,
		"team": map[string]string{"id": "T" + u.ID[:8], "name": u.Name}, "enterprise": nil,
		"authed_user": map[string]string{"id": "U" + u.ID[:8]}}
	if w := slackIncomingWebhook(q, scope, u); w != nil {
		out["incoming_webhook"] = w
	}
	q.json(http.StatusOK, out)
}

func slackWriteTokenError(q *req, status int, code, msg string) {
	if status == http.StatusTooManyRequests || status >= 500 {
		q.json(status, map[string]any{"ok": false, "error": code})
		return
	}
	q.json(http.StatusOK, map[string]any{"ok": false, "error": code})
}

func slackWriteError(q *req, e apiError) {
	code := e.Code
	if code == "" {
		code = "invalid_arguments"
		switch {
		case e.Status == http.StatusTooManyRequests:
			code = "ratelimited"
		case e.Status >= 500:
			code = "internal_error"
		}
	}
	if !e.ResetAt.IsZero() {
		q.w.Header().Set("Retry-After", fmt.Sprint(int(time.Until(e.ResetAt).Seconds()+0.5)))
	}
	status := http.StatusOK // Slack answers its errors with 200 …
	if e.Status == http.StatusTooManyRequests || e.Status >= 500 {
		status = e.Status // … except throttling and outages
	}
	q.json(status, map[string]any{"ok": false, "error": code})
}

func slackBearer(r *http.Request) string {
	return strings.TrimPrefix(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), "xoxb-")
}

func slackNewUser(n *Net, u *User) {
	for _, name := range []string{"general", "announcements", "random"} {
		u.Channels = append(u.Channels, Channel{ID: "C" + strings.ToUpper(numericID(u.ID + name)[:9]), Name: name})
	}
}

func slackTeamInfo(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"ok": true, "team": map[string]any{"id": "T" + u.ID[:8], "name": u.Name, "domain": u.Login,
		"icon": map[string]any{"image_132": u.Avatar}}})
}

func slackAuthTest(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"ok": true, "url": "https://" + u.Login + ".slack.com/", "team": u.Name, "user": "crier",
		"team_id": "T" + u.ID[:8], "user_id": "U0BOT" + u.ID[:4], "bot_id": "B0SANDBOX"})
}

func slackConversationsList(q *req) {
	chs := []map[string]any{}
	for _, c := range q.user.Channels {
		chs = append(chs, map[string]any{"id": c.ID, "name": c.Name, "is_channel": true, "is_private": false, "is_member": c.Name == "general", "is_archived": false})
	}
	q.json(http.StatusOK, map[string]any{"ok": true, "channels": chs, "response_metadata": map[string]string{"next_cursor": ""}})
}

// slackIncomingWebhook is oauth.v2.access's incoming_webhook when the install asked the
// incoming-webhook scope (the code exchange only; a refresh answers none, as on Slack). The user
// "picks" the first channel (#general); the URL is the twin's own hooks path.
func slackIncomingWebhook(q *req, scope string, u *User) map[string]string {
	if q.r.Form.Get("grant_type") == "refresh_token" || !strings.Contains(","+scope+",", ",incoming-webhook,") || len(u.Channels) == 0 {
		return nil
	}
	c := u.Channels[0]
	hook := "B" + strings.ToUpper(numericID(u.ID + "/hook/" + c.ID)[:9])
	scheme := "http"
	if q.r.TLS != nil {
		scheme = "https"
	}
	return map[string]string{"channel": "#" + c.Name, "channel_id": c.ID,
		"configuration_url": "https://" + u.Login + ".slack.com/services/" + hook,
		"url":               scheme + "://" + q.r.Host + "/sandbox/slack/services/T" + u.ID[:8] + "/" + hook + "/" + numericID(hook)}
}
