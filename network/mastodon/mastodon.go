// Package mastodon is the adapter of Mastodon, where every server is its own network: Crier
// registers an app on each server (POST /api/v1/apps; the Service keeps it in mastodon_servers),
// then runs OAuth 2 against that server (/oauth/authorize, /oauth/token). Tokens do not expire
// (Refresh is ErrNoRefresh). The user from /api/v1/accounts/verify_credentials. Server URLs come
// from users, so every call goes through netguard (no private or loopback addresses unless
// ALLOW_PRIVATE_URLS). Errors: {"error":"…"}; 429 with X-RateLimit-Reset as an ISO time.
package mastodon

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/netguard"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Scopes asked at connect.
const Scopes = "read write"

// Adapter talks to any Mastodon server.
type Adapter struct {
	api          *core.Client
	allowPrivate bool
	website      string
	// Poll paces the polling of media processing (publish.go).
	Poll pubutil.Poller
	// sandbox, under SANDBOX=1, is the twin's base URL: every server's calls go there, while the
	// account keeps the server it named (any serverUrl connects, none is reached).
	sandbox string
}

// New builds the adapter; allowPrivate lets servers on private addresses be reached (development).
func New(allowPrivate bool, website string) *Adapter {
	api := core.NewClient(app.Mastodon, Classify)
	api.HTTP = netguard.Client(netguard.Options{AllowPrivate: allowPrivate})
	return &Adapter{api: api, allowPrivate: allowPrivate, website: website}
}

// NewSandbox builds the adapter of SANDBOX=1: every server is served by the twin at base.
func NewSandbox(website, base string) *Adapter {
	a := New(true, website)
	a.sandbox = strings.TrimRight(base, "/")
	return a
}

// at is where the API of server is reached: the server itself, or the sandbox's twin.
func (a *Adapter) at(server string) string {
	if a.sandbox != "" {
		return a.sandbox
	}
	return server
}

func (a *Adapter) Network() app.Network  { return app.Mastodon }
func (a *Adapter) Kind() app.ConnectKind { return app.ConnectOAuth }

// NormalizeServer accepts "mastodon.social" or a URL and answers scheme://host[/path] without a
// trailing slash.
func (a *Adapter) NormalizeServer(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw != "" && !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := netguard.CheckURL(raw, a.allowPrivate)
	if err != nil {
		return "", errors.New("not a reachable server URL")
	}
	if u.Scheme != "https" && !a.allowPrivate {
		return "", errors.New("the server must use https")
	}
	return u.Scheme + "://" + u.Host + strings.TrimRight(u.Path, "/"), nil
}

// RegisterApp registers Crier on a server.
func (a *Adapter) RegisterApp(ctx context.Context, server, redirectURI string) (string, string, error) {
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	form := url.Values{"client_name": {"Crier"}, "redirect_uris": {redirectURI}, "scopes": {Scopes}, "website": {a.website}}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.at(server) + "/api/v1/apps", Form: form}, &out); err != nil {
		return "", "", err
	}
	return out.ClientID, out.ClientSecret, nil
}

// AppKnown asks the server whether it still knows Crier's app: a client-credentials token is
// granted to a known app, and refused with 401 invalid_client (Doorkeeper) to a forgotten one.
func (a *Adapter) AppKnown(ctx context.Context, server, clientID, clientSecret string) (bool, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {clientID}, "client_secret": {clientSecret}, "scope": {"read"}}
	err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.at(server) + "/oauth/token", Form: form}, nil)
	var ne *app.NetworkError
	if errors.As(err, &ne) && (ne.Status == http.StatusUnauthorized || ne.Code == "invalid_client") {
		return false, nil
	}
	return err == nil, err
}

// AuthorizeURL is the server's consent page.
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	q := url.Values{"client_id": {r.ClientID}, "redirect_uri": {r.RedirectURI}, "response_type": {"code"}, "scope": {Scopes}, "state": {r.State}}
	if r.Options.DisableAutoLogin {
		q.Set("force_login", "true")
	}
	return a.at(r.ServerURL) + "/oauth/authorize?" + q.Encode(), nil
}

// Exchange trades the code at the server.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	var out struct {
		AccessToken string `json:"access_token"`
		Scope       string `json:"scope"`
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {r.Code}, "client_id": {r.ClientID}, "client_secret": {r.ClientSecret},
		"redirect_uri": {r.RedirectURI}, "scope": {Scopes}}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.at(r.ServerURL) + "/oauth/token", Form: form}, &out); err != nil {
		var ne *app.NetworkError
		if errors.As(err, &ne) && ne.Code == "invalid_grant" {
			ne.Class = app.ErrAuthExpired
		}
		return nil, err
	}
	return &app.Token{AccessToken: out.AccessToken, Scope: out.Scope, Secrets: map[string]string{"serverUrl": r.ServerURL}}, nil
}

// Refresh: Mastodon tokens do not expire.
func (a *Adapter) Refresh(context.Context, *app.Token) (*app.Token, error) {
	return nil, app.ErrNoRefresh
}

// Profile reads verify_credentials.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	server := t.Secrets["serverUrl"]
	var me struct {
		ID          string `json:"id"`
		Username    string `json:"username"`
		Acct        string `json:"acct"`
		DisplayName string `json:"display_name"`
		Note        string `json:"note"`
		Avatar      string `json:"avatar"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.at(server) + "/api/v1/accounts/verify_credentials", Bearer: t.AccessToken}, &me); err != nil {
		return nil, err
	}
	handle := me.Acct
	if !strings.Contains(handle, "@") {
		if u, err := url.Parse(server); err == nil {
			handle += "@" + u.Host
		}
	}
	return &app.Profile{ExternalID: me.ID, Username: handle, DisplayName: me.DisplayName, Bio: me.Note, AvatarURL: me.Avatar,
		UserID: me.ID, UserUsername: handle, UserDisplayName: me.DisplayName}, nil
}

// Channels: the account is the destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the account.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads {"error": "…"} (and OAuth's error_description) and X-RateLimit-Reset.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Error}
	if e.ErrorDescription != "" {
		ne.Code, ne.Message = e.Error, e.ErrorDescription
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	if status == http.StatusTooManyRequests {
		if t, err := time.Parse(time.RFC3339, h.Get("X-RateLimit-Reset")); err == nil {
			ne.ResetAt = t
		}
	}
	return ne
}
