// Package youtube is the adapter of YouTube (Data API v3) over Google's OAuth (network/google):
// the Google user from /oauth2/v3/userinfo, the YouTube channels of the account from
// GET /youtube/v3/channels?part=snippet&mine=true (the channels; set-channel picks the one Crier
// uploads to). quotaExceeded is rate-limited until Pacific midnight.
package youtube

import (
	"context"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/google"
)

// Real endpoints.
var Real = google.Real

// Scopes asked at connect (withBusinessScope adds the monetary analytics scope).
var Scopes = []string{"openid", "email", "profile", "https://www.googleapis.com/auth/youtube.upload",
	"https://www.googleapis.com/auth/youtube", "https://www.googleapis.com/auth/youtube.force-ssl",
	"https://www.googleapis.com/auth/yt-analytics.readonly"}

// Adapter talks to YouTube.
type Adapter struct {
	oauth *core.OAuth2
	api   *core.Client
	base  string
	// ChunkSize is the resumable upload's chunk (a multiple of 256 KiB; publish.go).
	ChunkSize int64
}

// New builds the adapter.
func New(ep core.Endpoints, cred core.Credentials) *Adapter {
	return &Adapter{oauth: google.OAuth(app.YouTube, Scopes, ep, cred), api: core.NewClient(app.YouTube, google.Classify), base: strings.TrimRight(ep.API, "/")}
}

func (a *Adapter) Network() app.Network         { return app.YouTube }
func (a *Adapter) Kind() app.ConnectKind        { return app.ConnectOAuth }
func (a *Adapter) ChannelMode() app.ChannelMode { return app.ChannelsSelect }

func (a *Adapter) AuthorizeURL(_ context.Context, r app.AuthorizeRequest) (string, error) {
	if r.Options.WithBusinessScope {
		o := *a.oauth
		o.Config.Scopes = append(append([]string{}, Scopes...), "https://www.googleapis.com/auth/yt-analytics-monetary.readonly")
		return o.AuthorizeURL(r, nil), nil
	}
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
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/oauth2/v3/userinfo", Bearer: t.AccessToken}, &u); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: u.Sub, DisplayName: u.Name, AvatarURL: u.Picture, UserID: u.Sub, UserDisplayName: u.Name, UserEmail: u.Email}, nil
}

// Channels lists the account's YouTube channels.
func (a *Adapter) Channels(ctx context.Context, t *app.Token) ([]app.Channel, error) {
	out := []app.Channel{}
	token := ""
	for i := 0; i < 20; i++ {
		var page struct {
			NextPageToken string `json:"nextPageToken"`
			Items         []struct {
				ID      string `json:"id"`
				Snippet struct {
					Title      string `json:"title"`
					CustomURL  string `json:"customUrl"`
					Thumbnails map[string]struct {
						URL string `json:"url"`
					} `json:"thumbnails"`
				} `json:"snippet"`
			} `json:"items"`
		}
		u := a.base + "/youtube/v3/channels?part=snippet&mine=true&maxResults=50"
		if token != "" {
			u += "&pageToken=" + token
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &page); err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out = append(out, app.Channel{ID: it.ID, Name: core.Str(it.Snippet.Title), Username: core.Str(strings.TrimPrefix(it.Snippet.CustomURL, "@")),
				AvatarURL: core.Str(it.Snippet.Thumbnails["default"].URL)})
		}
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	return out, nil
}

// Check lists the channels (a cheap quota-1 call).
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	_, err := a.Channels(ctx, t)
	return err
}
