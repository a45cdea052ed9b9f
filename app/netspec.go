package app

import (
	"fmt"
	"sync"
)

// NetworkSpec is everything Crier knows about one network apart from talking to it (that is the
// Adapter): what a post on it holds and how that is checked, its daily caps, what it can do, and how
// the dashboard shows it. Each network/<name> package declares its spec (spec.go) and network/network.go
// registers them all, once, in the spec's order; app and web read them here instead of switching on
// networks.
type NetworkSpec struct {
	Network Network
	Name    string // the name people know it by ("X" for TWITTER)

	// Posts.
	NewPayload func() Payload // a zero payload of the network's own type (network/<name>/payload.go)
	// Check adds the network's rules beyond the contract's schema (text length, media counts, types,
	// sizes, required fields) for the payload p found at path. Nil: nothing beyond the schema.
	Check func(c *PostCheck, path []any, p Payload)
	// TextLength measures a text the way the network counts it and answers its limit for the account
	// (limit 0: no limit). Nil counts characters against no limit.
	TextLength func(text string, a *SocialAccount) (used, limit int)
	DailyCaps  DailyCaps
	// ChannelNeeded answers what the account must have selected before a post is scheduled ("a
	// Facebook page"); "" (or nil) when it publishes as itself.
	ChannelNeeded func(a *SocialAccount) string

	// Capabilities.
	Comments bool // posts on it can be commented on through Crier

	// Dashboard.
	Brand   Brand
	Compose Compose
}

// Brand is how the dashboard draws a network.
type Brand struct {
	Color string // the mark's tile colour (#rrggbb)
	// Icon is the inner SVG markup of a 32×32 viewBox: a simplified, recognisable glyph drawn on Color.
	Icon string
}

// Compose is the composer's tab of a network.
type Compose struct {
	Fields []FormField
	// Preview is the preview's layout: "feed" (text first), "visual" (media first), "video",
	// "reddit" or "chat".
	Preview string
}

// FieldKind says how a composer field is edited and read back.
type FieldKind string

// FormField is one field of a network's payload in the composer.
type FormField struct {
	Key     string // the JSON path inside the payload ("poll.options")
	Label   string
	Kind    FieldKind
	Options []string
	Hint    string
	Default string // the control's value for a new post ("on" checks a box)
	Group   string // the tab's section: "" (main), "Options", "Media", "Poll", "Sound", "Compliance"…
	Min     string // numbers: the control's min
	Max     string // numbers: the control's max
}

var specs struct {
	sync.RWMutex
	byNetwork map[Network]*NetworkSpec
	ordered   []*NetworkSpec
}

// RegisterNetworks registers the specs of every network, in the spec's order. Registering a network
// twice, or one not in Networks, panics: it is a programming error found at start.
func RegisterNetworks(list ...*NetworkSpec) {
	specs.Lock()
	defer specs.Unlock()
	if specs.byNetwork == nil {
		specs.byNetwork = map[Network]*NetworkSpec{}
	}
	for _, s := range list {
		if !s.Network.Valid() {
			panic(fmt.Sprintf("app: RegisterNetworks: unknown network %q", s.Network))
		}
		if specs.byNetwork[s.Network] != nil {
			if specs.byNetwork[s.Network] == s {
				continue
			}
			panic(fmt.Sprintf("app: RegisterNetworks: %s registered twice", s.Network))
		}
		specs.byNetwork[s.Network] = s
		specs.ordered = append(specs.ordered, s)
	}
}

// SpecOf answers a network's spec (nil when none is registered).
func SpecOf(n Network) *NetworkSpec {
	specs.RLock()
	defer specs.RUnlock()
	return specs.byNetwork[n]
}

// Specs answers every registered spec in registration order.
func Specs() []*NetworkSpec {
	specs.RLock()
	defer specs.RUnlock()
	return append([]*NetworkSpec(nil), specs.ordered...)
}
