// Package pinterest is the adapter of Pinterest API v5: OAuth 2 with HTTP Basic client auth on
// POST /v5/oauth/token (access ~30 days, refresh ~1 year), the user from GET /v5/user_account and
// the boards (GET /v5/boards, bookmark pagination) as channels picked per pin.
// Errors: {"code": n, "message": "…"}; 401 means the token is dead, 429 is throttling.
package pinterest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Real endpoints: consent on www.pinterest.com, API and token on api.pinterest.com.
var Real = core.Endpoints{Auth: "https://www.pinterest.com", API: "https://api.pinterest.com"}

// Scopes asked at connect (comma-separated on the wire).
var Scopes = []string{"boards:read", "boards:write", "pins:read", "pins:write", "user_accounts:read"}

// Adapter talks to Pinterest.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	// Poll paces the polling of a video's processing (publish.go).
	Poll pubutil.Poller
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	base := strings.TrimRight(ep.API, "/")
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Pinterest, ScopeSep: ",", Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/oauth/", TokenURL: base + "/v5/oauth/token", AuthStyle: oauth2.AuthStyleInHeader}}},
		api:  core.NewClient(app.Pinterest, Classify),
		base: base,
	}
}

func (a *Adapter) Network() app.Network         { return app.Pinterest }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsList }
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	return a.oauth.Exchange(ctx, r)
}
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	return a.oauth.Refresh(ctx, t)
}

// Profile reads /v5/user_account.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var u struct {
		ID           string `json:"id"`
		Username     string `json:"username"`
		BusinessName string `json:"business_name"`
		About        string `json:"about"`
		ProfileImage string `json:"profile_image"`
		AccountType  string `json:"account_type"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v5/user_account", Bearer: t.AccessToken}, &u); err != nil {
		return nil, err
	}
	name := u.BusinessName
	if name == "" {
		name = u.Username
	}
	id := u.ID
	if id == "" {
		id = u.Username
	}
	return &app.Profile{ExternalID: id, Username: u.Username, DisplayName: name, Bio: u.About, AvatarURL: u.ProfileImage,
		UserID: id, UserUsername: u.Username, UserDisplayName: name}, nil
}

// Channels lists the boards.
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	out := []app.Channel{}
	bookmark := ""
	for i := 0; i < 20; i++ {
		var page struct {
			Items []struct {
				ID    string `json:"id"`
				Name  string `json:"name"`
				Owner struct {
					Username string `json:"username"`
				} `json:"owner"`
				Media struct {
					ImageCoverURL string `json:"image_cover_url"`
				} `json:"media"`
			} `json:"items"`
			Bookmark *string `json:"bookmark"`
		}
		u := a.base + "/v5/boards?page_size=250"
		if bookmark != "" {
			u += "&bookmark=" + url.QueryEscape(bookmark)
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &page); err != nil {
			return nil, err
		}
		for _, b := range page.Items {
			out = append(out, app.Channel{ID: b.ID, Name: core.Str(b.Name), Username: core.Str(b.Owner.Username), AvatarURL: core.Str(b.Media.ImageCoverURL)})
		}
		if page.Bookmark == nil || *page.Bookmark == "" {
			break
		}
		bookmark = *page.Bookmark
	}
	return out, nil
}

// Check reads the user account.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads Pinterest's {"code","message"} errors.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Message}
	if e.Code != nil {
		ne.Code = fmt.Sprint(*e.Code)
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	if status == http.StatusTooManyRequests {
		ne.ResetAt = rateLimitReset(h, time.Now())
	}
	if strings.Contains(ne.Message, "Unable to reach the URL") {
		ne.Class = app.ErrTransient // Pinterest could not fetch the media this time (postiz retries)
	}
	return ne
}

// rateLimitReset reads Pinterest's X-RateLimit-Reset (seconds until the window reopens; an epoch
// when it is that large), then Retry-After; without either, the per-minute category window.
func rateLimitReset(h http.Header, now time.Time) time.Time {
	if v, err := strconv.ParseFloat(strings.TrimSpace(h.Get("X-RateLimit-Reset")), 64); err == nil && v > 0 {
		if v > 1e9 {
			return time.Unix(int64(v), 0).UTC()
		}
		return now.Add(time.Duration(v * float64(time.Second)))
	}
	if t := core.RetryAfter(h, now); !t.IsZero() {
		return t
	}
	return now.Add(time.Minute)
}
