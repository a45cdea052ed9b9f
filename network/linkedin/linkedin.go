// Package linkedin is the adapter of LinkedIn: 3-legged OAuth 2 (access tokens of 60 days;
// refresh tokens of 365 days only for approved partner apps — without one, Refresh is ErrNoRefresh
// and the account is reconnected), the member from the OpenID userinfo endpoint, and the Company
// Pages the member administers (the channels; set-channel picks the page Crier posts as).
//
// Every /rest call carries LinkedIn-Version and X-Restli-Protocol-Version: 2.0.0. Errors are
// {"serviceErrorCode", "message", "status"}; 401 with 65600/65601/65602 is a dead token; 429 has no
// reset header (LinkedIn's limits are daily), so its reset is the next midnight UTC.
package linkedin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Version is the LinkedIn-Version header sent to /rest.
const Version = "202601"

// Real endpoints: the consent and token live on www.linkedin.com, the API on api.linkedin.com.
var Real = core.Endpoints{Auth: "https://www.linkedin.com", API: "https://api.linkedin.com"}

// Scopes asked at connect.
var Scopes = []string{"openid", "profile", "email", "w_member_social", "w_organization_social", "r_organization_social", "rw_organization_admin"}

// Adapter talks to LinkedIn.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	// Poll paces the polling of video and document processing (publish.go).
	Poll pubutil.Poller
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	auth := strings.TrimRight(ep.Auth, "/")
	return &Adapter{
		oauth: &core.OAuth2{Network: app.LinkedIn, Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: auth + "/oauth/v2/authorization", TokenURL: auth + "/oauth/v2/accessToken", AuthStyle: oauth2.AuthStyleInParams}}},
		api:  core.NewClient(app.LinkedIn, Classify),
		base: strings.TrimRight(ep.API, "/"),
	}
}

func (a *Adapter) Network() app.Network         { return app.LinkedIn }
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

func (a *Adapter) rest(path string, t *app.Token) core.Request {
	return core.Request{URL: a.base + path, Bearer: t.AccessToken,
		Header: map[string]string{"LinkedIn-Version": Version, "X-Restli-Protocol-Version": "2.0.0"}}
}

// Profile reads the member from /v2/userinfo (OpenID Connect).
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var u struct {
		Sub     string `json:"sub"`
		Name    string `json:"name"`
		Picture string `json:"picture"`
		Email   string `json:"email"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v2/userinfo", Bearer: t.AccessToken}, &u); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: u.Sub, DisplayName: u.Name, AvatarURL: u.Picture, UserID: u.Sub,
		UserDisplayName: u.Name, UserEmail: u.Email}, nil
}

// Channels lists the Company Pages the member administers (organizationAcls, then each organization).
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	var acls struct {
		Elements []struct {
			Organization string `json:"organization"`
			Role         string `json:"role"`
			State        string `json:"state"`
		} `json:"elements"`
	}
	if err := a.api.Do(ctx, a.rest("/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&count=100", t), &acls); err != nil {
		return nil, err
	}
	out := []app.Channel{}
	for _, e := range acls.Elements {
		id := strings.TrimPrefix(e.Organization, "urn:li:organization:")
		if _, err := strconv.ParseInt(id, 10, 64); err != nil {
			continue
		}
		var org struct {
			ID            int64  `json:"id"`
			LocalizedName string `json:"localizedName"`
			VanityName    string `json:"vanityName"`
		}
		if err := a.api.Do(ctx, a.rest("/rest/organizations/"+id, t), &org); err != nil {
			return nil, err
		}
		out = append(out, app.Channel{ID: id, Name: core.Str(org.LocalizedName), Username: core.Str(org.VanityName)})
	}
	return out, nil
}

// Check reads the member.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads LinkedIn's error answers.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		ServiceErrorCode int    `json:"serviceErrorCode"`
		Code             string `json:"code"`
		Message          string `json:"message"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Message, Code: e.Code}
	if e.ServiceErrorCode != 0 {
		ne.Code = fmt.Sprint(e.ServiceErrorCode)
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch {
	case e.ServiceErrorCode == 65600 || e.ServiceErrorCode == 65601 || e.ServiceErrorCode == 65602:
		ne.Class = app.ErrAuthExpired
	case strings.Contains(ne.Message, "Unable to obtain activity"):
		ne.Class = app.ErrTransient
	}
	if status == http.StatusTooManyRequests {
		// LinkedIn's quotas are daily and reset at midnight UTC; a Retry-After, if ever sent, wins.
		ne.Class = app.ErrRateLimited
		if ne.ResetAt = core.RetryAfter(h, time.Now()); ne.ResetAt.IsZero() {
			ne.ResetAt = time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		}
	}
	return ne
}
