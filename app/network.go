package app

import "slices"

// Network identifies one of the 15 social networks. The values are the spec's wire values.
type Network string

const (
	TikTok         Network = "TIKTOK"
	YouTube        Network = "YOUTUBE"
	Instagram      Network = "INSTAGRAM"
	Facebook       Network = "FACEBOOK"
	Twitter        Network = "TWITTER"
	Threads        Network = "THREADS"
	LinkedIn       Network = "LINKEDIN"
	Pinterest      Network = "PINTEREST"
	Reddit         Network = "REDDIT"
	Mastodon       Network = "MASTODON"
	Discord        Network = "DISCORD"
	Slack          Network = "SLACK"
	Bluesky        Network = "BLUESKY"
	GoogleBusiness Network = "GOOGLE_BUSINESS"
	Snapchat       Network = "SNAPCHAT"
)

// Networks lists every network in the spec's order.
var Networks = []Network{
	TikTok, YouTube, Instagram, Facebook, Twitter, Threads, LinkedIn, Pinterest,
	Reddit, Mastodon, Discord, Slack, Bluesky, GoogleBusiness, Snapchat,
}

// Valid reports whether n is one of the networks.
func (n Network) Valid() bool { return slices.Contains(Networks, n) }

// DisplayName is the name people know the network by ("X" for TWITTER): its spec's Name ("" when
// no spec is registered).
func (n Network) DisplayName() string {
	if s := SpecOf(n); s != nil {
		return s.Name
	}
	return ""
}
