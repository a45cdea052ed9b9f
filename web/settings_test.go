package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

func TestSettingsPageShowsSettingsUsageAndTabs(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.get(t, "/settings")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Settings", doc.Find("h1").Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-settings"]`).AttrOr("aria-current", ""))
	require.Equal(t, "page", doc.Find(`[data-testid="tab-general"]`).AttrOr("aria-current", ""))
	require.Equal(t, "Settings sections", doc.Find(`[data-testid="settings-tabs"]`).AttrOr("aria-label", ""))
	for tab, href := range map[string]string{"general": "/settings", "members": "/settings/members", "api-keys": "/settings/api-keys", "audit-log": "/settings/audit-log"} {
		require.Equal(t, href, doc.Find(`[data-testid="tab-`+tab+`"]`).AttrOr("href", ""), tab)
	}
	require.Contains(t, doc.Find(`[data-testid="plan"]`).Text(), "FREE plan")
	require.Equal(t, "Ada's organization", doc.Find("#settings-name").AttrOr("value", ""))
	require.Equal(t, "number", doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("type", ""))
	require.Equal(t, "switch", doc.Find("#settings-verboseErrors").AttrOr("role", ""))
	for kind, text := range map[string]string{"posts": "0 of 20", "comments": "0 of 50", "uploads": "0 of 200"} {
		u := doc.Find(`[data-testid="usage-` + kind + `"]`)
		require.Contains(t, u.Text(), text, kind)
		require.Equal(t, "progress", goquery.NodeName(u.Find("progress")), kind)
	}
	require.Equal(t, 1, doc.Find(`[data-testid="danger-zone"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="portal-preview"] [data-brand-preview]`).Length())
	requireNoInlineStyleOrScript(t, doc)

	for path, tab := range map[string]string{"/settings/members": "members", "/settings/api-keys": "api-keys", "/settings/audit-log": "audit-log"} {
		doc := parse(t, b.get(t, path))
		require.Equal(t, "page", doc.Find(`[data-testid="tab-`+tab+`"]`).AttrOr("aria-current", ""), path)
		require.Equal(t, 1, doc.Find(`[aria-current="page"][data-testid^="tab-"]`).Length(), path)
		require.Equal(t, "page", doc.Find(`[data-testid="nav-settings"]`).AttrOr("aria-current", ""), path)
		require.Equal(t, 1, doc.Find("h1").Length(), path)
		requireNoInlineStyleOrScript(t, doc)
	}
}

func TestSettingsSave(t *testing.T) {
	t.Parallel()
	b := setup(t)

	form := url.Values{"name": {"Hopper & Co"}, "verboseErrors": {"on"}, "deleteDisconnectedAfterHours": {"48"}}
	rec := b.post(t, "/settings", form)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/settings", rec.Header().Get("Location"))
	doc := parse(t, b.get(t, "/settings", "Cookie", cookieHeader(b.cookie, rec)))
	require.Contains(t, doc.Find(`[data-testid="flash"]`).Text(), "Settings saved.")
	require.Equal(t, "Hopper & Co", doc.Find("#settings-name").AttrOr("value", ""))
	require.Equal(t, "48", doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("value", ""))
	_, on := doc.Find("#settings-verboseErrors").Attr("checked")
	require.True(t, on)
	_, on = doc.Find("#settings-uploadsCompression").Attr("checked")
	require.False(t, on)
	org, err := b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.True(t, org.ShowVerboseErrors)
	require.False(t, org.UploadsCompressionEnabled)
	require.Equal(t, 48, org.DeleteAccountAfter)

	// Out of range and not a number: beside the field, the rest kept.
	for _, hours := range []string{"500", "soon"} {
		rec := b.post(t, "/settings", url.Values{"name": {"Renamed"}, "uploadsCompression": {"on"}, "deleteDisconnectedAfterHours": {hours}})
		require.Equal(t, http.StatusUnprocessableEntity, rec.Code, hours)
		doc := parse(t, rec)
		require.NotEmpty(t, doc.Find("#settings-deleteDisconnectedAfterHours-error").Text(), hours)
		require.Equal(t, hours, doc.Find("#settings-deleteDisconnectedAfterHours").AttrOr("value", ""), hours)
		require.Equal(t, "Renamed", doc.Find("#settings-name").AttrOr("value", ""), hours)
		_, on := doc.Find("#settings-uploadsCompression").Attr("checked")
		require.True(t, on, hours)
	}
	rec = b.post(t, "/settings", url.Values{"name": {""}, "deleteDisconnectedAfterHours": {"1"}})
	require.Contains(t, parse(t, rec).Find("#settings-name-error").Text(), "Enter a value")
	org, err = b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Equal(t, "Hopper & Co", org.Name)

	// htmx: the card with a confirmation.
	rec = b.post(t, "/settings", url.Values{"name": {"Hopper Media"}, "deleteDisconnectedAfterHours": {"0"}}, hx("settings-general")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, 1, doc.Find("section#settings-general").Length())
	require.Contains(t, doc.Find(`[data-testid="form-saved"]`).Text(), "Settings saved.")
}

func TestBrandingSave(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/settings/branding", url.Values{"portalBrandName": {"Hopper Media"}, "portalLogoUrl": {"http://insecure.example.com/l.png"}, "portalAccentColor": {"teal"}}, hx("settings-branding")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find("section#settings-branding").Length())
	require.Contains(t, doc.Find("#branding-portalLogoUrl-error").Text(), "https")
	require.Contains(t, doc.Find("#branding-portalAccentColor-error").Text(), "#RRGGBB")
	require.Equal(t, "true", doc.Find("#branding-portalAccentColor").AttrOr("aria-invalid", ""))
	require.Equal(t, "teal", doc.Find("#branding-portalAccentColor").AttrOr("value", ""))
	require.Equal(t, "Hopper Media", doc.Find("#branding-portalBrandName").AttrOr("value", ""))
	// The preview shows what was typed; the script applies the accent.
	require.Contains(t, doc.Find(`[data-brand-preview-name]`).First().Text(), "Hopper Media")

	rec = b.post(t, "/settings/branding", url.Values{"portalBrandName": {"Hopper Media"}, "portalLogoUrl": {"https://cdn.example.com/l.png"}, "portalAccentColor": {"#0f766e"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	doc = parse(t, b.get(t, "/settings"))
	require.Equal(t, "#0f766e", doc.Find("#branding-portalAccentColor").AttrOr("value", ""))
	require.Equal(t, "#0f766e", doc.Find("[data-brand-preview]").AttrOr("data-accent", ""))
	require.Equal(t, "#0f766e", doc.Find("[data-brand-swatch]").AttrOr("value", ""))
	require.Contains(t, doc.Find("[data-brand-preview-logo-url]").Text(), "https://cdn.example.com/l.png")
	require.Equal(t, "HM", strings.TrimSpace(doc.Find("[data-brand-preview-logo]").Text()))
	org, err := b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Equal(t, "#0f766e", *org.PortalAccentColor)

	// Emptying a field clears it; the preview falls back to the organization's name.
	rec = b.post(t, "/settings/branding", url.Values{"portalBrandName": {""}, "portalLogoUrl": {""}, "portalAccentColor": {""}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	org, err = b.svc.GetOrganization(b.ctx(t))
	require.NoError(t, err)
	require.Nil(t, org.PortalAccentColor)
	doc = parse(t, b.get(t, "/settings"))
	require.Contains(t, doc.Find(`[data-brand-preview-name]`).First().Text(), "Ada's organization")
}

func TestDeleteOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)

	rec := b.post(t, "/settings/delete", url.Values{"confirmName": {"wrong name"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find("#delete-confirmName-error").Text(), "Type the organization's name exactly")
	require.Equal(t, "wrong name", doc.Find("#delete-confirmName").AttrOr("value", ""))

	rec = b.post(t, "/settings/delete", url.Values{"confirmName": {"Ada's organization"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/login", rec.Header().Get("Location")) // no other organization: signed out
	var deleted bool
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT deleted_at IS NOT NULL FROM organizations WHERE id = $1`, b.orgID()).Scan(&deleted))
	require.True(t, deleted)
}

