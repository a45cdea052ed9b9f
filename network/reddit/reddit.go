// Package reddit is the adapter of Reddit: OAuth 2 with duration=permanent (HTTP Basic client
// auth on www.reddit.com/api/v1/access_token; hour-long access tokens; the refresh token does not
// expire), the API on oauth.reddit.com with a descriptive User-Agent (mandatory), the user from
// /api/v1/me and the subscribed subreddits as channels (picked per post).
//
// Rate limits: X-Ratelimit-Used/Remaining/Reset (seconds until the window resets); a 200 can still
// carry json.errors [[CODE, message, field]] (RATELIMIT is a per-user cooldown).
package reddit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// UserAgent identifies Crier to Reddit, as its API rules require.
const UserAgent = "web:crier:1.0 (by /u/crier_app)"

// Real endpoints.
var Real = core.Endpoints{Auth: "https://www.reddit.com", API: "https://oauth.reddit.com"}

// Scopes asked at connect.
var Scopes = []string{"identity", "submit", "read", "edit", "history", "flair", "mysubreddits"}

// Adapter talks to Reddit.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	// Poll paces the reading back of a media post Reddit is still processing (publish.go).
	Poll pubutil.Poller
}

type uaTransport struct{ base http.RoundTripper }

func (t uaTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", UserAgent)
	return t.base.RoundTrip(r)
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: uaTransport{core.Transport}}
	auth := strings.TrimRight(ep.Auth, "/")
	api := core.NewClient(app.Reddit, Classify)
	api.HTTP = hc
	return &Adapter{
		oauth: &core.OAuth2{Network: app.Reddit, HTTP: hc, Extra: map[string][]string{"duration": {"permanent"}}, Config: oauth2.Config{
			ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: auth + "/api/v1/authorize", TokenURL: auth + "/api/v1/access_token", AuthStyle: oauth2.AuthStyleInHeader}}},
		api:  api,
		base: strings.TrimRight(ep.API, "/"),
	}
}

func (a *Adapter) Network() app.Network         { return app.Reddit }
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

// Profile reads /api/v1/me.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var me struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		IconImg   string `json:"icon_img"`
		Subreddit struct {
			PublicDescription string `json:"public_description"`
			Title             string `json:"title"`
		} `json:"subreddit"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/api/v1/me", Bearer: t.AccessToken}, &me); err != nil {
		return nil, err
	}
	display := me.Subreddit.Title
	if display == "" {
		display = me.Name
	}
	return &app.Profile{ExternalID: "t2_" + me.ID, Username: me.Name, DisplayName: display, Bio: me.Subreddit.PublicDescription,
		AvatarURL: strings.ReplaceAll(me.IconImg, "&amp;", "&"), UserID: "t2_" + me.ID, UserUsername: me.Name, UserDisplayName: display}, nil
}

// Channels lists the subscribed subreddits (Listing pagination by after).
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	out := []app.Channel{}
	after := ""
	for i := 0; i < 10; i++ {
		var l struct {
			Data struct {
				After    string `json:"after"`
				Children []struct {
					Data struct {
						Name             string `json:"name"`
						DisplayName      string `json:"display_name"`
						Title            string `json:"title"`
						IconImg          string `json:"icon_img"`
						CommunityIcon    string `json:"community_icon"`
						AllowImages      *bool  `json:"allow_images"`
						AllowVideos      *bool  `json:"allow_videos"`
						AllowGalleries   *bool  `json:"allow_galleries"`
						LinkFlairEnabled *bool  `json:"link_flair_enabled"`
					} `json:"data"`
				} `json:"children"`
			} `json:"data"`
		}
		u := a.base + "/subreddits/mine/subscriber?limit=100&raw_json=1"
		if after != "" {
			u += "&after=" + after
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &l); err != nil {
			return nil, err
		}
		for _, c := range l.Data.Children {
			d := c.Data
			icon := d.CommunityIcon
			if icon == "" {
				icon = d.IconImg
			}
			out = append(out, app.Channel{ID: d.DisplayName, Name: core.Str(d.Title), Username: core.Str("r/" + d.DisplayName), AvatarURL: core.Str(icon),
				Metadata: &app.ChannelMetadata{AllowImages: d.AllowImages, AllowVideos: d.AllowVideos, AllowGalleries: d.AllowGalleries, LinkFlairEnabled: d.LinkFlairEnabled}})
		}
		if after = l.Data.After; after == "" {
			break
		}
	}
	return out, nil
}

// Check reads the user.
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Profile(ctx, t)
	return err
}

// Classify reads Reddit's answers: {"message","error"} bodies, json.errors on 200, rate headers.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	var e struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
		JSON    struct {
			Errors [][]any `json:"errors"`
		} `json:"json"`
	}
	_ = json.Unmarshal(body, &e)
	if status >= 200 && status < 300 {
		if len(e.JSON.Errors) == 0 || len(e.JSON.Errors[0]) < 2 {
			return nil
		}
		code, _ := e.JSON.Errors[0][0].(string)
		msg, _ := e.JSON.Errors[0][1].(string)
		ne := &app.NetworkError{Class: app.ErrPermanent, Code: code, Message: msg}
		if code == "RATELIMIT" {
			ne.Class = app.ErrRateLimited
			ne.ResetAt = cooldown(msg, time.Now())
		}
		return ne
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Message}
	if s, ok := e.Error.(string); ok {
		ne.Code = s
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	if status == http.StatusTooManyRequests {
		ne.ResetAt = core.SecondsHeader(h, "X-Ratelimit-Reset", time.Now())
	}
	return ne
}

// cooldown reads "try again in N minutes/seconds" of a RATELIMIT error.
func cooldown(msg string, now time.Time) time.Time {
	f := strings.Fields(msg)
	for i := 0; i+1 < len(f); i++ {
		var n int
		if _, err := fmtSscan(f[i], &n); err == nil && n > 0 {
			unit := time.Minute
			if strings.HasPrefix(f[i+1], "second") {
				unit = time.Second
			}
			return now.Add(time.Duration(n) * unit)
		}
	}
	return now.Add(10 * time.Minute)
}

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }
