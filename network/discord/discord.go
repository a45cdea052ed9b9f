// Package discord is the adapter of Discord's bot install: the OAuth consent with scopes
// "bot identify guilds" and the bot's permissions adds Crier's bot to a server (guild) the user
// picks; the callback carries guild_id and the token answer the guild. The user token (7 days,
// refreshable) is only for identity; the guild's channels are read — and later posted to — with the
// app-wide bot token (Authorization: Bot …, DISCORD_BOT_TOKEN). Errors: {"code","message"}; 429
// carries retry_after (seconds) in the body and X-RateLimit-Reset-After.
//
// The webhook.incoming scope also makes the user pick a channel for an incoming webhook; the token
// answer then carries webhook {id, name, avatar, url, channel_id, token …}, kept with the token and
// shown on that channel (Channel.webhook).
package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// Real endpoints.
var Real = core.Endpoints{Auth: "https://discord.com", API: "https://discord.com"}

// Permissions the bot asks: View Channel, Send Messages, Embed Links, Attach Files, Read Message
// History (replies reference a message; publishing reads recent messages to reconcile an attempt),
// Create Public Threads, Send Messages in Threads.
const Permissions = 1024 | 2048 | 16384 | 32768 | 65536 | 34359738368 | 274877906944

// Adapter talks to Discord.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	bot   string
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	base := strings.TrimRight(ep.API, "/") + "/api/v10"
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Discord, Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret,
			Scopes:   []string{"bot", "identify", "guilds", "webhook.incoming"},
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/oauth2/authorize", TokenURL: base + "/oauth2/token", AuthStyle: oauth2.AuthStyleInParams}},
			Extra: url.Values{"permissions": {fmt.Sprint(Permissions)}, "integration_type": {"0"}}, KeepExtra: []string{"webhook"}},
		api:  core.NewClient(app.Discord, Classify),
		base: base,
		bot:  cred.BotToken,
	}
}

func (a *Adapter) Network() app.Network         { return app.Discord }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsList }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}

// Exchange trades the code and remembers the guild the bot was added to.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	t, err := a.oauth.Exchange(ctx, r)
	if err != nil {
		return nil, err
	}
	guild := r.Query["guild_id"]
	if guild == "" {
		return nil, &app.NetworkError{Network: app.Discord, Class: app.ErrPermanent, Code: "no_guild", Message: "No server was chosen for the bot"}
	}
	t.Secrets["guildId"] = guild
	if w, ok := t.Secrets["webhook"]; ok {
		delete(t.Secrets, "webhook")
		t.Secrets[SecretWebhook] = w
	}
	return t, nil
}

// SecretWebhook is where the install's incoming webhook is kept in Token.Secrets (a refresh
// answers none; the service keeps the earlier one).
const SecretWebhook = "incomingWebhook"

// Webhook is the token answer's webhook (webhook.incoming scope).
type Webhook struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Avatar    *string `json:"avatar"`
	URL       string  `json:"url"`
	ChannelID string  `json:"channel_id"`
}

// webhookOf answers the channel's webhook when the install's incoming webhook posts to it.
func webhookOf(t *app.Token, channelID string) *app.ChannelWebhook {
	var w Webhook
	if t == nil || t.Secrets[SecretWebhook] == "" || json.Unmarshal([]byte(t.Secrets[SecretWebhook]), &w) != nil || w.ChannelID != channelID {
		return nil
	}
	out := &app.ChannelWebhook{ID: core.Str(w.ID), Name: core.Str(w.Name), URL: core.Str(w.URL)}
	if w.Avatar != nil && *w.Avatar != "" {
		out.Avatar = core.Str("https://cdn.discordapp.com/avatars/" + w.ID + "/" + *w.Avatar + ".png")
	}
	return out
}

// Refresh renews the user token.
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	nt, err := a.oauth.Refresh(ctx, t)
	if err != nil {
		return nil, err
	}
	nt.Secrets["guildId"] = t.Secrets["guildId"]
	return nt, nil
}

func (a *Adapter) asBot(u string) core.Request {
	return core.Request{URL: a.base + u, Header: map[string]string{"Authorization": "Bot " + a.bot}}
}

// Profile: the account is the guild (GET /guilds/{id} with the bot), the user from /users/@me.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var me struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/users/@me", Bearer: t.AccessToken}, &me); err != nil {
		return nil, err
	}
	var g struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Icon string `json:"icon"`
	}
	if err := a.api.Do(ctx, a.asBot("/guilds/"+url.PathEscape(t.Secrets["guildId"])), &g); err != nil {
		return nil, err
	}
	p := &app.Profile{ExternalID: g.ID, DisplayName: g.Name, UserID: me.ID, UserUsername: me.Username, UserDisplayName: me.GlobalName}
	if g.Icon != "" {
		p.AvatarURL = "https://cdn.discordapp.com/icons/" + g.ID + "/" + g.Icon + ".png"
	}
	return p, nil
}

// Channels lists the guild's text, announcement and forum channels (with the bot).
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	var cs []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Type int    `json:"type"`
	}
	if err := a.api.Do(ctx, a.asBot("/guilds/"+url.PathEscape(t.Secrets["guildId"])+"/channels"), &cs); err != nil {
		return nil, err
	}
	out := []app.Channel{}
	for _, c := range cs {
		if c.Type == 0 || c.Type == 5 || c.Type == 15 {
			out = append(out, app.Channel{ID: c.ID, Name: core.Str(c.Name), Username: core.Str("#" + c.Name), Webhook: webhookOf(t, c.ID)})
		}
	}
	return out, nil
}

// Check reads the guild with the bot: a removed bot (Missing Access, Unknown Guild) needs a new install.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	err := a.api.Do(ctx, a.asBot("/guilds/"+url.PathEscape(t.Secrets["guildId"])), nil)
	var ne *app.NetworkError
	if err != nil && asNE(err, &ne) && (ne.Code == "50001" || ne.Code == "10004") {
		ne.Class = app.ErrAuthExpired
	}
	return err
}

func asNE(err error, ne **app.NetworkError) bool {
	n, ok := err.(*app.NetworkError)
	*ne = n
	return ok
}

// Classify reads Discord's {"code","message"} and 429's retry_after.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Code       int     `json:"code"`
		Message    string  `json:"message"`
		RetryAfter float64 `json:"retry_after"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Message}
	if e.Code != 0 {
		ne.Code = fmt.Sprint(e.Code)
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	if status == http.StatusTooManyRequests {
		ne.ResetAt = core.SecondsHeader(h, "X-RateLimit-Reset-After", time.Now())
		if e.RetryAfter > 0 {
			ne.ResetAt = time.Now().Add(time.Duration(e.RetryAfter * float64(time.Second)))
		}
	}
	return ne
}
