// Package composer holds the composer: the networks to post to (the team's connected accounts),
// the shared text with live counters per network, media from the library (with upload), one tab
// per network holding every field of its payload, the schedule in the viewer's timezone, the four
// ways to save (draft, review, schedule, publish now) and a live preview per network.
//
// Pages take plain values; web builds them (from app.PostData and the payload table) and every URL.
package composer

import (
	"sort"
	"strings"

	"github.com/a-h/templ"

	mediaview "github.com/crier/crier/views/pages/media"
)

// Ids of the parts htmx swaps.
const (
	FormID     = "composer-form"
	PreviewID  = "composer-preview"
	CountersID = "composer-counters"
	MediaID    = "composer-media"
	UploadID   = "composer-upload"
	SlidesID   = "composer-slides"
	LiveID     = "composer-live"
)

// errorNames are the form fields in error, space-separated (sorted, for stable output).
func errorNames(d Data) string {
	names := make([]string, 0, len(d.Errors))
	for k, v := range d.Errors {
		if v != "" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// Data is the composer page.
type Data struct {
	Title    string        // the page's heading: "Compose" or "Edit post"
	Action   templ.SafeURL // POST: save
	Preview  string        // POST: previews and counters (htmx)
	MediaURL string        // GET: the media grid again, keeping the selection (after an upload)
	Self     templ.SafeURL // GET: the composer (the team switch)
	Back     templ.SafeURL // cancel: the post's page or the calendar
	Editing  bool
	PostID   string // the post being edited (the form's postId: a conversion re-renders its composer)
	Convert  string // POST: JPEG copies of PNG uploads replace them in the form (htmx)

	Teams   []Option
	TeamID  string
	NoTeams bool          // the organization has no team yet
	TeamURL templ.SafeURL // the team's page, where accounts are connected

	Accounts []Account // the team's connected accounts
	Tabs     []Tab     // one per connected account's network

	PostTitle string
	Text      string
	Media     mediaview.Grid   // the library in select mode (name uploadIds, multiple)
	Upload    mediaview.Upload // the upload dialog's endpoints
	Library   templ.SafeURL    // the media library page (upload without JavaScript)
	Thumbs    []Option         // uploads a thumbnail field may name

	Date, Time string // the schedule, local
	Zone       string // "Europe/Paris"
	ZoneNote   string // "UTC+01:00"
	Profile    templ.SafeURL
	MinDate    string

	Errors  map[string]string // by field name
	Message string            // a refusal not tied to a field (quota, role)
	// Attention: Message only says fields are marked (it goes once they are fixed).
	Attention bool
	Checked   string // the action of the refused save, whose checks the live checks repeat
	// Rev is the form's revision, which each refused save's answer raises; a preview echoes the
	// one it was sent with, and composer.js drops a live block from a form since replaced.
	Rev    int
	Checks []NetCheck // the networks' media rules the form breaks, beside the networks
	Note   string     // the reviewer's note of a post sent back to draft

	Counters      []Counter
	Cards         []Card
	CanPublishNow bool
}

// OwnMediaID is the id of a network's own media grid in its tab.
func OwnMediaID(network string) string { return "own-media-grid-" + network }

// Error is the error of a field ("" when none).
func (d Data) Error(name string) string { return d.Errors[name] }

// Option is a choice of a select.
type Option struct {
	Value, Label string
}

// Account is a connected account the post may go to.
type Account struct {
	Network  string // TWITTER
	Name     string // X
	Handle   string // @ada
	Display  string // Ada Lovelace
	Avatar   string
	Initials string
	Checked  bool
	Warning  string // "Needs reconnecting"
}

// Tab is a network's tab: every field of its payload, in groups.
type Tab struct {
	Network  string
	Name     string
	Selected bool
	Groups   []Group
	Errors   int      // fields of the tab with an error (a badge on the tab)
	Message  string   // an issue on the whole network
	OwnMedia []string // upload ids the network uses instead of the shared media
	MediaURL string   // GET: the network's own media grid (loaded when its section opens)
}

// Group is a titled set of fields ("" is the tab's main fields).
type Group struct {
	Title  string
	Fields []Field
}

// Field is one control of a tab.
type Field struct {
	Name        string // form name: TWITTER.poll.options
	ID          string
	Label       string
	Kind        string // text, textarea, url, select, checks, bool, int, number, list, lines, datetime, upload, channel, alttexts, tags, carousel, thread
	Value       string
	Values      map[string]bool // checks
	Options     []Option
	Placeholder string
	Hint        string
	Error       string
	Min, Max    string
	Posts       []ThreadPost // thread: the further posts of an X thread, and one empty to fill
	MediaURL    string       // thread: GET the media grid (name= and the chosen ids are added)
	Slides      []Slide      // carousel: one per chosen medium, in order
	SlidesURL   string       // carousel: POST the form, answers the slides again (media changed)
	Note        string       // carousel: why there are no slides yet
	OwnMedia    string       // carousel: the id of the tab's own media grid (the slides follow it too)
}

// ThreadPost is one further post of an X thread: its text and its own media (up to 4 images, or
// one video or GIF), chosen in the media picker under MediaName.
type ThreadPost struct {
	Key        string // ties the media to the text (TWITTER.thread.KEY.uploadIds)
	Number     int    // 2 for the first further post (the post itself is 1)
	Text       string
	Media      []string // chosen upload ids
	KeyName    string   // TWITTER.thread.key
	MediaName  string   // TWITTER.thread.KEY.uploadIds
	MediaURL   string   // GET the picker grid under MediaName, with the chosen ids
	Error      string   // an issue on the whole post
	TextError  string
	MediaError string
}

// Slide is one carousel slide of Instagram: a chosen medium with its own alt text and tagged people.
type Slide struct {
	ID        string // the upload
	Number    int
	Thumb     Thumb
	AltName   string // INSTAGRAM.slide.ID.altText
	Alt       string
	AltError  string
	TagsName  string // INSTAGRAM.slide.ID.tagged
	Tags      string
	TagsError string
	Error     string // an issue on the slide's medium
}

// NetCheck is what a chosen network says about the post's media, in plain words.
type NetCheck struct {
	Network, Name string
	Items         []CheckItem
}

// CheckItem is one rule a network's media break, and the fix it offers (set the form field
// FixName to FixValue) when one is cheap.
type CheckItem struct {
	Text                        string
	FixName, FixValue, FixLabel string
	Convert                     string // the PNG uploads (ids, space-separated) "Convert to JPEG" replaces
}

// Counter is a network's character count of its text.
type Counter struct {
	Network string
	Name    string
	Used    int
	Limit   int // 0: no limit known
	Over    bool
	Near    bool // within 10% of the limit
}

// Card is a network's preview.
type Card struct {
	Network   string
	Name      string
	Layout    string // feed | visual | reddit | video | chat
	Display   string
	Handle    string
	Avatar    string
	Initials  string
	When      string
	Title     string // Reddit's or YouTube's title, Pinterest's pin title
	Text      string // what fits
	Overflow  string // what goes past the network's limit
	Where     string // r/subreddit, #channel, board
	Media     []Thumb
	Counter   Counter
	Thread    []ThreadCard // further posts of an X thread
	Empty     bool         // nothing to show yet
	Note      string
	Actions   []Action // the network's action row under the post
	IconsOnly bool     // the row shows icons without words
}

// Action is one action under a post in a preview ("Repost", drawn by icon "repost"); End pushes it
// to the row's far end.
type Action struct {
	Label, Icon string
	End         bool
}

// ThreadCard is a further post of an X thread in its preview.
type ThreadCard struct {
	Text  string
	Media []Thumb
}

// Thumb is a media item of a preview.
type Thumb struct {
	URL  string
	Kind string // image | video | document
	Alt  string
}
