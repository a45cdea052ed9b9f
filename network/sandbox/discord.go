package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// BotToken is the sandbox Discord app's bot token.
const BotToken = "sandbox-discord-bot"

// Discord: consent at /oauth2/authorize (bot install: the redirect carries guild_id), token at
// /api/v10/oauth2/token (7-day user tokens, rotating refresh); /api/v10/users/@me with the user
// token; /api/v10/guilds/{id} and /guilds/{id}/channels with "Authorization: Bot …".
// Errors {"code","message"}; 429 with retry_after and X-RateLimit-* headers.
func discordDialect() *dialect {
	d := &dialect{
		seg: "discord", title: "Discord", network: app.Discord,
		authorizePath: "/oauth2/authorize", tokenPath: "/api/v10/oauth2/token", rotate: true, accessTTL: 7 * 24 * time.Hour,
		writeToken:   discordWriteToken,
		writeError:   discordWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "0", Message: "401: Unauthorized"},
		newUser:      discordNewUser,
		routes: map[string]func(q *req){
			"GET /api/v10/users/@me": discordMe,
		},
	}
	d.approved = discordApproved
	d.patterns = map[string]func(q *req){
		"GET /api/v10/guilds/{id}":          discordGuildBot(discordGuildInfo),
		"GET /api/v10/guilds/{id}/channels": discordGuildBot(discordGuildChannels),
	}
	discordPublish(d)
	return d
}

func discordWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, u *User) {
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(ttl.Seconds()), "refresh_token": refresh, "scope": scope}
	if strings.Contains(scope, "bot") {
		out["guild"] = map[string]any{"id": discordGuild(u), "name": u.Name + "'s server"}
	}
	if w := discordIncomingWebhook(q, scope, u); w != nil {
		out["webhook"] = w
	}
	q.json(http.StatusOK, out)
}

func discordWriteError(q *req, e apiError) {
	body := map[string]any{"message": e.Message, "code": 0}
	if e.Message == "" {
		body["message"] = http.StatusText(e.Status)
	}
	var n int
	if _, err := fmt.Sscan(e.Code, &n); err == nil {
		body["code"] = n
	}
	if e.Status == http.StatusTooManyRequests {
		secs := time.Until(e.ResetAt).Seconds()
		body["retry_after"], body["global"] = secs, false
		q.w.Header().Set("X-RateLimit-Remaining", "0")
		q.w.Header().Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", secs))
	}
	q.json(e.Status, body)
}

func discordNewUser(n *Net, u *User) {
	for i, c := range []struct {
		name string
		typ  int
	}{{"general", 0}, {"announcements", 5}, {"Voice", 2}, {"help-forum", 15}} {
		u.Channels = append(u.Channels, Channel{ID: numericID(u.ID + fmt.Sprint("/ch", i)), Name: c.name, Username: fmt.Sprint(c.typ)})
	}
}

func discordApproved(u *User, back url.Values) {
	back.Set("guild_id", discordGuild(u))
	back.Set("permissions", "0")
}

func discordMe(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"id": u.ID, "username": u.Login, "global_name": u.Name, "avatar": nil, "discriminator": "0"})
}

// discordGuildBot checks the bot token and finds the user whose guild is in the path before calling
// h.
func discordGuildBot(h func(q *req, u *User)) func(q *req) {
	return func(q *req) {
		if q.r.Header.Get("Authorization") != "Bot "+BotToken {
			q.fail(apiError{Status: http.StatusUnauthorized, Code: "0", Message: "401: Unauthorized"})
			return
		}
		parts := strings.Split(strings.TrimPrefix(q.path, "/api/v10/guilds/"), "/")
		for _, u := range q.net.users {
			if discordGuild(u) == parts[0] {
				h(q, u)
				return
			}
		}
		q.fail(apiError{Status: http.StatusNotFound, Code: "10004", Message: "Unknown Guild"})
	}
}

func discordGuildInfo(q *req, u *User) {
	q.json(http.StatusOK, map[string]any{"id": discordGuild(u), "name": u.Name + "'s server", "icon": nil, "owner_id": u.ID})
}

func discordGuildChannels(q *req, u *User) {
	out := []map[string]any{}
	for i, c := range u.Channels {
		var typ int
		_, _ = fmt.Sscan(c.Username, &typ)
		out = append(out, map[string]any{"id": c.ID, "type": typ, "guild_id": discordGuild(u), "name": c.Name, "position": i})
	}
	q.json(http.StatusOK, out)
}

func discordGuild(u *User) string { return numericID(u.ID + "/guild") }

// discordIncomingWebhook is the token answer's webhook when the consent asked webhook.incoming (the
// code exchange only; a refresh answers none). The user "picks" the first text channel; the URL is
// the twin's own webhooks path.
func discordIncomingWebhook(q *req, scope string, u *User) map[string]any {
	if q.r.Form.Get("grant_type") == "refresh_token" || !strings.Contains(" "+scope+" ", " webhook.incoming ") || len(u.Channels) == 0 {
		return nil
	}
	c := u.Channels[0]
	id, token := numericID(u.ID+"/webhook/"+c.ID), randID("")
	scheme := "http"
	if q.r.TLS != nil {
		scheme = "https"
	}
	return map[string]any{"id": id, "type": 1, "name": "Crier", "avatar": nil, "channel_id": c.ID, "guild_id": discordGuild(u),
		"application_id": numericID("discord/app"), "token": token,
		"url": scheme + "://" + q.r.Host + "/sandbox/discord/api/webhooks/" + id + "/" + token}
}
