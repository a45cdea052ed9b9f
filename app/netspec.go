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
	// ChannelNoun says what a channel is on it ("page", "board", "subreddit"); "" reads "channel".
	ChannelNoun string
	// ConnectMethods are the ways an account can sign in (the contract's instagramConnectionMethod),
	// the first the default; nil when there is one way.
	ConnectMethods []string

	// Dashboard.
	Brand   Brand
	Compose Compose
}

// Brand is how the dashboard draws a network.
type Brand struct {
	Color string // the mark's tile colour (#rrggbb)
	// Border outlines the tile when Color is too light to stand out on the page ("" for none).
	Border string
	// Icon is the inner SVG markup of a 32×32 viewBox: a simplified, recognisable glyph drawn on Color.
	// It is trusted markup, written in the network's package (never from input).
	Icon string
	// Monogram is the one or two letters of the network's tile where no mark is drawn (the home
	// page's status list).
	Monogram string
	// HandlePrefix starts an account's handle ("u/" on Reddit); "" means "@".
	HandlePrefix string
}

// Compose is the composer's tab of a network.
type Compose struct {
	Fields []FormField
	// Preview is the preview's layout: "feed" (text first), "visual" (media first), "video",
	// "reddit" or "chat".
	Preview string
	// Card is what the preview card shows besides the text.
	Card PreviewCard
	// Actions are the preview's action row, in the network's order and words; IconsOnly: the
	// network shows them as icons without words (the words stay for screen readers).
	Actions   []PreviewAction
	IconsOnly bool
}

// PreviewAction is one action under a post in the network's preview: its word, and the icon of the
// composer's own generic set that draws it (reply, comment, repost, like, thumb, views, share,
// send, save, vote, react, star); End pushes it to the row's far end (Instagram's save).
type PreviewAction struct {
	Label, Icon string
	End         bool
}

// PreviewCard names the payload fields (keys of Compose.Fields) a preview card shows besides the
// text; "" for none.
type PreviewCard struct {
	// Title is the card's title; "text" makes the text the title, and Body's field the card's body.
	Title string
	Body  string
	// Where is the destination (a channel field: a channel chosen by id shows its name), shown after
	// WherePrefix ("r/", "#", "Board: "); AlwaysWhere shows the prefix before one is chosen.
	Where       string
	WherePrefix string
	AlwaysWhere bool
}

// SharedTextHint is the hint of a network's text field: it overrides the composer's shared text.
const SharedTextHint = "Leave empty to use the shared text."

// FieldKind says how a composer field is edited and read back.
type FieldKind string

// The composer's field kinds.
const (
	KindText     FieldKind = "text"     // one line
	KindTextarea FieldKind = "textarea" // several lines
	KindURL      FieldKind = "url"
	KindSelect   FieldKind = "select"   // one of Options
	KindChecks   FieldKind = "checks"   // any of Options (a string array)
	KindBool     FieldKind = "bool"     // a checkbox
	KindInt      FieldKind = "int"      // a whole number
	KindNumber   FieldKind = "number"   // any number
	KindList     FieldKind = "list"     // strings separated by commas or new lines
	KindLines    FieldKind = "lines"    // strings, one per line (may hold commas)
	KindDateTime FieldKind = "datetime" // a local date and time → ISO 8601 in UTC
	KindUpload   FieldKind = "upload"   // an upload id from the library (the picker fills it)
	KindChannel  FieldKind = "channel"  // a destination of the account (its channels), or typed
	KindAltTexts FieldKind = "alttexts" // one alt text per line, for the media in order → mediaItems
	KindTags     FieldKind = "tags"     // "username, x, y" per line → [{username, x, y}]
	KindCarousel FieldKind = "carousel" // per medium: alt text and tags → [{uploadId, altText, tagged}]
	KindThread   FieldKind = "thread"   // further posts, each with its own media → [{text, uploadIds}]
)

// FormField is one field of a network's payload in the composer.
type FormField struct {
	Key     string // the JSON path inside the payload ("poll.options")
	Label   string
	Kind    FieldKind
	Options []FieldOption // selects and checks
	// DefaultLabel is a select's empty choice, what leaving it means ("Network default"); "" offers
	// no empty choice (the first option is the default).
	DefaultLabel string
	Hint         string
	Default      string // the control's value for a new post ("on" checks a box)
	Group        string // the tab's section: "" (main), "Options", "Media", "Poll", "Sound", "Compliance"…
	Min          string // numbers: the control's min
	Max          string // numbers: the control's max
	// Channel fields: ByName sends the destination's name (a board, a subreddit) instead of its id;
	// ChannelPrefix starts each destination's label ("#", "r/"), before its name as it is (a
	// destination chosen by id drops a leading # of its name).
	ByName        bool
	ChannelPrefix string
}

// FieldOption is one choice of a select or checks field: the payload's value, and what people read.
type FieldOption struct {
	Value string
	Label string
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
