// Package facebook is the adapter of Facebook Pages through the Graph API (meta.FacebookLogin).
// Connecting gives a short-lived user token, exchanged at once (grant_type=fb_exchange_token) for a
// ~60-day one; there is no refresh token — Refresh exchanges the current long-lived token again
// while it is valid. The pages come from GET /me/accounts with their own page tokens (which do not
// expire); the page chosen with set-channel is where Crier publishes, with its page token. Errors
// are Graph's (meta.Classify).
package facebook

import (
	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/meta"
)

// Real endpoints: Meta's Graph hosts.
var Real = meta.Real

// Scopes asked at connect (business and messaging scopes are added on request).
var Scopes = []string{"pages_show_list", "pages_manage_posts", "pages_read_engagement", "pages_manage_engagement", "read_insights"}

// Adapter is Facebook Login for Facebook Pages, with the Graph base and client that page
// publishing (publish.go) calls.
type Adapter struct {
	*meta.FacebookLogin
	graph string
	api   *core.Client
}

// New builds the adapter of Facebook Pages (Facebook Login with page publishing, publish.go).
func New(ep core.Endpoints, cred core.Credentials) *Pages {
	login := meta.NewFacebookLogin(app.Facebook, Scopes, ep, cred)
	return &Pages{Adapter: &Adapter{FacebookLogin: login, graph: login.Graph(), api: login.API()}}
}
