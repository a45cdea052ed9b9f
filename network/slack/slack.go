// Package slack is the adapter of Slack's bot install (OAuth v2): consent at
// slack.com/oauth/v2/authorize with bot scopes; POST /api/oauth.v2.access answers a bot token
// (xoxb-, no expiry unless token rotation is on — then expires_in and a refresh token come too).
// The workspace is the account (team.info), its conversations the channels (conversations.list,
// cursor pagination). With the incoming-webhook scope the install also creates an incoming webhook
// for a channel the user picks (oauth.v2.access's incoming_webhook {channel, channel_id, url,
// configuration_url}); it is kept with the token and shown on that channel (Channel.webhook).
// Slack answers errors as HTTP 200 {"ok":false,"error":"<code>"}; throttling is
// 429 with Retry-After.
package slack

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Real endpoints.
var Real = core.Endpoints{Auth: "https://slack.com", API: "https://slack.com"}

// Scopes are the bot scopes asked at install.
var Scopes = []string{"chat:write", "chat:write.public", "chat:write.customize", "channels:read", "groups:read", "channels:join",
	"files:write", "channels:history", "groups:history", "reactions:read", "users:read", "team:read", "incoming-webhook"}

// Adapter talks to Slack.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	cred  core.Credentials
	// Poll paces the reading back of the message that shares files (publish.go).
	Poll pubutil.Poller
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Slack, ScopeSep: ",", Config: oauth2.Config{ClientID: cred.ClientID, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/oauth/v2/authorize"}}},
		api:  core.NewClient(app.Slack, Classify),
		base: strings.TrimRight(ep.API, "/") + "/api",
		cred: cred,
	}
}

func (a *Adapter) Network() app.Network         { return app.Slack }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsList }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}

func (a *Adapter) access(ctx context.Context, form url.Values) (*app.Token, error) {
	form.Set("client_id", a.cred.ClientID)
	form.Set("client_secret", a.cred.ClientSecret)
	var out struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
		Scope        string `json:"scope"`
		BotUserID    string `json:"bot_user_id"`
		Team         struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"team"`
		AuthedUser struct {
			ID string `json:"id"`
		} `json:"authed_user"`
		IncomingWebhook *IncomingWebhook `json:"incoming_webhook"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/oauth.v2.access", Form: form}, &out); err != nil {
		return nil, err
	}
	t := &app.Token{AccessToken: out.AccessToken, RefreshToken: out.RefreshToken, Scope: out.Scope,
		Secrets: map[string]string{"teamId": out.Team.ID, "botUserId": out.BotUserID, "authedUserId": out.AuthedUser.ID}}
	if out.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
	}
	if w := out.IncomingWebhook; w != nil && w.URL != "" {
		b, _ := json.Marshal(w)
		t.Secrets[SecretWebhook] = string(b)
	}
	return t, nil
}

// IncomingWebhook is oauth.v2.access's incoming_webhook (the incoming-webhook scope).
type IncomingWebhook struct {
	Channel          string `json:"channel"`
	ChannelID        string `json:"channel_id"`
	ConfigurationURL string `json:"configuration_url"`
	URL              string `json:"url"`
}

// SecretWebhook is where the install's incoming webhook is kept in Token.Secrets (a refresh
// answers none; the service keeps the earlier one).
const SecretWebhook = "incomingWebhook"

// webhookOf answers the channel's webhook when the install's incoming webhook posts to it.
func webhookOf(t *app.Token, channelID string) *app.ChannelWebhook {
	var w IncomingWebhook
	if t == nil || t.Secrets[SecretWebhook] == "" || json.Unmarshal([]byte(t.Secrets[SecretWebhook]), &w) != nil || w.ChannelID != channelID {
		return nil
	}
	out := &app.ChannelWebhook{Name: core.Str(w.Channel), URL: core.Str(w.URL)}
	// The configuration URL ends with the webhook's id (…/services/B0123ABC).
	if i := strings.LastIndex(w.ConfigurationURL, "/"); i >= 0 && i < len(w.ConfigurationURL)-1 {
		out.ID = core.Str(w.ConfigurationURL[i+1:])
	}
	return out
}

// Exchange trades the code for the bot token.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	return a.access(ctx, url.Values{"code": {r.Code}, "redirect_uri": {r.RedirectURI}})
}

// Refresh renews a rotating bot token; without rotation bot tokens do not expire.
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	if t.RefreshToken == "" {
		return nil, app.ErrNoRefresh
	}
	return a.access(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}})
}

// Profile reads the workspace (team.info) and the installing user (auth.test).
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var team struct {
		Team struct {
			ID     string `json:"id"`
			Name   string `json:"name"`
			Domain string `json:"domain"`
			Icon   struct {
				Image132 string `json:"image_132"`
			} `json:"icon"`
		} `json:"team"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/team.info", Bearer: t.AccessToken}, &team); err != nil {
		return nil, err
	}
	tm := team.Team
	return &app.Profile{ExternalID: tm.ID, Username: tm.Domain, DisplayName: tm.Name, AvatarURL: tm.Icon.Image132,
		UserID: t.Secrets["authedUserId"]}, nil
}

// Channels lists public and private channels the bot can see (cursor pagination).
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	out := []app.Channel{}
	cursor := ""
	for i := 0; i < 50; i++ {
		var l struct {
			Channels []struct {
				ID        string `json:"id"`
				Name      string `json:"name"`
				IsPrivate bool   `json:"is_private"`
			} `json:"channels"`
			ResponseMetadata struct {
				NextCursor string `json:"next_cursor"`
			} `json:"response_metadata"`
		}
		u := a.base + "/conversations.list?types=public_channel,private_channel&exclude_archived=true&limit=200"
		if cursor != "" {
			u += "&cursor=" + url.QueryEscape(cursor)
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &l); err != nil {
			return nil, err
		}
		for _, c := range l.Channels {
			out = append(out, app.Channel{ID: c.ID, Name: core.Str(c.Name), Username: core.Str("#" + c.Name), Webhook: webhookOf(t, c.ID)})
		}
		if cursor = l.ResponseMetadata.NextCursor; cursor == "" {
			break
		}
	}
	return out, nil
}

// Check calls auth.test.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/auth.test", Bearer: t.AccessToken}, nil)
}

// Classify reads {"ok":false,"error":"<code>"} (usually with HTTP 200) and 429s.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	var e struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	if status >= 200 && status < 300 && (e.OK == nil || *e.OK) {
		return nil
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.Error, Message: e.Error}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch e.Error {
	case "invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive":
		ne.Class = app.ErrAuthExpired
	case "ratelimited":
		ne.Class = app.ErrRateLimited
	case "internal_error", "fatal_error", "service_unavailable", "request_timeout":
		ne.Class = app.ErrTransient
	default:
		if status == http.StatusTooManyRequests {
			ne.Class = app.ErrRateLimited
		} else if status < 300 {
			ne.Class = app.ErrPermanent
		}
	}
	if ne.Class == app.ErrRateLimited {
		ne.ResetAt = core.RetryAfter(h, time.Now())
	}
	return ne
}
