package app

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"time"
)

// OAuthState is what travels through the network's consent page in the state parameter. It is
// sealed (AES-GCM under a key of its own derived from CRIER_SECRET), so it is both signed and
// private: the PKCE verifier can ride in it without being readable by anyone who sees the URL, and
// no table of pending connects is needed. It expires after OAuthStateTTL.
type OAuthState struct {
	OrganizationID string         `json:"o"`
	TeamID         string         `json:"t"`
	Network        Network        `json:"n"`
	RedirectURL    string         `json:"r,omitempty"`
	PortalToken    string         `json:"p,omitempty"` // the portal link the connect started from, if any
	UserID         string         `json:"u,omitempty"` // who connects, for the audit log (empty from the portal)
	ActorName      string         `json:"a,omitempty"`
	APIKeyID       string         `json:"k,omitempty"`
	Verifier       string         `json:"v,omitempty"` // PKCE code verifier
	ServerURL      string         `json:"s,omitempty"` // Mastodon instance / Bluesky PDS
	Options        ConnectOptions `json:"x,omitempty"`
	Expires        int64          `json:"e"`
}

// OAuthStateTTL is how long a connect may take between the authorize URL and the callback.
const OAuthStateTTL = 30 * time.Minute

// stateAD binds the sealed state to its purpose.
const stateAD = "oauth-state"

func (s *Service) sealState(st OAuthState) string {
	st.Expires = s.now().Add(OAuthStateTTL).Unix()
	b, _ := json.Marshal(st)
	return base64.RawURLEncoding.EncodeToString(s.networks.state.seal(b, stateAD))
}

// openState checks and decodes a state; any failure is a 400 saying the link is bad or expired.
func (s *Service) openState(raw string) (*OAuthState, error) {
	bad := Invalid("The connection link is invalid or has expired; start connecting again",
		Issue{Code: IssueCustom, Message: "Invalid or expired state", Path: []any{"state"}})
	sealed, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return nil, bad
	}
	b, err := s.networks.state.open(sealed, stateAD)
	if err != nil {
		return nil, bad
	}
	var st OAuthState
	if err := json.Unmarshal(b, &st); err != nil || st.Expires < s.now().Unix() {
		return nil, bad
	}
	return &st, nil
}

// newPKCEVerifier returns a 43-character RFC 7636 code verifier.
func newPKCEVerifier() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// PKCEChallenge is the S256 challenge of a verifier.
func PKCEChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
