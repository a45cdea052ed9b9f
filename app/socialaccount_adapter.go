package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Adapter is what the Service needs from one social network. Each network/<name> package
// implements it against the network's real API (base URLs configurable, so SANDBOX=1 points them at
// network/sandbox). This issue needs connecting, refreshing, the profile, channels and a connection
// check; publishing, comments, DMs and analytics add their own interfaces beside it (an adapter
// opts in by implementing them, checked with a type assertion), so adding them changes no adapter
// that does not support them.
type Adapter interface {
	Network() Network
	// Kind says how the account connects: OAuth redirect (most), a form of ours (Bluesky).
	Kind() ConnectKind
	// AuthorizeURL is the network's consent page for an OAuth connect.
	AuthorizeURL(ctx context.Context, req AuthorizeRequest) (string, error)
	// Exchange turns the callback's code into a token.
	Exchange(ctx context.Context, req ExchangeRequest) (*Token, error)
	// Refresh renews an expiring token (ErrNoRefresh when the network has no refresh).
	Refresh(ctx context.Context, t *Token) (*Token, error)
	// Profile reads the connected user's profile.
	Profile(ctx context.Context, t *Token) (*Profile, error)
	// Channels lists the places the account can publish to (pages, boards, subreddits, channels,
	// locations); nil for networks without channels.
	Channels(ctx context.Context, t *Token) ([]Channel, error)
	// Check verifies the credentials still work (a cheap authenticated call).
	Check(ctx context.Context, t *Token) error
}

// ConnectKind is how an account is connected.
type ConnectKind int

const (
	ConnectOAuth    ConnectKind = iota // redirect to the network's consent page, then our callback
	ConnectPassword                    // identifier + app password on a page of ours (Bluesky)
)

// ChannelMode says what channels mean on a network.
type ChannelMode int

const (
	ChannelsNone   ChannelMode = iota // the account is the destination
	ChannelsSelect                    // one channel must be chosen (set-channel): FB pages, IG, LinkedIn, YouTube, GBP
	ChannelsList                      // channels are listed and picked per post: Discord, Slack, Reddit, Pinterest
)

// AccessRefresher is implemented by adapters whose Refresh renews the access token itself (no
// refresh token: Meta's long-lived tokens are exchanged again while still valid).
type AccessRefresher interface{ RefreshesWithAccessToken() bool }

func canRefresh(a Adapter, t *Token) bool {
	if t.RefreshToken != "" {
		return true
	}
	r, ok := a.(AccessRefresher)
	return ok && r.RefreshesWithAccessToken() && t.AccessToken != ""
}

// ChannelModer is implemented by adapters whose accounts have channels.
type ChannelModer interface{ ChannelMode() ChannelMode }

// AuthorizeRequest is what an authorize URL carries.
type AuthorizeRequest struct {
	RedirectURI string
	State       string
	Verifier    string // PKCE verifier; the adapter sends its S256 challenge when the network wants PKCE
	ServerURL   string // Mastodon instance / Bluesky PDS
	Options     ConnectOptions
	// ClientID and ClientSecret are per-instance app credentials (Mastodon), from InstanceApps.
	ClientID, ClientSecret string
}

// ExchangeRequest is the callback's code with what the authorize step used.
type ExchangeRequest struct {
	Code        string
	RedirectURI string
	Verifier    string
	ServerURL   string
	Query       map[string]string // the whole callback query (Slack's team, Discord's guild_id …)
	// ClientID and ClientSecret are per-instance app credentials (Mastodon), from InstanceApps.
	ClientID, ClientSecret string
	// Options are the connect's switches, from the state (Instagram's connection method picks the
	// token endpoint).
	Options ConnectOptions
}

// PasswordConnector is implemented by ConnectPassword adapters (Bluesky): the user gives an
// identifier and an app password on Crier's own page (PasswordPagePath), and the adapter opens a
// session with them. The password is never stored; the session's tokens are.
type PasswordConnector interface {
	CreateSession(ctx context.Context, serverURL, identifier, password string) (*Token, error)
	// DefaultServer is used when the connect gives no serverUrl.
	DefaultServer() string
}

