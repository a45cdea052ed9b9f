// Package tiktok is the adapter of TikTok (Login Kit v2 and the Content Posting API): consent at
// www.tiktok.com/v2/auth/authorize/ with client_key and comma-separated scopes; the token endpoint
// (open.tiktokapis.com/v2/oauth/token/, form with client_key) issues access tokens with rotating
// refresh tokens — the newest refresh_token is always kept; the user from /v2/user/info/ (with
// is_business_account when TikTok answers it: isTiktokBusinessAccount).
// Errors: {"data":{},"error":{"code","message","log_id"}} where code "ok" means success.
package tiktok

import (
	"context"
	"encoding/json"
	"errors"
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
var Real = core.Endpoints{Auth: "https://www.tiktok.com", API: "https://open.tiktokapis.com"}

// Scopes asked at connect.
var Scopes = []string{"user.info.basic", "user.info.profile", "video.publish", "video.upload", "video.list"}

// Adapter talks to TikTok.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	tok   *core.Client
	base  string
	cred  core.Credentials
	// Publishing (publish.go): Poll paces status fetches; PullFromURL sends videos as
	// PULL_FROM_URL (the media host must be a verified domain) instead of FILE_UPLOAD chunks.
	Poll        pubutil.Poller
	PullFromURL bool
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	return &Adapter{
		oauth: &core.OAuth2{Network: app.TikTok, ScopeSep: ",", ClientIDName: "client_key", Config: oauth2.Config{ClientID: cred.ClientID, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/v2/auth/authorize/"}}},
		api:  core.NewClient(app.TikTok, Classify),
		tok:  core.NewClient(app.TikTok, classifyToken),
		base: strings.TrimRight(ep.API, "/"),
		cred: cred,
	}
}

func (a *Adapter) Network() app.Network  { return app.TikTok }
func (a *Adapter) Kind() app.ConnectKind { return app.ConnectOAuth }

// AuthorizeURL builds the consent URL (disableAutoLogin / tiktokForceLogin: TikTok has no documented
// switch for them; they are ignored).
func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	return a.oauth.AuthorizeURL(r, nil), nil
}

type tokenAnswer struct {
	AccessToken      string `json:"access_token"`
	ExpiresIn        int64  `json:"expires_in"`
	OpenID           string `json:"open_id"`
	RefreshToken     string `json:"refresh_token"`
	RefreshExpiresIn int64  `json:"refresh_expires_in"`
	Scope            string `json:"scope"`
}

func (a *Adapter) token(ctx context.Context, form url.Values) (*app.Token, error) {
	form.Set("client_key", a.cred.ClientID)
	form.Set("client_secret", a.cred.ClientSecret)
	var t tokenAnswer
	if err := a.tok.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/v2/oauth/token/", Form: form}, &t); err != nil {
		return nil, err
	}
	out := &app.Token{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, Scope: t.Scope, Secrets: map[string]string{"openId": t.OpenID}}
	if t.ExpiresIn > 0 {
		out.Expiry = time.Now().Add(time.Duration(t.ExpiresIn) * time.Second)
	}
	return out, nil
}

// Exchange trades the code.
func (a *Adapter) Exchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	return a.token(ctx, url.Values{"code": {r.Code}, "grant_type": {"authorization_code"}, "redirect_uri": {r.RedirectURI}})
}

// Refresh renews the token; TikTok rotates the refresh token.
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	if t.RefreshToken == "" {
		return nil, app.ErrNoRefresh
	}
	return a.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}})
}

// profileFields are the documented user fields Crier reads (user.info.basic and user.info.profile).
const profileFields = "open_id,avatar_url,display_name,username,bio_description"

// BusinessField is the user field telling a business account from a personal one; it is asked
// beside the documented fields, and a user info that refuses it (invalid_params, or a scope the
// token lacks) is read again without it: the account's kind is then unknown (nil).
const BusinessField = "is_business_account"

// Profile reads /v2/user/info/, with the business-account flag when TikTok answers it.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var out struct {
		Data struct {
			User struct {
				OpenID            string `json:"open_id"`
				AvatarURL         string `json:"avatar_url"`
				DisplayName       string `json:"display_name"`
				Username          string `json:"username"`
				BioDescription    string `json:"bio_description"`
				IsVerified        bool   `json:"is_verified"`
				IsBusinessAccount *bool  `json:"is_business_account"`
			} `json:"user"`
		} `json:"data"`
	}
	err := a.api.Do(ctx, core.Request{URL: a.base + "/v2/user/info/?fields=" + profileFields + "," + BusinessField, Bearer: t.AccessToken}, &out)
	var ne *app.NetworkError
	if err != nil && errors.As(err, &ne) && ne.Class == app.ErrPermanent &&
		(ne.Code == "invalid_params" || ne.Code == "scope_not_authorized" || ne.Code == "scope_permission_missed") {
		err = a.api.Do(ctx, core.Request{URL: a.base + "/v2/user/info/?fields=" + profileFields, Bearer: t.AccessToken}, &out)
	}
	if err != nil {
		return nil, err
	}
	u := out.Data.User
	return &app.Profile{ExternalID: u.OpenID, Username: u.Username, DisplayName: u.DisplayName, Bio: u.BioDescription, AvatarURL: u.AvatarURL,
		UserID: u.OpenID, UserUsername: u.Username, UserDisplayName: u.DisplayName, TikTokBusiness: u.IsBusinessAccount}, nil
}

// Channels: a TikTok account is its own destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the user.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads TikTok's {"error":{"code","message","log_id"}} (code "ok" on success).
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	if status >= 200 && status < 300 && (e.Error.Code == "" || e.Error.Code == "ok") {
		return nil
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.Error.Code, Message: e.Error.Message}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch {
	case ne.Code == "access_token_invalid":
		ne.Class = app.ErrAuthExpired
	case ne.Code == "rate_limit_exceeded" || status == http.StatusTooManyRequests:
		// TikTok's limits are per minute (6 inits, 30 status fetches per token); it sends no reset.
		ne.Class = app.ErrRateLimited
		if ne.ResetAt = core.RetryAfter(h, time.Now()); ne.ResetAt.IsZero() {
			ne.ResetAt = time.Now().Add(time.Minute)
		}
	case ne.Code == "spam_risk_too_many_posts" || ne.Code == "spam_risk_too_many_pending_share":
		// Daily caps over a rolling 24 hours (networks.md: QuotaDeferred).
		ne.Class = app.ErrRateLimited
		ne.ResetAt = time.Now().Add(24 * time.Hour)
	case ne.Code == "internal":
		ne.Class = app.ErrTransient
	case status < 300:
		ne.Class = app.ErrPermanent
	}
	return ne
}

// classifyToken reads the token endpoint's OAuth errors {"error","error_description","log_id"}.
func classifyToken(status int, h http.Header, body []byte) *app.NetworkError {
	var e struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == "" {
		if status >= 200 && status < 300 {
			return nil
		}
		return &app.NetworkError{Class: core.ByStatus(status), Message: core.Snippet(body)}
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.Error, Message: e.ErrorDescription}
	if e.Error == "invalid_grant" {
		ne.Class = app.ErrAuthExpired
	} else if status < 300 {
		ne.Class = app.ErrPermanent
	}
	return ne
}
