// Package instagram is the adapter of Instagram professional accounts through Facebook Login
// (instagramConnectionMethod FACEBOOK, the default): the same Graph OAuth and long-lived token as
// Facebook, with Instagram scopes; the channels are the Instagram business accounts linked to the
// user's pages (GET /me/accounts?fields=…,instagram_business_account{…}); set-channel picks the one
// Crier publishes to, with its page's token. Errors are Graph's (meta.Classify).
//
// Instagram Login (instagramConnectionMethod INSTAGRAM: instagram.com's consent, graph.instagram.com,
// ig_exchange_token, ig_refresh_token) is login.go: the connect's method picks the path, and the
// token remembers it (Secrets), so refresh, profile and publishing follow it.
package instagram

import (
	"context"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/meta"
	"github.com/crier/crier/network/pubutil"
)

// Real endpoints (Facebook Login).
var Real = meta.Real

// Scopes asked at connect.
var Scopes = []string{"instagram_basic", "instagram_content_publish", "instagram_manage_comments", "instagram_manage_insights",
	"pages_show_list", "pages_read_engagement"}

// Adapter talks to Instagram through the Graph API (Facebook Login) or graph.instagram.com
// (Instagram Login).
type Adapter struct {
	*meta.FacebookLogin
	// Poll paces the polling of media containers (publish.go).
	Poll pubutil.Poller
	// Login are Instagram Login's hosts (consent, code exchange, API).
	Login      core.Endpoints
	loginToken *core.Client
	cred       core.Credentials
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	return &Adapter{FacebookLogin: meta.NewFacebookLogin(app.Instagram, Scopes, ep, cred), Login: loginEndpoints(ep),
		loginToken: core.NewClient(app.Instagram, classifyLoginToken), cred: cred}
}

// AuthorizeURL is Facebook's dialog, or Instagram's own consent for Instagram Login.
func (a *Adapter) AuthorizeURL(ctx context.Context, r app.AuthorizeRequest) (string, error) {
	if r.Options.InstagramConnectionMethod == MethodInstagram {
		return a.loginAuthorizeURL(r), nil
	}
	return a.FacebookLogin.AuthorizeURL(ctx, r)
}

// Exchange trades the code at the endpoint of the connect's method.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	if r.Options.InstagramConnectionMethod == MethodInstagram {
		return a.loginExchange(ctx, r)
	}
	return a.FacebookLogin.Exchange(ctx, r)
}

// Refresh renews the long-lived token of either method.
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	if IsLogin(t) {
		return a.loginRefresh(ctx, t)
	}
	return a.FacebookLogin.Refresh(ctx, t)
}

// Profile reads the Facebook user, or the Instagram Login account.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	if IsLogin(t) {
		return a.loginProfile(ctx, t)
	}
	return a.FacebookLogin.Profile(ctx, t)
}

// Check reads the profile of the token's method.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Channels lists the Instagram business accounts linked to the user's pages; an Instagram Login
// account is its own destination (none).
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	if IsLogin(t) {
		return []app.Channel{}, nil
	}
	next := a.Graph() + "/me/accounts?fields=id,name,access_token,instagram_business_account%7Bid,username,name,profile_picture_url%7D&limit=100"
	out := []app.Channel{}
	for i := 0; next != "" && i < 20; i++ {
		var page struct {
			Data []struct {
				ID          string `json:"id"`
				AccessToken string `json:"access_token"`
				IG          *struct {
					ID                string `json:"id"`
					Username          string `json:"username"`
					Name              string `json:"name"`
					ProfilePictureURL string `json:"profile_picture_url"`
				} `json:"instagram_business_account"`
			} `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := a.API().Do(ctx, core.Request{URL: next, Bearer: t.AccessToken}, &page); err != nil {
			return nil, err
		}
		for _, p := range page.Data {
			if p.IG == nil {
				continue // a page without a linked professional account
			}
			pageID := p.ID
			name := p.IG.Name
			if name == "" {
				name = p.IG.Username
			}
			out = append(out, app.Channel{ID: p.IG.ID, Name: core.Str(name), Username: core.Str(p.IG.Username), AvatarURL: core.Str(p.IG.ProfilePictureURL),
				Metadata: &app.ChannelMetadata{FacebookPageID: &pageID}, Token: p.AccessToken})
		}
		next = page.Paging.Next
	}
	return out, nil
}
