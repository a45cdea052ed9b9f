package components

import "github.com/a-h/templ"

// DialogSlot is the id of the element confirmation dialogs are swapped into (htmx); a page that
// offers dialogs renders DialogHost once.
const DialogSlot = "org-dialog"

// Confirm describes a destructive action to confirm: as a modal dialog (htmx) or a page.
type Confirm struct {
	ID     string // unique: the dialog's id, headings derive from it
	Title  string // "Delete team “Acme”?"
	Text   string // what happens, plainly
	Button string // "Delete team"
	Action templ.SafeURL
	Cancel templ.SafeURL // where the full page's Cancel goes
	Error  string        // the Service refused (e.g. the last OWNER)
	Icon   string        // default "alert"
	Fields []Hidden      // hidden fields the confirmed form posts (e.g. the role chosen)
}

// Hidden is a hidden form field.
type Hidden struct {
	Name, Value string
}

func (c Confirm) icon() string {
	if c.Icon == "" {
		return "alert"
	}
	return c.Icon
}

// ConfirmPageData is a confirmation as a full page (no JavaScript, or a direct visit).
type ConfirmPageData struct {
	Confirm Confirm
	Eyebrow string
}
