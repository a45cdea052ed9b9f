// Package network assembles the adapters of the social networks (one package per network, each
// against its real API) and, with SANDBOX=1, points them at the built-in sandbox networks
// (network/sandbox) served by Crier itself under /sandbox/<network>/.
//
// Credentials of Crier's app at each network come from the environment:
// <NETWORK>_CLIENT_ID and <NETWORK>_CLIENT_SECRET (TWITTER_CLIENT_ID, FACEBOOK_CLIENT_ID …). A
// network without credentials is not offered outside the sandbox.
package network

import (
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

// Importing network registers every network's spec (its payload, rules, caps and look), once, in
// the spec's order: app and web read them from app.SpecOf.
func init() {
	app.RegisterNetworks(tiktok.Spec, youtube.Spec, instagram.Spec, facebook.Spec, x.Spec, threads.Spec, linkedin.Spec,
		pinterest.Spec, reddit.Spec, mastodon.Spec, discord.Spec, slack.Spec, bluesky.Spec, googlebusiness.Spec, snapchat.Spec)
}

// Options choose where the adapters point.
type Options struct {
	Sandbox bool
	BaseURL string              // Crier's public URL (the sandbox lives under it)
	Getenv  func(string) string // credentials
	// AllowPrivate lets user-given servers (Mastodon) be private or loopback (ALLOW_PRIVATE_URLS).
	AllowPrivate bool
}

type builder func(ep core.Endpoints, cred core.Credentials) app.Adapter

var builders = map[app.Network]struct {
	real core.Endpoints
	new  builder
}{
	app.Twitter:        {x.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return x.New(ep, c) }},
	app.Facebook:       {facebook.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return facebook.New(ep, c) }},
	app.Instagram:      {instagram.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return instagram.New(ep, c) }},
	app.LinkedIn:       {linkedin.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return linkedin.New(ep, c) }},
	app.Reddit:         {reddit.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return reddit.New(ep, c) }},
	app.Pinterest:      {pinterest.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return pinterest.New(ep, c) }},
	app.TikTok:         {tiktok.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return tiktok.New(ep, c) }},
	app.Threads:        {threads.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return threads.New(ep, c) }},
	app.GoogleBusiness: {googlebusiness.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return googlebusiness.New(ep, c) }},
	app.Slack:          {slack.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return slack.New(ep, c) }},
	app.Discord:        {discord.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return discord.New(ep, c) }},
	app.Snapchat:       {snapchat.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return snapchat.New(ep, c) }},
	app.YouTube:        {youtube.Real, func(ep core.Endpoints, c core.Credentials) app.Adapter { return youtube.New(ep, c) }},
}

// Adapters builds every available adapter.
func Adapters(o Options) app.Adapters {
	out := app.Adapters{}
	for n, b := range builders {
		if o.Sandbox {
			base := strings.TrimRight(o.BaseURL, "/") + "/sandbox/" + sandbox.Segment(n)
			out[n] = b.new(core.Endpoints{Auth: base, API: base, Token: base}, core.Credentials{ClientID: sandbox.ClientID(sandbox.Segment(n)),
				ClientSecret: sandbox.ClientSecret(sandbox.Segment(n)), BotToken: sandbox.BotToken})
			continue
		}
		if o.Getenv == nil {
			continue
		}
		cred := core.Credentials{ClientID: o.Getenv(string(n) + "_CLIENT_ID"), ClientSecret: o.Getenv(string(n) + "_CLIENT_SECRET"),
			BotToken: o.Getenv(string(n) + "_BOT_TOKEN")}
		if cred.ClientID == "" {
			continue
		}
		out[n] = b.new(b.real, cred)
	}
	// Mastodon needs no credentials of Crier's: it registers itself on each server.
	out[app.Mastodon] = mastodon.New(o.AllowPrivate || o.Sandbox, o.BaseURL)
	// Bluesky needs none either: users sign in with app passwords (default PDS bsky.social).
	if o.Sandbox {
		out[app.Bluesky] = bluesky.New(strings.TrimRight(o.BaseURL, "/")+"/sandbox/bluesky", true)
	} else {
		out[app.Bluesky] = bluesky.New("", o.AllowPrivate)
	}
	return out
}
