package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"golang.org/x/net/html"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/pages/account"
)

// DevMailboxCSP is the Content-Security-Policy of a dev mailbox message. The HTML body renders in
// a sandboxed srcdoc iframe (no scripts, no same-origin access), which inherits the page's policy:
// mail HTML carries inline styles and may show remote images, so this page alone allows both.
const DevMailboxCSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// devMailbox serves GET /dev/mailbox: the outbox, newest first (not in production: not mounted).
func (h *Handler) devMailbox(c echo.Context) error {
	mails, err := h.svc.DevMailbox(c.Request().Context(), 0)
	if err != nil {
		return mailboxError(err)
	}
	d := mailboxData(mails, "", time.Now())
	return render(c, http.StatusOK, account.Mailbox(page("Dev mailbox"), d), nil)
}

// devMail serves GET /dev/mailbox/:id[?view=text]: one mail beside the list; its HTML body in a
// sandboxed iframe (links open in the whole window), or its text with the links clickable.
func (h *Handler) devMail(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	mails, err := h.svc.DevMailbox(ctx, 0)
	if err != nil {
		return mailboxError(err)
	}
	d := mailboxData(mails, id, time.Now())
	status := http.StatusOK
	m, err := h.svc.DevMail(ctx, id)
	switch {
	case app.ErrorCode(err) == app.ENotFound:
		d.Problem = "This mail does not exist (any more)."
		status = http.StatusNotFound
	case err != nil:
		return err
	case m.Cleared:
		d.Problem = "This mail's content was cleared: it was sent, or its link has expired."
	default:
		d.Open = mailView(m, c.QueryParam("view"))
		c.Response().Header().Set("Content-Security-Policy", DevMailboxCSP) // overrides the server's strict CSP
	}
	return render(c, status, account.Mailbox(page(mailTitle(d)), d), nil)
}

func mailTitle(d account.MailboxData) string {
	if d.Open != nil {
		return d.Open.Subject + " · Dev mailbox"
	}
	return "Dev mailbox"
}

// mailboxError turns the Service's refusal (production) into the 404 page.
func mailboxError(err error) error {
	if app.ErrorCode(err) == app.ENotFound {
		return echo.ErrNotFound
	}
	return err
}

func mailboxData(mails []app.OutboxMail, openID string, now time.Time) account.MailboxData {
	d := account.MailboxData{ListURL: templ.SafeURL(pathDevMailbox), Home: templ.SafeURL(pathHome)}
	for _, m := range mails {
		d.Mails = append(d.Mails, account.MailSummary{
			ID: m.ID, To: m.To, Subject: m.Subject, Kind: mailKindLabel(m.Kind), When: ago(now, m.CreatedAt), At: m.CreatedAt,
			Sent: m.SentAt != nil, Href: mailURL(m.ID, ""), Active: m.ID == openID,
		})
	}
	return d
}

func mailURL(id, view string) templ.SafeURL {
	u := pathDevMailbox + "/" + url.PathEscape(id)
	if view != "" {
		u += "?view=" + view
	}
	return templ.SafeURL(u)
}

func mailView(m *app.OutboxMail, view string) *account.Mail {
	out := &account.Mail{
		ID: m.ID, To: m.To, Subject: m.Subject, Kind: mailKindLabel(m.Kind), CreatedAt: m.CreatedAt, SentAt: m.SentAt,
		HasHTML: strings.TrimSpace(m.HTML) != "", Text: linkify(m.Text),
		HTMLURL: mailURL(m.ID, ""), TextURL: mailURL(m.ID, "text"),
	}
	out.View = "html"
	if view == "text" || !out.HasHTML {
		out.View = "text"
	}
	if out.HasHTML {
		out.HTML = linksToTop(m.HTML)
		out.Links = htmlLinks(m.HTML)
	} else {
		for _, p := range out.Text {
			if p.Href != "" {
				out.Links = append(out.Links, string(p.Href))
			}
		}
	}
	return out
}

// linksToTop makes the links of a mail's HTML open in the whole window rather than inside the
// sandboxed iframe (where the dashboard, which refuses to be framed, would not load).
func linksToTop(body string) string {
	const base = `<base target="_top">`
	if i := strings.Index(strings.ToLower(body), "<head>"); i >= 0 {
		return body[:i+len("<head>")] + base + body[i+len("<head>"):]
	}
	return base + body
}

// htmlLinks are the distinct http(s) links of an HTML body, in order.
func htmlLinks(body string) []string {
	var out []string
	seen := map[string]bool{}
	z := html.NewTokenizer(strings.NewReader(body))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		t := z.Token()
		if t.Data != "a" {
			continue
		}
		for _, a := range t.Attr {
			if a.Key == "href" && isWebURL(a.Val) && !seen[a.Val] {
				seen[a.Val] = true
				out = append(out, a.Val)
			}
		}
	}
}

var urlRe = regexp.MustCompile(`https?://[^\s<>"']+`)

// linkify splits a text body into runs of text and links.
func linkify(text string) []account.TextPart {
	var out []account.TextPart
	last := 0
	for _, loc := range urlRe.FindAllStringIndex(text, -1) {
		u := strings.TrimRight(text[loc[0]:loc[1]], ".,;:!?)")
		end := loc[0] + len(u)
		if loc[0] > last {
			out = append(out, account.TextPart{Text: text[last:loc[0]]})
		}
		out = append(out, account.TextPart{Text: u, Href: templ.SafeURL(u)})
		last = end
	}
	if last < len(text) {
		out = append(out, account.TextPart{Text: text[last:]})
	}
	return out
}

func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// mailKindLabel says what a mail is for.
func mailKindLabel(kind string) string {
	switch app.MailKind(kind) {
	case app.MailVerifyEmail:
		return "Email verification"
	case app.MailResetPassword:
		return "Password reset"
	case app.MailInvitation:
		return "Invitation"
	}
	return kind
}

// ago says how long before now t was, briefly.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	}
	return t.UTC().Format("Jan 2, 15:04")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
