package meta

import (
	"context"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// FacebookLogin is a Graph adapter connected through Facebook Login: the base of Facebook Pages
// and of Instagram's default connection method.
type FacebookLogin struct {
	network app.Network
	scopes  []string
	oauth   *core.OAuth2
	api     *core.Client
	graph   string
	cred    core.Credentials
}

// NewFacebookLogin builds the Facebook Login adapter of network n asking scopes.
func NewFacebookLogin(n app.Network, scopes []string, ep core.Endpoints, cred core.Credentials) *FacebookLogin {
	graph := strings.TrimRight(ep.API, "/") + "/" + Version
	return &FacebookLogin{
		network: n, scopes: scopes,
		oauth: &core.OAuth2{Network: n, Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: scopes,
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/" + Version + "/dialog/oauth", TokenURL: graph + "/oauth/access_token", AuthStyle: oauth2.AuthStyleInParams}},
			ScopeSep: ","},
		api:   core.NewClient(n, Classify),
		graph: graph,
		cred:  cred,
	}
}

// Graph is the versioned Graph API base URL.
func (a *FacebookLogin) Graph() string { return a.graph }

// API is the classified Graph client.
func (a *FacebookLogin) API() *core.Client { return a.api }

func (a *FacebookLogin) Network() app.Network         { return a.network }
func (a *FacebookLogin) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *FacebookLogin) ChannelMode() app.ChannelMode { return app.ChannelsSelect }

// RefreshesWithAccessToken: the long-lived user token is renewed by exchanging it again.
func (a *FacebookLogin) RefreshesWithAccessToken() bool { return true }

// AuthorizeURL asks for the page scopes (plus business/messaging ones when the connect asks).
func (a *FacebookLogin) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	scopes := append([]string{}, a.scopes...)
	if r.Options.WithBusinessScope {
		scopes = append(scopes, "business_management")
	}
	if r.Options.WithMessagingScope {
		if a.network == app.Instagram {
			scopes = append(scopes, "instagram_manage_messages")
		} else {
			scopes = append(scopes, "pages_messaging")
		}
	}
	extra := url.Values{"scope": {strings.Join(scopes, ",")}}
	if r.Options.DisableAutoLogin {
		extra.Set("auth_type", "reauthenticate")
	}
	return a.oauth.AuthorizeURL(r, extra), nil
}

// Exchange trades the code for a short-lived token, then for a long-lived one.
func (a *FacebookLogin) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	short, err := a.oauth.Exchange(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.longLived(ctx, short.AccessToken)
}

func (a *FacebookLogin) longLived(ctx context.Context, token string) (*app.Token, error) {
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	q := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {a.cred.ClientID}, "client_secret": {a.cred.ClientSecret}, "fb_exchange_token": {token}}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/oauth/access_token?" + q.Encode()}, &out); err != nil {
		return nil, err
	}
	t := &app.Token{AccessToken: out.AccessToken, Secrets: map[string]string{}}
	if out.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
	}
	return t, nil
}

// Refresh re-exchanges the (still valid) long-lived user token; a dead one is ErrAuthExpired.
func (a *FacebookLogin) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.longLived(ctx, t.AccessToken)
}

type picture struct {
	Data struct {
		URL string `json:"url"`
	} `json:"data"`
}

// Profile reads the user who connected (the page comes with set-channel).
func (a *FacebookLogin) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var me struct {
		ID      string  `json:"id"`
		Name    string  `json:"name"`
		Email   string  `json:"email"`
		Picture picture `json:"picture"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/me?fields=id,name,email,picture", Bearer: t.AccessToken}, &me); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: me.ID, DisplayName: me.Name, AvatarURL: me.Picture.Data.URL, UserID: me.ID,
		UserDisplayName: me.Name, UserEmail: me.Email}, nil
}

// Channels lists the user's pages with their page tokens (following paging).
func (a *FacebookLogin) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	next := a.graph + "/me/accounts?fields=id,name,username,access_token,picture&limit=100"
	var out []app.Channel
	for i := 0; next != "" && i < 20; i++ {
		var page struct {
			Data []struct {
				ID          string  `json:"id"`
				Name        string  `json:"name"`
				Username    string  `json:"username"`
				AccessToken string  `json:"access_token"`
				Picture     picture `json:"picture"`
			} `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := a.api.Do(ctx, core.Request{URL: next, Bearer: t.AccessToken}, &page); err != nil {
			return nil, err
		}
		for _, p := range page.Data {
			id := p.ID
			out = append(out, app.Channel{ID: p.ID, Name: core.Str(p.Name), Username: core.Str(p.Username), AvatarURL: core.Str(p.Picture.Data.URL),
				Metadata: &app.ChannelMetadata{FacebookPageID: &id}, Token: p.AccessToken})
		}
		next = page.Paging.Next
	}
	if out == nil {
		out = []app.Channel{}
	}
	return out, nil
}

// Check reads the user.
func (a *FacebookLogin) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}
