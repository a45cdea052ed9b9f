// Package x is the adapter of X (Twitter) API v2: OAuth 2.0 with PKCE (offline.access gives a
// rotating refresh token; access tokens last 2 hours), the user from GET /2/users/me.
//
// Errors: v2 answers problem JSON {title, detail, type, status} or {errors:[{message, code}]};
// rate limits are 429 with x-rate-limit-reset (epoch seconds) — or, for the 24-hour caps of
// POST /2/tweets, x-user-limit-24hour-reset / x-app-limit-24hour-reset when those are exhausted.
package x

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Real endpoints.
var Real = core.Endpoints{Auth: "https://x.com", API: "https://api.x.com"}

// Scopes asked at connect.
var Scopes = []string{"tweet.read", "tweet.write", "users.read", "offline.access", "media.write"}

// Adapter talks to X.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	// ChunkSize is the media upload's append segment size (DefaultChunkSize when 0).
	ChunkSize int
	// Poll paces the polling of media processing (publish.go); X's check_after_secs, when longer,
	// sets the pause.
	Poll pubutil.Poller
}

// New builds the adapter against ep with the app's credentials.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Twitter, PKCE: true, Config: oauth2.Config{
			ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: ep.Auth + "/i/oauth2/authorize", TokenURL: ep.API + "/2/oauth2/token", AuthStyle: oauth2.AuthStyleInHeader},
		}},
		api:  core.NewClient(app.Twitter, Classify),
		base: strings.TrimRight(ep.API, "/"),
	}
}

func (a *Adapter) Network() app.Network  { return app.Twitter }
func (a *Adapter) Kind() app.ConnectKind { return app.ConnectOAuth }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	return a.oauth.Exchange(ctx, r)
}
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.oauth.Refresh(ctx, t)
}

// User is the part of GET /2/users/me Crier reads.
type User struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Username         string `json:"username"`
	Description      string `json:"description"`
	ProfileImageURL  string `json:"profile_image_url"`
	SubscriptionType string `json:"subscription_type"` // None | Basic | Premium | PremiumPlus
}

// Profile reads the connected user.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var out struct {
		Data User `json:"data"`
	}
	err := a.api.Do(ctx, core.Request{URL: a.base + "/2/users/me?user.fields=description,profile_image_url,subscription_type", Bearer: t.AccessToken}, &out)
	if err != nil {
		return nil, err
	}
	u := out.Data
	return &app.Profile{ExternalID: u.ID, Username: u.Username, DisplayName: u.Name, Bio: u.Description,
		AvatarURL: u.ProfileImageURL, UserID: u.ID, UserUsername: u.Username, UserDisplayName: u.Name,
		TwitterSubType: subType(u.SubscriptionType)}, nil
}

func subType(s string) string {
	switch strings.ToLower(s) {
	case "basic":
		return "basic"
	case "premium":
		return "premium"
	case "premiumplus", "premium_plus":
		return "premium_plus"
	default:
		return "none"
	}
}

// Channels: an X account is its own destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the user again.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads X's error answers.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Title  string `json:"title"`
		Detail string `json:"detail"`
		Type   string `json:"type"`
		Errors []struct {
			Message string `json:"message"`
			Code    int    `json:"code"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Detail, Code: e.Title}
	if ne.Message == "" && len(e.Errors) > 0 {
		ne.Message = e.Errors[0].Message
		ne.Code = itoa(e.Errors[0].Code)
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch {
	case status == http.StatusTooManyRequests || (len(e.Errors) > 0 && e.Errors[0].Code == 88):
		ne.Class = app.ErrRateLimited
		ne.ResetAt = core.EpochHeader(h, "x-rate-limit-reset")
		if h.Get("x-user-limit-24hour-remaining") == "0" {
			ne.ResetAt = core.EpochHeader(h, "x-user-limit-24hour-reset")
		} else if h.Get("x-app-limit-24hour-remaining") == "0" {
			ne.ResetAt = core.EpochHeader(h, "x-app-limit-24hour-reset")
		}
	case status == http.StatusUnauthorized || strings.Contains(ne.Message, "Unsupported Authentication"):
		ne.Class = app.ErrAuthExpired
	case strings.HasSuffix(e.Type, "/usage-capped"):
		ne.Class = app.ErrRateLimited // the app's monthly cap: defer
	}
	return ne
}

func itoa(i int) string {
	if i == 0 {
		return ""
	}
	b, _ := json.Marshal(i)
	return string(b)
}
