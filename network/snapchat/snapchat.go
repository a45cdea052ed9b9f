// Package snapchat is the adapter of Snapchat's Public Profile API (allow-listed apps only). The
// shapes here follow networks.md, whose Snapchat section is marked uncertain: verify them against
// developers.snap.com before production. OAuth 2 at accounts.snapchat.com (access tokens of
// ~30–60 min, long-lived refresh tokens), the public profile from
// GET businessapi.snapchat.com/v1/public_profiles/my_profile. Errors:
// {"request_status":"ERROR","request_id","debug_message","display_message","error_code"}.
package snapchat

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// Real endpoints.
var Real = core.Endpoints{Auth: "https://accounts.snapchat.com", API: "https://businessapi.snapchat.com"}

// Scopes asked at connect (scope name uncertain).
var Scopes = []string{"snapchat-profile-api"}

// Adapter talks to Snapchat.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	auth := strings.TrimRight(ep.Auth, "/")
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Snapchat, Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: auth + "/login/oauth2/authorize", TokenURL: auth + "/login/oauth2/access_token", AuthStyle: oauth2.AuthStyleInParams}}},
		api:  core.NewClient(app.Snapchat, Classify),
		base: strings.TrimRight(ep.API, "/"),
	}
}

func (a *Adapter) Network() app.Network  { return app.Snapchat }
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

// Profile reads the public profile.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var out struct {
		PublicProfile struct {
			ID              string `json:"id"`
			DisplayName     string `json:"display_name"`
			Username        string `json:"username"`
			ProfileImageURL string `json:"profile_image_url"`
		} `json:"public_profile"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v1/public_profiles/my_profile", Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	p := out.PublicProfile
	return &app.Profile{ExternalID: p.ID, Username: p.Username, DisplayName: p.DisplayName, AvatarURL: p.ProfileImageURL,
		UserID: p.ID, UserUsername: p.Username, UserDisplayName: p.DisplayName}, nil
}

// Channels: the public profile is the destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the profile.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads Snap's envelope errors.
func Classify(status int, _ http.Header, body []byte) *app.NetworkError {
	var e struct {
		RequestStatus  string `json:"request_status"`
		DebugMessage   string `json:"debug_message"`
		DisplayMessage string `json:"display_message"`
		ErrorCode      string `json:"error_code"`
	}
	_ = json.Unmarshal(body, &e)
	if status >= 200 && status < 300 && e.RequestStatus != "ERROR" {
		return nil
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.ErrorCode, Message: e.DisplayMessage}
	if ne.Message == "" {
		ne.Message = e.DebugMessage
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	if status < 300 {
		ne.Class = app.ErrPermanent
	}
	return ne
}
