// Package bluesky is the adapter of Bluesky (AT Protocol) with app passwords: the user gives a
// handle (or email) and an app password on Crier's page; com.atproto.server.createSession answers
// an access JWT (short-lived) and a refresh JWT (~2 months) which Crier keeps and renews with
// com.atproto.server.refreshSession — createSession is limited (30 per 5 minutes, 300 a day), so
// sessions are reused, never recreated per call. The profile from app.bsky.actor.getProfile.
// Errors: {"error":"<Name>","message"}; ExpiredToken/InvalidToken are auth failures; 429 carries
// RateLimit-Reset (epoch seconds). The PDS may be user-given, so calls go through netguard.
package bluesky

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/netguard"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// DefaultPDS is the default entryway.
const DefaultPDS = "https://bsky.social"

// Adapter talks to a Bluesky PDS.
type Adapter struct {
	api          *core.Client
	pds          string
	allowPrivate bool
	// Poll paces the polling of video jobs (publish.go).
	Poll pubutil.Poller
}

// New builds the adapter; pds is the default server ("" for bsky.social).
func New(pds string, allowPrivate bool) *Adapter {
	if pds == "" {
		pds = DefaultPDS
	}
	api := core.NewClient(app.Bluesky, Classify)
	api.HTTP = netguard.Client(netguard.Options{AllowPrivate: allowPrivate})
	return &Adapter{api: api, pds: strings.TrimRight(pds, "/"), allowPrivate: allowPrivate}
}

func (a *Adapter) Network() app.Network  { return app.Bluesky }
func (a *Adapter) Kind() app.ConnectKind { return app.ConnectPassword }
func (a *Adapter) DefaultServer() string { return a.pds }
func (a *Adapter) AuthorizeURL(context.Context, app.AuthorizeRequest) (string, error) {
	return "", errors.New("bluesky connects with an app password")
}
func (a *Adapter) Exchange(context.Context, app.ExchangeRequest) (*app.Token, error) {
	return nil, errors.New("bluesky connects with an app password")
}

type session struct {
	AccessJwt  string `json:"accessJwt"`
	RefreshJwt string `json:"refreshJwt"`
	Did        string `json:"did"`
	Handle     string `json:"handle"`
	Email      string `json:"email"`
}

func (a *Adapter) token(server string, s session) *app.Token {
	return &app.Token{AccessToken: s.AccessJwt, RefreshToken: s.RefreshJwt, Expiry: jwtExpiry(s.AccessJwt),
		Secrets: map[string]string{"did": s.Did, "handle": s.Handle, "pds": server, "email": s.Email}}
}

// CreateSession logs in with an app password.
func (a *Adapter) CreateSession(ctx context.Context, server, identifier, password string) (*app.Token, error) {
	if server == "" {
		server = a.pds
	}
	u, err := netguard.CheckURL(server, a.allowPrivate)
	if err != nil {
		return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "InvalidServer", Message: "not a reachable server URL"}
	}
	server = u.Scheme + "://" + u.Host + strings.TrimRight(u.Path, "/")
	var s session
	err = a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: server + "/xrpc/com.atproto.server.createSession",
		JSON: map[string]string{"identifier": strings.TrimPrefix(identifier, "@"), "password": password}}, &s)
	if err != nil {
		return nil, err
	}
	return a.token(server, s), nil
}

// Refresh renews the session with the refresh JWT (a new pair comes back).
func (a *Adapter) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	if t.RefreshToken == "" {
		return nil, app.ErrNoRefresh
	}
	server := t.Secrets["pds"]
	var s session
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: server + "/xrpc/com.atproto.server.refreshSession", Bearer: t.RefreshToken}, &s); err != nil {
		return nil, err
	}
	nt := a.token(server, s)
	if nt.Secrets["email"] == "" {
		nt.Secrets["email"] = t.Secrets["email"]
	}
	return nt, nil
}

// Profile reads app.bsky.actor.getProfile for the session's DID.
func (a *Adapter) Profile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	var p struct {
		Did         string `json:"did"`
		Handle      string `json:"handle"`
		DisplayName string `json:"displayName"`
		Description string `json:"description"`
		Avatar      string `json:"avatar"`
	}
	u := t.Secrets["pds"] + "/xrpc/app.bsky.actor.getProfile?actor=" + url.QueryEscape(t.Secrets["did"])
	if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &p); err != nil {
		return nil, err
	}
	return &app.Profile{ExternalID: p.Did, Username: p.Handle, DisplayName: p.DisplayName, Bio: p.Description, AvatarURL: p.Avatar,
		UserID: p.Did, UserUsername: p.Handle, UserDisplayName: p.DisplayName, UserEmail: t.Secrets["email"]}, nil
}

// Channels: the account is the destination.
func (a *Adapter) Channels(context.Context, *app.Token) ([]app.Channel, error) { return nil, nil }

// Check reads the session (com.atproto.server.getSession).
func (a *Adapter) Check(ctx context.Context, t *app.Token) error {
	return a.api.Do(ctx, core.Request{URL: t.Secrets["pds"] + "/xrpc/com.atproto.server.getSession", Bearer: t.AccessToken}, nil)
}

// jwtExpiry reads exp from a JWT's payload (not verified: it is our own session's token, only used
// to schedule its renewal).
func jwtExpiry(jwt string) time.Time {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return time.Time{}
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return time.Time{}
	}
	var c struct {
		Exp int64 `json:"exp"`
	}
	if json.Unmarshal(b, &c) != nil || c.Exp == 0 {
		return time.Time{}
	}
	return time.Unix(c.Exp, 0).UTC()
}

// Classify reads XRPC errors.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.Error, Message: e.Message}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch e.Error {
	case "ExpiredToken", "InvalidToken", "AuthenticationRequired", "AccountTakedown":
		ne.Class = app.ErrAuthExpired
	case "RateLimitExceeded":
		ne.Class = app.ErrRateLimited
	}
	if ne.Class == app.ErrRateLimited {
		ne.ResetAt = core.EpochHeader(h, "RateLimit-Reset")
	}
	return ne
}
