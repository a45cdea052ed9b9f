// Package googlebusiness is the adapter of Google Business Profile over Google's OAuth
// (network/google, scope business.manage): the Google user from /oauth2/v3/userinfo, and the
// locations of every account the user manages as channels (Account Management API: GET /v1/accounts;
// Business Information API: GET /v1/{account}/locations?readMask=…). A channel's id is the post
// parent, accounts/{a}/locations/{l}; set-channel picks it.
package googlebusiness

import (
	"context"
	"net/url"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/google"
)

// Real endpoints (the APIs live on their own hosts, see hosts).
var Real = google.Real

// Scopes asked at connect.
var Scopes = []string{"openid", "email", "profile", "https://www.googleapis.com/auth/business.manage"}

// Adapter talks to Google Business Profile.
type Adapter struct {
	oauth                    *core.OAuth2
	api                      *core.Client
	userinfo, accounts, info string
	posts                    string // My Business API v4 (localPosts)
}

// New builds the adapter. Against the real Google the APIs are on their own hosts; any other API
// base (the sandbox) serves them all.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	a := &Adapter{oauth: google.OAuth(app.GoogleBusiness, Scopes, ep, cred), api: core.NewClient(app.GoogleBusiness, google.Classify)}
	base := strings.TrimRight(ep.API, "/")
	a.userinfo, a.accounts, a.info, a.posts = base, base, base, base
	if ep.API == google.Real.API {
		a.accounts, a.info = "https://mybusinessaccountmanagement.googleapis.com", "https://mybusinessbusinessinformation.googleapis.com"
		a.posts = "https://mybusiness.googleapis.com"
	}
	return a
}

func (a *Adapter) Network() app.Network         { return app.GoogleBusiness }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsSelect }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	return a.oauth.Exchange(ctx, r)
}
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.oauth.Refresh(ctx, t)
}

// Profile reads the Google user.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var u struct {
		Sub     string `json:"sub"`
		Name    string `json:"name"`
		Picture string `json:"picture"`
		Email   string `json:"email"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.userinfo + "/oauth2/v3/userinfo", Bearer: t.AccessToken}, &u); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: u.Sub, DisplayName: u.Name, AvatarURL: u.Picture, UserID: u.Sub, UserDisplayName: u.Name, UserEmail: u.Email}, nil
}

// Channels lists the locations of every account.
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	out := []app.Channel{}
	var accounts []string
	for page, i := "", 0; i < 20; i++ {
		var l struct {
			Accounts []struct {
				Name string `json:"name"`
			} `json:"accounts"`
			NextPageToken string `json:"nextPageToken"`
		}
		u := a.accounts + "/v1/accounts?pageSize=20"
		if page != "" {
			u += "&pageToken=" + url.QueryEscape(page)
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &l); err != nil {
			return nil, err
		}
		for _, acc := range l.Accounts {
			accounts = append(accounts, acc.Name)
		}
		if page = l.NextPageToken; page == "" {
			break
		}
	}
	for _, acc := range accounts {
		for page, i := "", 0; i < 20; i++ {
			var l struct {
				Locations []struct {
					Name              string `json:"name"`
					Title             string `json:"title"`
					StorefrontAddress *struct {
						AddressLines []string `json:"addressLines"`
						Locality     string   `json:"locality"`
						PostalCode   string   `json:"postalCode"`
						RegionCode   string   `json:"regionCode"`
					} `json:"storefrontAddress"`
				} `json:"locations"`
				NextPageToken string `json:"nextPageToken"`
			}
			u := a.info + "/v1/" + acc + "/locations?readMask=name,title,storefrontAddress&pageSize=100"
			if page != "" {
				u += "&pageToken=" + url.QueryEscape(page)
			}
			if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &l); err != nil {
				return nil, err
			}
			for _, loc := range l.Locations {
				var addr string
				if s := loc.StorefrontAddress; s != nil {
					parts := append(append([]string{}, s.AddressLines...), strings.TrimSpace(s.PostalCode+" "+s.Locality), s.RegionCode)
					var keep []string
					for _, p := range parts {
						if p != "" {
							keep = append(keep, p)
						}
					}
					addr = strings.Join(keep, ", ")
				}
				out = append(out, app.Channel{ID: acc + "/" + loc.Name, Name: core.Str(loc.Title), Address: core.Str(addr)})
			}
			if page = l.NextPageToken; page == "" {
				break
			}
		}
	}
	return out, nil
}

// Check reads the user.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}
