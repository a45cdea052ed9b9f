// Package network assembles the adapters of the social networks (one package per network, each
// against its real API) and, with SANDBOX=1, points them at the built-in sandbox networks
// (network/sandbox) served by Crier itself under /sandbox/<network>/.
//
// Credentials of Crier's app at each network come from the environment:
// <NETWORK>_CLIENT_ID and <NETWORK>_CLIENT_SECRET (TWITTER_CLIENT_ID, FACEBOOK_CLIENT_ID …). A
// network without credentials is not offered outside the sandbox.
package network

import (
	"cmp"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/bluesky"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/discord"
	"github.com/crier/crier/network/facebook"
	"github.com/crier/crier/network/googlebusiness"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/linkedin"
	"github.com/crier/crier/network/mastodon"
	"github.com/crier/crier/network/pinterest"
	"github.com/crier/crier/network/reddit"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/slack"
	"github.com/crier/crier/network/snapchat"
	"github.com/crier/crier/network/threads"
	"github.com/crier/crier/network/tiktok"
	"github.com/crier/crier/network/x"
	"github.com/crier/crier/network/youtube"
)

// registry is every network: its spec (payload, rules, caps, look) and how its adapter is built, in
// the spec's order. A new network is one line here, its folder and its sandbox twin.
var registry = []struct {
	spec    *app.NetworkSpec
	adapter func(o Options) app.Adapter // nil when the network is not available
}{
	{tiktok.Spec, appCredentials(app.TikTok, tiktok.Real, tiktok.New)},
	{youtube.Spec, appCredentials(app.YouTube, youtube.Real, youtube.New)},
	{instagram.Spec, appCredentials(app.Instagram, instagram.Real, instagram.New)},
	{facebook.Spec, appCredentials(app.Facebook, facebook.Real, facebook.New)},
	{x.Spec, appCredentials(app.Twitter, x.Real, x.New)},
	{threads.Spec, appCredentials(app.Threads, threads.Real, threads.New)},
	{linkedin.Spec, appCredentials(app.LinkedIn, linkedin.Real, linkedin.New)},
	{pinterest.Spec, appCredentials(app.Pinterest, pinterest.Real, pinterest.New)},
	{reddit.Spec, appCredentials(app.Reddit, reddit.Real, reddit.New)},
	{mastodon.Spec, func(o Options) app.Adapter {
		// No credentials of Crier's: it registers itself on each server. In the sandbox the twin
		// serves every server.
		if o.Sandbox {
			return mastodon.NewSandbox(o.BaseURL, o.sandboxBase()+"/sandbox/mastodon")
		}
		return mastodon.New(o.AllowPrivate, o.BaseURL)
	}},
	{discord.Spec, appCredentials(app.Discord, discord.Real, discord.New)},
	{slack.Spec, appCredentials(app.Slack, slack.Real, slack.New)},
	{bluesky.Spec, func(o Options) app.Adapter {
		// No credentials either: users sign in with app passwords (default PDS bsky.social).
		if o.Sandbox {
			return bluesky.New(o.sandboxBase()+"/sandbox/bluesky", true)
		}
		return bluesky.New("", o.AllowPrivate)
	}},
	{googlebusiness.Spec, appCredentials(app.GoogleBusiness, googlebusiness.Real, googlebusiness.New)},
	{snapchat.Spec, appCredentials(app.Snapchat, snapchat.Real, snapchat.New)},
}

// Importing network registers every network's spec, once, in the spec's order: app and web read
// them from app.SpecOf.
func init() {
	for _, r := range registry {
		app.RegisterNetworks(r.spec)
	}
}

// Options choose where the adapters point.
type Options struct {
	Sandbox bool
	BaseURL string // Crier's public URL
	// SandboxURL is where the sandbox's twins are served (their /sandbox/<network>): SANDBOX_URL,
	// or BaseURL when empty (they run inside Crier).
	SandboxURL string
	Getenv     func(string) string // credentials
	// AllowPrivate lets user-given servers (Mastodon) be private or loopback (ALLOW_PRIVATE_URLS).
	AllowPrivate bool
}

func (o Options) sandboxBase() string { return strings.TrimRight(cmp.Or(o.SandboxURL, o.BaseURL), "/") }

// appCredentials builds the adapter of a network that knows Crier by its app's credentials: the
// sandbox's under SANDBOX=1, else <NETWORK>_CLIENT_ID, _CLIENT_SECRET and _BOT_TOKEN from the
// environment (no client id: the network is not offered).
func appCredentials[A app.Adapter](n app.Network, real core.Endpoints, build func(core.Endpoints, core.Credentials) A) func(Options) app.Adapter {
	return func(o Options) app.Adapter {
		if o.Sandbox {
			seg := sandbox.Segment(n)
			base := o.sandboxBase() + "/sandbox/" + seg
			return build(core.Endpoints{Auth: base, API: base, Token: base},
				core.Credentials{ClientID: sandbox.ClientID(seg), ClientSecret: sandbox.ClientSecret(seg), BotToken: sandbox.BotToken})
		}
		if o.Getenv == nil {
			return nil
		}
		cred := core.Credentials{ClientID: o.Getenv(string(n) + "_CLIENT_ID"), ClientSecret: o.Getenv(string(n) + "_CLIENT_SECRET"),
			BotToken: o.Getenv(string(n) + "_BOT_TOKEN")}
		if cred.ClientID == "" {
			return nil
		}
		return build(real, cred)
	}
}

// Adapters builds every available adapter.
func Adapters(o Options) app.Adapters {
	out := app.Adapters{}
	for _, r := range registry {
		if a := r.adapter(o); a != nil {
			out[r.spec.Network] = a
		}
	}
	return out
}
