package app

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

var networkNames = map[Network]string{
	TikTok: "TikTok", YouTube: "YouTube", Instagram: "Instagram", Facebook: "Facebook",
	Twitter: "X", Threads: "Threads", LinkedIn: "LinkedIn", Pinterest: "Pinterest",
	Reddit: "Reddit", Mastodon: "Mastodon", Discord: "Discord", Slack: "Slack",
	Bluesky: "Bluesky", GoogleBusiness: "Google Business", Snapchat: "Snapchat",
}

// Valid reports whether n is one of the 15 networks.
func (n Network) Valid() bool { _, ok := networkNames[n]; return ok }

// DisplayName is the name people know the network by ("X" for TWITTER).
func (n Network) DisplayName() string { return networkNames[n] }
