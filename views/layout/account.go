package layout

import (
	"strings"
	"unicode"

	"github.com/a-h/templ"
)

// OrgMenu is the top bar's organization switcher: the current organization and the others the user
// belongs to, each switched to by a POST form.
type OrgMenu struct {
	Current   string // the current organization's name
	Role      string // the user's role there, in words ("Owner")
	Items     []OrgItem
	SwitchURL templ.SafeURL // POST organizationId
	NewURL    templ.SafeURL // the "Create organization" page
}

// OrgItem is one organization of the switcher.
type OrgItem struct {
	ID      string
	Name    string
	Role    string
	Current bool
}

// UserMenu is the top bar's user menu.
type UserMenu struct {
	Name       string // the user's full name, else their email
	Email      string
	ProfileURL templ.SafeURL
	LogoutURL  templ.SafeURL // POST
}

// VerifyBanner asks an unverified user to confirm their address; Resend is an htmx POST.
type VerifyBanner struct {
	Email     string
	ResendURL string
	// MailboxURL is the dev mailbox, where the link can be read ("" in production: no mailbox).
	MailboxURL templ.SafeURL
}

// Initials are up to two letters for an avatar ("Ada Lovelace" → "AL", "ops@x.io" → "O").
func Initials(name string) string {
	if i := strings.IndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	var out []rune
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, unicode.ToUpper([]rune(w)[0]))
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return string(out)
}
