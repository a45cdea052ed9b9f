// Package facebook is the adapter of Facebook Pages through the Graph API. Connecting gives a
// short-lived user token, exchanged at once (grant_type=fb_exchange_token) for a ~60-day one; there
// is no refresh token — Refresh exchanges the current long-lived token again while it is valid.
// The pages come from GET /me/accounts with their own page tokens (which do not expire); the page
// chosen with set-channel is where Crier publishes, with its page token.
//
// Errors: {"error":{"message","type","code","error_subcode","fbtrace_id"}}. Throttling is code
// 4/17/32/613/80001 (on 400/403, rarely 429); the reset comes from X-Business-Use-Case-Usage's
// estimated_time_to_regain_access (minutes). 190 (and subcode 463/467/490) means the token is dead.
package facebook

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// Version is the Graph API version called.
const Version = "v21.0"

// Real endpoints: the dialog lives on www.facebook.com, the API on graph.facebook.com.
var Real = core.Endpoints{Auth: "https://www.facebook.com", API: "https://graph.facebook.com"}

// Scopes asked at connect (business and messaging scopes are added on request).
var Scopes = []string{"pages_show_list", "pages_manage_posts", "pages_read_engagement", "pages_manage_engagement", "read_insights"}

// Adapter talks to Facebook (and, through NewGraph, is the Facebook-Login base of Instagram).
type Adapter struct {
	network app.Network
	scopes  []string
	oauth   *core.OAuth2
	api     *core.Client
	graph   string
	cred    core.Credentials
}

// New builds the adapter of Facebook Pages (the Graph base with page publishing, publish.go).
func New(ep core.Endpoints, cred core.Credentials) *Pages {
	return &Pages{Adapter: NewGraph(app.Facebook, Scopes, ep, cred)}
}

// NewGraph builds a Facebook-Login Graph adapter for network n asking scopes.
func NewGraph(n app.Network, scopes []string, ep core.Endpoints, cred core.Credentials) *Adapter {
	graph := strings.TrimRight(ep.API, "/") + "/" + Version
	return &Adapter{
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
func (a *Adapter) Graph() string { return a.graph }

// API is the classified Graph client.
func (a *Adapter) API() *core.Client { return a.api }

func (a *Adapter) Network() app.Network         { return a.network }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsSelect }

// RefreshesWithAccessToken: the long-lived user token is renewed by exchanging it again.
func (a *Adapter) RefreshesWithAccessToken() bool { return true }

// AuthorizeURL asks for the page scopes (plus business/messaging ones when the connect asks).
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
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
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	short, err := a.oauth.Exchange(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.longLived(ctx, short.AccessToken)
}

func (a *Adapter) longLived(ctx context.Context, token string) (*app.Token, error) {
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
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.longLived(ctx, t.AccessToken)
}

type picture struct {
	Data struct {
		URL string `json:"url"`
	} `json:"data"`
}

// Profile reads the user who connected (the page comes with set-channel).
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
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
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
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
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads Graph API errors (shared by Instagram and Threads through Graph).
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error struct {
			Message      string `json:"message"`
			Type         string `json:"type"`
			Code         int    `json:"code"`
			ErrorSubcode int    `json:"error_subcode"`
			IsTransient  bool   `json:"is_transient"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Error.Message}
	if e.Error.Code != 0 {
		ne.Code = strconv.Itoa(e.Error.Code)
		if e.Error.ErrorSubcode != 0 {
			ne.Code += "/" + strconv.Itoa(e.Error.ErrorSubcode)
		}
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch e.Error.Code {
	case 4, 17, 32, 613, 80001, 80002, 80006:
		ne.Class = app.ErrRateLimited
		ne.ResetAt = regainAccess(h)
	case 190, 102:
		ne.Class = app.ErrAuthExpired
	case 1, 2, 1363047, 1609010:
		ne.Class = app.ErrTransient
	case 0:
	default:
		if e.Error.IsTransient {
			ne.Class = app.ErrTransient
		} else if status < 500 && status != http.StatusTooManyRequests {
			ne.Class = app.ErrPermanent
		}
	}
	if status == http.StatusTooManyRequests {
		ne.Class = app.ErrRateLimited
		if ne.ResetAt.IsZero() {
			ne.ResetAt = regainAccess(h)
		}
	}
	return ne
}

// regainAccess reads estimated_time_to_regain_access (minutes) from X-Business-Use-Case-Usage;
// without it, an X-App-Usage at 100% (Platform rate limits, a rolling hour) reopens within the hour.
func regainAccess(h http.Header) time.Time {
	raw := h.Get("X-Business-Use-Case-Usage")
	if raw == "" {
		return appUsage(h)
	}
	var usage map[string][]struct {
		Minutes int `json:"estimated_time_to_regain_access"`
	}
	if json.Unmarshal([]byte(raw), &usage) != nil {
		return time.Time{}
	}
	most := 0
	for _, es := range usage {
		for _, e := range es {
			most = max(most, e.Minutes)
		}
	}
	if most == 0 {
		return time.Time{}
	}
	return time.Now().Add(time.Duration(most) * time.Minute)
}

// appUsage reads X-App-Usage ({"call_count","total_cputime","total_time"} in percent): at 100 the
// app is throttled until the rolling one-hour window lets calls through again.
func appUsage(h http.Header) time.Time {
	var u struct {
		CallCount    int `json:"call_count"`
		TotalCPUTime int `json:"total_cputime"`
		TotalTime    int `json:"total_time"`
	}
	if raw := h.Get("X-App-Usage"); raw == "" || json.Unmarshal([]byte(raw), &u) != nil {
		return time.Time{}
	}
	if max(u.CallCount, u.TotalCPUTime, u.TotalTime) < 100 {
		return time.Time{}
	}
	return time.Now().Add(time.Hour)
}