// InstanceApps is implemented by networks where Crier registers an app on each server (Mastodon):
// the Service registers once per server and redirect URI, keeps the credentials (secret
// encrypted) in mastodon_servers, and passes them in AuthorizeRequest/ExchangeRequest.
type InstanceApps interface {
	// NormalizeServer checks a server URL and answers its canonical form (https://host).
	NormalizeServer(raw string) (string, error)
	RegisterApp(ctx context.Context, serverURL, redirectURI string) (clientID, clientSecret string, err error)
}

// AppChecker is implemented by InstanceApps networks that can tell whether a server still knows
// Crier's app: a server that forgot it (reset, app deleted) is registered on again at the next
// connect instead of refusing every connect.
type AppChecker interface {
	// AppKnown answers false only when the server refuses the credentials as unknown.
	AppKnown(ctx context.Context, serverURL, clientID, clientSecret string) (bool, error)
}

// ConnectOptions are the connect body's network-specific switches.
type ConnectOptions struct {
	DisableAutoLogin          bool   `json:"dal,omitempty"`
	TikTokForceLogin          bool   `json:"tfl,omitempty"`
	ForceBrowserOAuth         bool   `json:"fbo,omitempty"`
	InstagramConnectionMethod string `json:"icm,omitempty"`
	WithBusinessScope         bool   `json:"wbs,omitempty"`
	WithMessagingScope        bool   `json:"wms,omitempty"`
}

// Token is a network credential. Secrets holds what else the adapter must keep (Facebook page
// tokens, a Bluesky session's DID); all of it is encrypted at rest.
type Token struct {
	AccessToken  string
	RefreshToken string
	Expiry       time.Time // zero: does not expire
	Scope        string
	Secrets      map[string]string
}

// Profile is the connected identity as the network reports it.
type Profile struct {
	ExternalID      string
	Username        string
	DisplayName     string
	Bio             string
	AvatarURL       string
	UserID          string // the person behind a page/bot, when it differs
	UserUsername    string
	UserDisplayName string
	UserEmail       string
	TwitterSubType  string // none | basic | premium | premium_plus
	TikTokBusiness  *bool
}

// Channel is a publishing destination inside an account (the spec's 7-field Channel).
type Channel struct {
	ID        string           `json:"id"`
	Name      *string          `json:"name"`
	Username  *string          `json:"username"`
	Address   *string          `json:"address"`
	AvatarURL *string          `json:"avatarUrl"`
	Webhook   *ChannelWebhook  `json:"webhook"`
	Metadata  *ChannelMetadata `json:"metadata"`
	// Token is a channel's own credential (a Facebook page token); never serialised.
	Token string `json:"-"`
}

// ChannelWebhook is a channel's webhook (Discord/Slack).
type ChannelWebhook struct {
	ID     *string `json:"id"`
	Name   *string `json:"name"`
	Avatar *string `json:"avatar"`
	URL    *string `json:"url"`
}

// ChannelMetadata carries per-channel facts.
type ChannelMetadata struct {
	AllowImages      *bool   `json:"allowImages"`
	AllowVideos      *bool   `json:"allowVideos"`
	AllowGalleries   *bool   `json:"allowGalleries"`
	LinkFlairEnabled *bool   `json:"linkFlairEnabled"`
	FacebookPageID   *string `json:"facebookPageId"`
}

// ErrNoRefresh: the network issues no refresh token (Mastodon, Facebook page tokens, Discord bots).
var ErrNoRefresh = errors.New("network has no token refresh")

// ErrorClass is how Crier reacts to a network's error, decided once for all adapters.
type ErrorClass string

const (
	// ErrTransient: 5xx, timeouts, "try again": retry with backoff.
	ErrTransient ErrorClass = "TRANSIENT"
	// ErrRateLimited: the network throttles; retry after ResetAt (from its own signal).
	ErrRateLimited ErrorClass = "RATE_LIMITED"
	// ErrAuthExpired: the credentials were refused: refresh once, then mark the account for reconnection.
	ErrAuthExpired ErrorClass = "AUTH_EXPIRED"
	// ErrPermanent: validation, policy, missing permission: no retry; show the message.
	ErrPermanent ErrorClass = "PERMANENT"
	// ErrProcessing is no failure: the network is still processing an async step (a media
	// container, an upload) whose state the adapter checkpointed. The publishing pipeline frees the
	// worker and runs the target again at ResetAt, resuming from the checkpoints.
	ErrProcessing ErrorClass = "PROCESSING"
)

