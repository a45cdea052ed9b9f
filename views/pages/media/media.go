// Package media holds the media library pages: the upload drop zone with per-file progress, the
// grid of uploads with filters, multi-select deletion, and the picker (the same grid in "select"
// mode) the composer reuses.
//
// Pages take plain values; web turns the Service's uploads into them and builds every URL.
package media

import "github.com/a-h/templ"

// Results is the id of the element filters, paging and changes swap.
const Results = "media-results"

// ChangedEvent is the htmx event (fired from the body) that reloads the grid after an upload or
// a deletion.
const ChangedEvent = "mediaChanged"

// Item is one upload in the grid.
type Item struct {
	ID         string
	Name       string // the file's name; "" for uploads from before names were kept
	Kind       string // image | video | document
	TypeLabel  string // "PNG image", "MP4 video", "PDF document"
	Mime       string
	Thumb      string // preview image URL; "" shows the kind's icon
	URL        string // the file itself (signed)
	Size       string // "1.2 MB"
	Dimensions string // "4 × 3", "" when unknown
	Duration   string // "0:12" for videos
	Created    string
	Used       bool
	Delete     templ.SafeURL
	Rename     templ.SafeURL // POST name=…: the name field again (htmx) or the library
}

// Title is what the item is called: its name, else its type.
func (i Item) Title() string {
	if i.Name != "" {
		return i.Name
	}
	return i.TypeLabel
}

// Alt describes the item for assistive technology: its type and measurements.
func (i Item) Alt() string {
	s := i.TypeLabel
	if i.Name != "" {
		s = i.Name + ", " + s
	}
	if i.Dimensions != "" {
		s += ", " + i.Dimensions
	}
	if i.Duration != "" {
		s += ", " + i.Duration
	}
	return s
}

// Option is a choice of a filter's select.
type Option struct {
	Value, Label string
}

// Filters are the grid's current filters.
type Filters struct {
	Type   string // "" | image | video | document
	Status string // "" | USED | UNUSED
	Team   string // "" or a team id
	Search string // a part of the name
	Sort   string // "" (newest) | oldest | name | size: an order, not a filter
}

// Any reports whether a filter is set.
func (f Filters) Any() bool { return f.Type != "" || f.Status != "" || f.Team != "" || f.Search != "" }

// Upload are the endpoints and settings of the upload script (static/js/media.js).
type Upload struct {
	Action    templ.SafeURL // POST multipart form: file, teamId (also the no-JavaScript form)
	Init      string        // POST JSON: multipart init
	Sign      string        // POST JSON: sign parts again
	Complete  string        // POST JSON: complete
	Abort     string        // POST JSON: abort
	Threshold int64         // files larger than this go browser → signed URLs, in parts
	Accept    string        // the file input's accept
	Accepted  string        // the accepted types in words ("JPEG, PNG or GIF images, …")
	Message   string        // a refusal of the no-JavaScript form
}

// Grid is the grid of uploads and its paging: the library's results, or the picker.
type Grid struct {
	Items    []Item
	Filters  Filters
	Select   bool   // picker mode: choose uploads for a form (the composer)
	Name     string // picker mode: the inputs' name
	Multiple bool   // picker mode: checkboxes (else radios)
	Self     templ.SafeURL
	Action   templ.SafeURL // the filters' GET target
	Prev     templ.SafeURL
	Next     templ.SafeURL
	Page     int
	Delete   templ.SafeURL // the multi-select delete confirmation (GET, ids=…)
	Selected map[string]bool
}

// Library is the media library page.
type Library struct {
	Grid   Grid
	Teams  []Option
	Upload Upload
}

// TypeOptions are the type filter's choices.
var TypeOptions = []Option{{"", "All types"}, {"image", "Images"}, {"video", "Videos"}, {"document", "PDFs"}}

// StatusOptions are the used/unused filter's choices.
var StatusOptions = []Option{{"", "Used and unused"}, {"USED", "Used in posts"}, {"UNUSED", "Not used yet"}}

// SortOptions are the grid's orders.
var SortOptions = []Option{{"", "Newest first"}, {"oldest", "Oldest first"}, {"name", "Name (A–Z)"}, {"size", "Largest first"}}
