// Package threads is the adapter of Threads (graph.threads.net): consent at threads.net/oauth/authorize,
// a short-lived token (POST /oauth/access_token) exchanged at once for a 60-day one
// (th_exchange_token); Refresh renews a long-lived token (th_refresh_token) while it is valid —
// there is no refresh token. The user from GET /v1.0/me. Errors are Graph's (meta.Classify).
package threads

import (
	"context"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/meta"
	"github.com/crier/crier/network/pubutil"
)

// Real endpoints.
var Real = core.Endpoints{Auth: "https://threads.net", API: "https://graph.threads.net"}

// Scopes asked at connect (comma-separated on the wire).
var Scopes = []string{"threads_basic", "threads_content_publish", "threads_manage_replies", "threads_read_replies", "threads_manage_insights"}

// Adapter talks to Threads.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	cred  core.Credentials
	// Poll paces the polling of media containers (publish.go).
	Poll pubutil.Poller
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	base := strings.TrimRight(ep.API, "/")
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Threads, ScopeSep: ",", Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/oauth/authorize", TokenURL: base + "/oauth/access_token", AuthStyle: oauth2.AuthStyleInParams}}},
		api:  core.NewClient(app.Threads, meta.Classify),
		base: base,
		cred: cred,
	}
}

func (a *Adapter) Network() app.Network           { return app.Threads }
func (a *Adapter) Kind() app.ConnectKind          { return app.ConnectOAuth }
func (a *Adapter) RefreshesWithAccessToken() bool { return true }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}

func (a *Adapter) longLived(ctx context.Context, path string, q url.Values) (*app.Token, error) {
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + path + "?" + q.Encode()}, &out); err != nil {
		return nil, err
	}
	t := &app.Token{AccessToken: out.AccessToken, Secrets: map[string]string{}}
	if out.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
	}
	return t, nil
}

// Exchange trades the code for a short-lived token, then for a 60-day one.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	short, err := a.oauth.Exchange(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.longLived(ctx, "/access_token", url.Values{"grant_type": {"th_exchange_token"}, "client_secret": {a.cred.ClientSecret}, "access_token": {short.AccessToken}})
}

// Refresh renews the long-lived token.
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.longLived(ctx, "/refresh_access_token", url.Values{"grant_type": {"th_refresh_token"}, "access_token": {t.AccessToken}})
}

// Profile reads the Threads user.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var me struct {
		ID        string `json:"id"`
		Username  string `json:"username"`
		Name      string `json:"name"`
		Picture   string `json:"threads_profile_picture_url"`
		Biography string `json:"threads_biography"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v1.0/me?fields=id,username,name,threads_profile_picture_url,threads_biography", Bearer: t.AccessToken}, &me); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: me.ID, Username: me.Username, DisplayName: me.Name, Bio: me.Biography, AvatarURL: me.Picture,
		UserID: me.ID, UserUsername: me.Username, UserDisplayName: me.Name}, nil
}

// Channels: a Threads profile is its own destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the user.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}
