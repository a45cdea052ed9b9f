// Package posts holds the posts pages: the list with the filters of GET /post, a post's page (its
// status on each network, permalinks, the networks' errors, retry, live while publishing) and the
// approval queue. It also holds the pieces the composer and the calendar share: network badges and
// status pills.
//
// Pages take plain values; web turns the Service's posts into them and builds every URL.
package posts

// Post statuses (the spec's values).
const (
	StatusDraft      = "DRAFT"
	StatusScheduled  = "SCHEDULED"
	StatusReview     = "REVIEW"
	StatusProcessing = "PROCESSING"
	StatusRetrying   = "RETRYING"
	StatusPosted     = "POSTED"
	StatusError      = "ERROR"
	StatusDeleted    = "DELETED"
)

// StatusPartial is how the dashboard shows an ERROR post some of whose networks posted: "Partly
// published", not "Failed" beside a posted time. The API keeps the spec's ERROR.
const StatusPartial = "PARTIAL"

// Shown is the status the dashboard shows for a post's status (partly: some networks posted).
func Shown(status string, partly bool) string {
	if partly && status == StatusError {
		return StatusPartial
	}
	return status
}

// Statuses are the filter's choices, in a post's life order.
var Statuses = []string{StatusDraft, StatusReview, StatusScheduled, StatusProcessing, StatusRetrying, StatusPosted, StatusError, StatusDeleted}

var statusLabels = map[string]string{
	StatusDraft: "Draft", StatusScheduled: "Scheduled", StatusReview: "In review", StatusProcessing: "Publishing",
	StatusRetrying: "Retrying", StatusPosted: "Posted", StatusError: "Failed", StatusDeleted: "Deleted",
	StatusPartial: "Partly published",
}

// StatusLabel says a status in words.
func StatusLabel(s string) string {
	if l, ok := statusLabels[s]; ok {
		return l
	}
	return s
}

// StatusTone is the pill colour of a status.
func StatusTone(s string) string {
	switch s {
	case StatusPosted:
		return "success"
	case StatusError:
		return "danger"
	case StatusRetrying, StatusReview, StatusPartial:
		return "warning"
	case StatusScheduled:
		return "info"
	case StatusProcessing:
		return "accent"
	}
	return "neutral"
}

// Live reports whether a status is moving (publishing now).
func Live(s string) bool { return s == StatusProcessing || s == StatusRetrying }

// Net is a network as the pages show it.
type Net struct {
	Code string // TWITTER
	Name string // X
}

// Option is a choice of a select.
type Option struct {
	Value, Label string
}

// Filters are the list's filters (GET /post's query).
type Filters struct {
	Team      string
	Status    string
	Q         string
	Platforms map[string]bool
	From, To  string // local dates YYYY-MM-DD
	OrderBy   string // createdAt | updatedAt | postDate | postedDate
	Order     string // ASC | DESC
}

// List is the posts page (and the approval queue, Review set).
type List struct {
	Review    bool // the approval queue
	CanReview bool // OWNER and ADMIN approve and send back
	Teams     []Option
	Networks  []Net
	Filters   Filters
	Rows      []Row
	Total     int
	Action    string // the filters' GET target (htmx swaps the results)
	Self      string
	Prev      string
	Next      string
	Page      int
	Pages     int
	Compose   string
	AllHref   string
	QueueHref string
	Queue     int // posts awaiting review (the tab's count)
	Zone      string
	NoTeams   bool
	TeamsHref string
}

// Row is one post of the list.
type Row struct {
	ID        string
	Title     string
	Excerpt   string
	Status    string // the spec's
	Partly    bool   // ERROR with some networks posted: shown "Partly published"
	When      string // the post date, local
	WhenLabel string // "Scheduled for", "Posted", "Created"
	Networks  []TargetChip
	Media     int
	Thumb     string
	Href      string
	Edit      string
	Approve   string
	Reject    string
	Note      string // a review note (sent back)
	Author    string
}

// TargetChip is a network of a post with its own status.
type TargetChip struct {
	Code, Name, Status string
}

// Detail is a post's page.
type Detail struct {
	ID         string
	Title      string
	Status     string       // the spec's
	Partly     bool         // ERROR with some networks posted: shown "Partly published"
	Chips      []TargetChip // each network's state, at a glance in the summary
	Team       string
	When       string
	WhenLabel  string
	Posted     string
	Created    string
	Updated    string
	Text       string
	Thumbs     []string
	Targets    []Target
	Error      string
	ReviewNote string
	Live       bool   // poll every 2 s (a target publishing, retrying or due)
	Self       string // GET: the page (polling)
	Back       string
	Edit       string // "" when the post cannot be edited
	Retry      string // "" when nothing failed
	Delete     string // the confirmation
	Approve    string // REVIEW and the viewer may approve
	Reject     string
	Reschedule string // POST date, time (SCHEDULED, DRAFT, REVIEW)
	Date, Time string
	Zone       string
	CanReview  bool
	Flash      string
	Message    string // a refused action
	Verbose    bool   // the organization shows verbose errors
	Settings   string
}

// Target is one network of a post.
type Target struct {
	Network       string
	Name          string
	Kind          string // POST | FIRST_COMMENT
	Account       string
	Status        string
	Permalink     string
	PermalinkText string // "View on X", or the sandbox inspector's words
	ExternalID    string
	Posted        string
	NextAttempt   string
	Attempts      int
	Error         string
	Verbose       *Verbose
}

// Verbose is a network's own error detail.
type Verbose struct {
	Code, Message, Retryability, UserMessage, Meta string
	HTTPStatus                                     string
	Transient                                      string // "yes", "no" or ""
}
