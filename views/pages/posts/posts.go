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

// Statuses are the filter's choices, in a post's life order.
var Statuses = []string{StatusDraft, StatusReview, StatusScheduled, StatusProcessing, StatusRetrying, StatusPosted, StatusError, StatusDeleted}

var statusLabels = map[string]string{
	StatusDraft: "Draft", StatusScheduled: "Scheduled", StatusReview: "In review", StatusProcessing: "Publishing",
	StatusRetrying: "Retrying", StatusPosted: "Posted", StatusError: "Failed", StatusDeleted: "Deleted",
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
	case StatusRetrying, StatusReview:
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

var netShort = map[string]string{
	"TIKTOK": "Tt", "YOUTUBE": "Yt", "INSTAGRAM": "Ig", "FACEBOOK": "f", "TWITTER": "X", "THREADS": "@",
	"LINKEDIN": "in", "PINTEREST": "P", "REDDIT": "r/", "MASTODON": "M", "DISCORD": "D", "SLACK": "S",
	"BLUESKY": "Bs", "GOOGLE_BUSINESS": "G", "SNAPCHAT": "Sc",
}

// NetShort is a network's mark (one or two characters).
func NetShort(code string) string {
	if s, ok := netShort[code]; ok {
		return s
	}
	return "?"
}

// Net is a network as the pages show it.
type Net struct {
	Code string // TWITTER
	Name string // X
}
