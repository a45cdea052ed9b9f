package web

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/crier/crier/app"
)

// The audit log in sentences: "Maya Lopez created the API key “CI”". Each action says what happened
// in a marketer's words; its target is named as it is now, else as the line recorded it, else by
// its kind ("a post"). An action not listed here reads by its code, so a new one is never hidden.

// auditWords is one line's actor and what they did, apart so the page can set the actor in bold.
type auditWords struct {
	Actor string
	Did   string
}

// auditActor names who acted: a person by their name (else the email recorded), a key as a key,
// Crier's own jobs as Crier.
func auditActor(it app.AuditLogItem) string {
	recorded := valueOf(it.ActorName)
	switch it.ActorType {
	case "API_KEY":
		if recorded == "" {
			return "An API key"
		}
		return "The API key “" + recorded + "”"
	case "SYSTEM":
		if recorded == "" || recorded == "Crier" {
			return "Crier"
		}
		return "Crier (" + recorded + ")"
	}
	if it.ActorPerson != "" {
		return it.ActorPerson
	}
	if recorded == "" {
		return "Someone"
	}
	return recorded
}

// auditSentence says what one line of the log records.
func auditSentence(it app.AuditLogItem) auditWords {
	meta := func(k string) string {
		if v, ok := it.Metadata[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return ""
	}
	// named is the target as "the <noun> “name”" (the name the line recorded under the metadata key
	// recorded, else its name now), or "a <noun>" when nothing names it.
	named := func(noun string, recorded ...string) string {
		name := ""
		for _, k := range recorded {
			name = cmp.Or(name, meta(k))
		}
		name = cmp.Or(name, it.TargetName)
		if name == "" {
			return article(noun)
		}
		return "the " + noun + " “" + excerpt(name, 60) + "”"
	}
	network := func() string {
		if n := app.Network(meta("type")); n != "" {
			return n.DisplayName() + " "
		}
		return ""
	}
	account := func() string {
		if it.TargetName == "" {
			return "a " + network() + "account"
		}
		return "the " + network() + "account “" + excerpt(it.TargetName, 60) + "”"
	}
	var did string
	switch it.Action {
	case "post.created":
		did = "created " + named("post")
		if s := meta("status"); s != "" {
			did += " (" + strings.ToLower(s) + ")"
		}
	case "post.updated":
		did = "edited " + named("post")
	case "post.deleted":
		did = "deleted " + named("post")
	case "post.retried":
		did = "retried " + named("post")
	case "post.approved":
		did = "approved " + named("post")
	case "post.rejected":
		did = "sent back " + named("post")
		if n := meta("note"); n != "" {
			did += ": “" + excerpt(n, 80) + "”"
		}
	case "comment.created":
		did = "wrote a comment"
	case "comment.updated":
		did = "edited a comment"
	case "comment.deleted":
		did = "deleted a comment"
	case "comment.retried":
		did = "retried a comment"
	case app.EventTeamCreated:
		did = "created " + named("team", "name")
	case app.EventTeamUpdated:
		did = "renamed the team to “" + excerpt(meta("name"), 60) + "”"
		if meta("name") == "" {
			did = "changed " + named("team")
		}
	case app.EventTeamDeleted:
		did = "deleted " + named("team", "name")
	case "api_key.created":
		did = "created " + named("API key", "name")
	case "api_key.rolled":
		did = "rolled " + named("API key", "name")
	case "api_key.deleted":
		did = "deleted " + named("API key", "name")
	case "webhook.created":
		did = "added a webhook to " + cmp.Or(meta("url"), it.TargetName)
	case "webhook.updated":
		did = "changed the webhook to " + cmp.Or(meta("url"), it.TargetName)
	case "webhook.deleted":
		did = "deleted the webhook to " + cmp.Or(meta("url"), it.TargetName)
	case "webhook.secret_rotated":
		did = "rotated the signing secret of the webhook to " + cmp.Or(it.TargetName, "a URL")
	case "webhook.tested":
		did = "sent a test event to " + cmp.Or(it.TargetName, "a webhook")
	case "webhook.delivery_resent":
		did = "resent a delivery to " + cmp.Or(it.TargetName, "a webhook")
	case "webhook.deactivated":
		did = "turned off the webhook to " + cmp.Or(meta("url"), it.TargetName) + " after it kept failing"
	case "member.role_changed":
		did = "changed " + possessive(cmp.Or(it.TargetName, meta("email"), "a member")) + " role from " + roleWord(meta("from")) + " to " + roleWord(meta("to"))
	case "member.removed":
		did = "removed " + cmp.Or(it.TargetName, meta("email"), "a member") + " from the organization"
	case "invitation.created":
		did = "invited " + cmp.Or(meta("email"), it.TargetName, "someone") + " as " + roleWord(meta("role"))
	case "invitation.refreshed":
		did = "sent a new invitation to " + cmp.Or(meta("email"), it.TargetName, "someone")
	case "invitation.revoked":
		did = "revoked the invitation of " + cmp.Or(meta("email"), it.TargetName, "someone")
	case "invitation.accepted":
		did = "joined the organization as " + roleWord(meta("role"))
	case "user.signed_up":
		did = "signed up"
	case "user.updated":
		did = "updated their profile"
	case "user.password_changed":
		did = "changed their password"
	case "user.password_reset_requested":
		did = "asked for a password reset link"
	case "user.password_reset":
		did = "reset their password"
	case "user.email_verified":
		did = "confirmed their email address"
	case "user.verification_resent":
		did = "asked for a new confirmation email"
	case "organization.created":
		did = "created " + named("organization")
	case "organization.settings_updated":
		did = "changed the organization's settings"
	case "organization.deleted":
		did = "deleted " + named("organization")
	case "upload.created":
		did = "uploaded " + article(cmp.Or(meta("type"), "file"))
	case "upload.deleted":
		did = "deleted an upload"
	case "upload.renamed":
		did = "renamed an upload to “" + meta("name") + "”"
	case "upload.started":
		did = "started an upload"
	case "upload.aborted":
		did = "abandoned an upload"
	case "upload.expired":
		did = "removed uploads past their retention"
		if d := meta("retentionDays"); d != "" {
			did += " of " + d + " days"
		}
	case app.EventSocialAccountCreated:
		did = "connected " + account()
		if meta("copiedFrom") != "" {
			did = "copied " + account() + " from another team"
		}
	case app.EventSocialAccountUpdated:
		did = "reconnected " + account()
	case app.EventSocialAccountDeleted:
		did = "disconnected " + account()
	case "social-account.channel-set":
		did = "chose the destination of " + account()
	case "social-account.channel-unset":
		did = "cleared the destination of " + account()
	case "social-account.channels-refreshed":
		did = "refreshed the destinations of " + account()
	case "social-account.connection-check":
		did = "checked the connection of " + account()
		if meta("success") == "false" {
			did += ": it failed"
		}
	case "social-account.profile-refresh":
		did = "refreshed the profile of " + account()
	case "social-account.messaging-enabled":
		did = "turned on messages for " + account()
	case "social-account.messaging-disabled":
		did = "turned off messages for " + account()
	case "social-account.portal-link-created":
		did = "created a portal link for " + named("team")
	case "social-account.portal-link-ended":
		did = "ended a portal link of " + named("team")
	default:
		did = "did “" + it.Action + "”"
		if it.TargetName != "" {
			did += " on “" + excerpt(it.TargetName, 60) + "”"
		}
	}
	return auditWords{Actor: auditActor(it), Did: did}
}

// auditActionKinds are the log's filter by kind: a label and the prefix of its actions.
var auditActionKinds = []struct{ Label, Prefix string }{
	{"Posts", "post."},
	{"Comments", "comment."},
	{"Teams", "team."},
	{"Social accounts", "social-account."},
	{"Media", "upload."},
	{"Members", "member."},
	{"Invitations", "invitation."},
	{"API keys", "api_key."},
	{"Webhooks", "webhook."},
	{"Organization", "organization."},
	{"Sign-in and profile", "user."},
}

func article(noun string) string { return mediaArticle(noun) + " " + noun }

func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "’"
	}
	return name + "’s"
}

func roleWord(role string) string {
	if role == "" {
		return "a member"
	}
	return strings.ToLower(role)
}