func TestDeleteOrganizationMovesToAnotherOne(t *testing.T) {
	t.Parallel()
	b := setup(t)
	other, err := b.svc.CreateOrganization(b.ctx(t), "Second org")
	require.NoError(t, err)

	rec := b.post(t, "/settings/delete", url.Values{"confirmName": {"Ada's organization"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/", rec.Header().Get("Location"))
	// The new session cookie points at the remaining organization.
	doc := parse(t, b.get(t, "/settings", "Cookie", cookieHeader(b.cookie, rec)))
	require.Equal(t, other.OrganizationName, doc.Find("#settings-name").AttrOr("value", ""))
}

func TestMembersAndInvitations(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, memberID := b.addMember(t, app.RoleMember, "Mia")

	doc := parse(t, b.get(t, "/settings/members"))
	require.Equal(t, 2, doc.Find(`[data-testid="member-row"]`).Length())
	me := doc.Find(`[data-testid="member-row"]`).First()
	require.Contains(t, me.Text(), "You")
	require.Equal(t, 0, me.Find(`[data-testid="member-remove"]`).Length())
	var roles []string
	me.Find("option").Each(func(_ int, s *goquery.Selection) { roles = append(roles, s.AttrOr("value", "")) })
	require.Equal(t, []string{"OWNER", "ADMIN", "MEMBER"}, roles)
	require.Equal(t, "OWNER", me.Find("option[selected]").AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="invitations-empty"]`).Text(), "No pending invitations")

	// Invalid email: beside the field, kept.
	rec := b.post(t, "/settings/invitations", url.Values{"email": {"not-an-email"}, "role": {"ADMIN"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "not-an-email", doc.Find("#invite-email").AttrOr("value", ""))
	require.NotEmpty(t, doc.Find("#invite-email-error").Text())
	require.Equal(t, "ADMIN", doc.Find("#invite-role option[selected]").AttrOr("value", ""))

	// htmx invite: the card with the new invitation.
	rec = b.post(t, "/settings/invitations", url.Values{"email": {"grace@example.com"}, "role": {"ADMIN"}}, hx("invitations")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find("section#invitations").Length())
	require.Contains(t, doc.Find(`[data-testid="form-saved"]`).Text(), "Invitation sent to grace@example.com.")
	row := doc.Find(`[data-testid="invitation-row"]`)
	require.Contains(t, row.Text(), "grace@example.com")
	require.Contains(t, row.Text(), "Admin")
	invID := strings.TrimPrefix(row.AttrOr("id", ""), "invitation-")

	// Revoke through the dialog.
	doc = parse(t, b.get(t, "/settings/invitations/"+invID+"/revoke", hx("org-dialog")...))
	require.Contains(t, doc.Find("dialog h2").Text(), "Revoke the invitation to grace@example.com?")
	rec = b.post(t, "/settings/invitations/"+invID+"/revoke", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "invitationsChanged")
	doc = parse(t, b.get(t, "/settings/members", hx("invitations")...))
	require.Equal(t, 0, doc.Find(`[data-testid="invitation-row"]`).Length())

	// Change Mia's role (htmx: the row, saved).
	rec = b.post(t, "/settings/members/"+memberID+"/role", url.Values{"role": {"ADMIN"}}, hx("member-"+memberID)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Equal(t, "ADMIN", doc.Find("option[selected]").AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="role-saved"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-testid="role-error"]`).Length())

	// Remove Mia (full page flow).
	doc = parse(t, b.get(t, "/settings/members/"+memberID+"/remove"))
	require.Contains(t, doc.Find("h1").Text(), "Remove Mia?")
	rec = b.post(t, "/settings/members/"+memberID+"/remove", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, 1, parse(t, b.get(t, "/settings/members")).Find(`[data-testid="member-row"]`).Length())
}

func TestLastOwnerErrorsShown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	members, _, err := b.svc.ListMembers(b.ctx(t), app.Page{Limit: 10})
	require.NoError(t, err)
	me := members[0].ID

	rec := b.post(t, "/settings/members/"+me+"/role", url.Values{"role": {"ADMIN"}}, hx("member-"+me)...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parseBody(t, "<table>"+rec.Body.String()+"</table>")
	require.Contains(t, doc.Find(`[data-testid="role-error"]`).Text(), "The last OWNER cannot be removed or demoted")
	require.Equal(t, "OWNER", doc.Find("option[selected]").AttrOr("value", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="role-saved"]`).Length())

	rec = b.post(t, "/settings/members/"+me+"/role", url.Values{"role": {"MEMBER"}})
	require.Equal(t, http.StatusForbidden, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`#member-`+me+` [data-testid="role-error"]`).Text(), "last OWNER")

	rec = b.post(t, "/settings/members/"+me+"/remove", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-error"]`).Text(), "last OWNER")
}

func TestAPIKeysSecretShownOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)

	doc := parse(t, b.get(t, "/settings/api-keys"))
	require.Contains(t, doc.Find(`[data-testid="api-keys"] [data-testid="empty-state"]`).Text(), "No API keys yet")

	rec := b.post(t, "/settings/api-keys", url.Values{"name": {""}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, parse(t, rec).Find("#key-name-error").Text(), "Enter a value")

	rec = b.post(t, "/settings/api-keys", url.Values{"name": {"Production server"}})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	doc = parse(t, rec)
	secret := doc.Find(`[data-testid="new-secret"] [data-testid="secret-value"]`).AttrOr("value", "")
	require.True(t, strings.HasPrefix(secret, "crier_"), secret)
	require.Equal(t, "#new-secret-value", doc.Find(`[data-testid="copy-secret"]`).AttrOr("data-copy", ""))
	p, err := b.svc.AuthenticateAPIKey(context.Background(), secret)
	require.NoError(t, err)
	require.Equal(t, b.orgID(), p.OrganizationID)
	row := doc.Find(`[data-testid="key-row"]`)
	require.Equal(t, 1, row.Length())
	require.Contains(t, row.Text(), "Production server")
	require.Equal(t, "crier_"+secret[6:14]+"_…", row.Find(`[data-testid="key-prefix"]`).Text())
	require.Equal(t, "Never", row.Find(`[data-testid="key-last-used"]`).Text())

	// Never again: not on reload.
	page := b.get(t, "/settings/api-keys")
	require.NotContains(t, page.Body.String(), secret)
	require.NotContains(t, page.Body.String(), secret[15:])
	doc = parse(t, page)
	require.Equal(t, 0, doc.Find(`[data-testid="new-secret"]`).Length())
	require.NotContains(t, doc.Find(`[data-testid="key-last-used"]`).Text(), "Never") // AuthenticateAPIKey used it

	// htmx create answers the stack alone.
	rec = b.post(t, "/settings/api-keys", url.Values{"name": {"CI"}}, hx("api-keys")...)
	require.NotContains(t, rec.Body.String(), "<html")
	doc = parse(t, rec)
	require.Equal(t, 1, doc.Find("div#api-keys").Length())
	require.Equal(t, 1, doc.Find(`[data-testid="new-secret"]`).Length())
}

func TestAPIKeyRollAndDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := b.svc.CreateAPIKey(b.ctx(t), "Production server")
	require.NoError(t, err)

	doc := parse(t, b.get(t, "/settings/api-keys/"+key.ID+"/roll", hx("org-dialog")...))
	require.Contains(t, doc.Find("dialog h2").Text(), "Roll “Production server”?")

	rec := b.post(t, "/settings/api-keys/"+key.ID+"/roll", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "apiKeysChanged")
	doc = parse(t, rec)
	rolled := doc.Find(`[data-testid="rolled-dialog"] [data-testid="secret-value"]`).AttrOr("value", "")
	require.True(t, strings.HasPrefix(rolled, "crier_"))
	require.NotEqual(t, key.Key, rolled)
	_, err = b.svc.AuthenticateAPIKey(context.Background(), key.Key)
	require.Equal(t, app.EUnauthorized, app.ErrorCode(err))
	_, err = b.svc.AuthenticateAPIKey(context.Background(), rolled)
	require.NoError(t, err)
	// The list reloads (its own target) without the secret.
	rec = b.get(t, "/settings/api-keys", hx("api-keys-list")...)
	require.Equal(t, 1, parse(t, rec).Find("section#api-keys-list").Length())
	require.NotContains(t, rec.Body.String(), rolled)

	// Without htmx the roll answers the page with the new secret.
	rec = b.post(t, "/settings/api-keys/"+key.ID+"/roll", nil)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="new-secret"]`).Text(), "New secret for “Production server”")

	rec = b.post(t, "/settings/api-keys/"+key.ID+"/delete", nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "apiKeysChanged")
	require.Contains(t, rec.Body.String(), "API key “Production server” deleted.")
	_, total, err := b.svc.ListAPIKeys(b.ctx(t), "", app.Page{Limit: 10})
	require.NoError(t, err)
	require.Zero(t, total)
}

func TestAuditLogPagedInViewersTimezone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	zone := "Asia/Tokyo"
	_, err := b.svc.UpdateMe(b.ctx(t), app.UpdateMeParams{Timezone: &zone})
	require.NoError(t, err)
	for i := range 22 {
		_, err := b.svc.CreateAPIKey(b.ctx(t), fmt.Sprintf("Key %02d", i))
		require.NoError(t, err)
	}

	doc := parse(t, b.get(t, "/settings/audit-log"))
	require.Contains(t, doc.Find(`[data-testid="audit-log"]`).Text(), "Times are in Asia/Tokyo")
	rows := doc.Find(`[data-testid="audit-row"]`)
	require.Equal(t, app.DefaultAuditLogLimit, rows.Length())
	first := rows.First()
	require.Equal(t, "api_key.created", first.Find(`[data-testid="audit-action"]`).Text())
	require.Contains(t, first.Text(), "name")
	require.Equal(t, "Ada created the API key “Key 21”", strings.Join(strings.Fields(first.Find(`[data-testid="audit-sentence"]`).Text()), " "))
	when, err := time.Parse(time.RFC3339, first.Find("time").AttrOr("datetime", ""))
	require.NoError(t, err)
	tokyo, err := time.LoadLocation(zone)
	require.NoError(t, err)
	require.Equal(t, when.In(tokyo).Format("Jan 2, 2006, 15:04:05"), first.Find("time").Text())
	require.Contains(t, doc.Find(`[data-testid="pager"]`).Text(), "Showing 1–20 of")

	rec := b.get(t, "/settings/audit-log?page=2", hx("audit-log")...)
	doc = parse(t, rec)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Equal(t, 1, doc.Find("section#audit-log").Length())
	require.Positive(t, doc.Find(`[data-testid="audit-row"]`).Length())
	require.Equal(t, "user.signed_up", doc.Find(`[data-testid="audit-action"]`).Last().Text())
}