// NetworkError is an error answered by a network (or the failure to reach it). Code and Message
// are the network's own, verbatim; Status is the HTTP status (0 when unreachable).
type NetworkError struct {
	Network Network
	Class   ErrorClass
	Status  int
	Code    string
	Message string
	ResetAt time.Time // ErrRateLimited: when the window reopens (zero when the network did not say); ErrProcessing: when to look again
	Err     error     // the transport error, if any
}

func (e *NetworkError) Error() string {
	s := fmt.Sprintf("%s %s", e.Network, e.Class)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *NetworkError) Unwrap() error { return e.Err }

// ClassOf returns the class of a network error (ErrTransient for anything unclassified).
func ClassOf(err error) ErrorClass {
	var ne *NetworkError
	if errors.As(err, &ne) {
		return ne.Class
	}
	return ErrTransient
}

// asAppError turns an adapter failure into the one error type: 429 for rate limits, 502 otherwise,
// with the network's own message.
func asAppError(err error) error {
	var ne *NetworkError
	if !errors.As(err, &ne) {
		var ae *Error
		if errors.As(err, &ae) {
			return err
		}
		return &Error{Code: ENetwork, Message: "The network could not be reached", Err: err}
	}
	msg := ne.Network.DisplayName() + ": " + ne.Message
	if ne.Message == "" {
		msg = ne.Network.DisplayName() + " answered " + string(ne.Class)
	}
	if ne.Class == ErrRateLimited {
		return &Error{Code: ERateLimited, Message: msg, Err: err}
	}
	return &Error{Code: ENetwork, Message: msg, Err: err}
}

// Adapters maps each network to its adapter; a network without one cannot be connected here.
type Adapters map[Network]Adapter

// networkDeps are the network adapters and the keys, derived from the secret, that encrypt their
// tokens and seal the OAuth state.
type networkDeps struct {
	adapters Adapters
	tokens   *sealer
	state    *sealer
}

func newNetworkDeps(adapters Adapters, secret []byte) (*networkDeps, error) {
	tokens, err := newSealer(string(secret), purposeNetworkTokens)
	if err != nil {
		return nil, err
	}
	state, err := newSealer(string(secret), purposeOAuthState)
	if err != nil {
		return nil, err
	}
	return &networkDeps{adapters: adapters, tokens: tokens, state: state}, nil
}

func (s *Service) Adapter(n Network) (Adapter, error) {
	a, ok := s.networks.adapters[n]
	if !ok {
		return nil, Errorf(ENotImplemented, "Connecting %s is not available yet", n.DisplayName())
	}
	return a, nil
}

func channelModeOf(a Adapter) ChannelMode {
	if m, ok := a.(ChannelModer); ok {
		return m.ChannelMode()
	}
	return ChannelsNone
}

// NetworkInfo is what the dashboard needs to offer a network: whether it can be connected here,
// what its channels mean, and how the user signs in. No server is suggested: a user names theirs
// (with SANDBOX=1 any name connects to the twin).
type NetworkInfo struct {
	Available   bool
	Channels    ChannelMode
	NeedsServer bool // the user names a server (Crier registers its app there: InstanceApps)
	Password    bool // the user signs in on a page of ours (ConnectPassword)
}

// Network answers what the dashboard offers for n.
func (s *Service) Network(n Network) NetworkInfo {
	a, err := s.Adapter(n)
	if err != nil {
		return NetworkInfo{}
	}
	_, instances := a.(InstanceApps)
	return NetworkInfo{Available: true, Channels: channelModeOf(a), NeedsServer: instances, Password: a.Kind() == ConnectPassword}
}

// AbsoluteURL is path under Crier's public URL (a connect's redirectUrl back to the dashboard).
func (s *Service) AbsoluteURL(path string) string {
	return strings.TrimRight(s.opts.BaseURL, "/") + path
}
