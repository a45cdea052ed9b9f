package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server"
	"github.com/crier/crier/web"
)

// accountsBundle is the dashboard over a Service whose adapters talk to the sandbox networks,
// served on their own test server (the Service's BaseURL, where callbacks land, stays crier.test).
type accountsBundle struct {
	*testBundle
	sandboxURL string
}

func setupAccounts(t *testing.T) *accountsBundle {
	t.Helper()
	sb := httptest.NewServer(sandbox.New())
	t.Cleanup(sb.Close)
	b := setupService(t, nil, func(d *app.Deps) {
		d.Networks = network.Adapters(network.Options{Sandbox: true, BaseURL: sb.URL, AllowPrivate: true})
	})
	return &accountsBundle{testBundle: b, sandboxURL: sb.URL}
}

// noFollow is an HTTP client that answers redirects instead of following them.
var noFollow = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// connect runs the dashboard's connect for a network: the Connect form, the sandbox's consent
// (approve=1), then the callback through the Service. It answers the page path the callback
// sends the browser back to, with the outcome in its query.
func (b *accountsBundle) connect(t *testing.T, teamID string, n app.Network, login string) string {
	t.Helper()
	rec := b.post(t, "/teams/"+teamID+"/accounts/connect", url.Values{"type": {string(n)}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	authorize := rec.Header().Get("Location")
	require.True(t, strings.HasPrefix(authorize, b.sandboxURL+"/sandbox/"), authorize)
	res, err := noFollow.Get(authorize + "&approve=1&login=" + url.QueryEscape(login))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusFound, res.StatusCode)
	callback, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/oauth/callback/"+strings.ToLower(string(n)), callback.Path)
	out := b.svc.CompleteConnect(context.Background(), n, callback.Query())
	require.NoError(t, out.Err)
	back, err := url.Parse(out.RedirectURL)
	require.NoError(t, err)
	require.Equal(t, "crier.test", back.Host)
	require.Equal(t, "/teams/"+teamID+"/accounts", back.Path)
	return back.RequestURI()
}

func TestAccountsPageListsTheNetworks(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")

	// The team's page links to it.
	doc := parse(t, b.get(t, "/teams/"+team.ID))
	require.Equal(t, "/teams/"+team.ID+"/accounts", doc.Find(`[data-testid="manage-accounts"]`).AttrOr("href", ""))
	require.Contains(t, doc.Find(`[data-testid="team-accounts"]`).Text(), "No accounts connected yet")

	rec := b.get(t, "/teams/"+team.ID+"/accounts")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, web.AccountsCSP, rec.Header().Get("Content-Security-Policy"))
	doc = parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	src := doc.Find(`script[src^="/static/js/accounts.js"]`).AttrOr("src", "")
	require.NotEmpty(t, src) // drops the connect's outcome from the address
	require.Equal(t, http.StatusOK, b.get(t, src).Code)
	require.Equal(t, "Social accounts", doc.Find("h1").Text())
	require.Equal(t, "0 of 15", doc.Find(`[data-testid="connected-count"]`).Text())
	tiles := doc.Find(`[data-testid="network-grid"] > li`)
	require.Equal(t, len(app.Networks), tiles.Length())
	tiles.Each(func(i int, s *goquery.Selection) {
		n := string(app.Networks[i])
		require.Equal(t, "connect-"+n, s.AttrOr("data-testid", ""))
		require.Equal(t, n, s.Find("svg[data-network-icon]").AttrOr("data-network-icon", ""), n)
		require.Equal(t, "true", s.Find("svg").AttrOr("aria-hidden", ""), n)
		form := s.Find(`form[data-testid="connect-form"]`)
		require.Equal(t, "/teams/"+team.ID+"/accounts/connect", form.AttrOr("action", ""), n)
		require.Equal(t, n, form.Find(`input[name="type"]`).AttrOr("value", ""), n)
		require.Equal(t, 1, form.Find(`input[name="_csrf"]`).Length(), n)
		require.Equal(t, "Connect "+app.Network(n).DisplayName(), form.Find("button").AttrOr("aria-label", ""), n)
	})
	// Mastodon asks for its server, with a label.
	server := doc.Find(`[data-testid="connect-MASTODON"] input[name="serverUrl"]`)
	require.Equal(t, 1, server.Length())
	require.Equal(t, 1, doc.Find(`label[for="`+server.AttrOr("id", "")+`"]`).Length())
	// Empty, with an example: a user names their server (never the sandbox's own address).
	require.Empty(t, server.AttrOr("value", ""))
	require.Equal(t, "mastodon.social", server.AttrOr("placeholder", ""))
	// The outcome region is live, empty until a connect comes back.
	require.Equal(t, "polite", doc.Find("#accounts-outcome").AttrOr("aria-live", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="accounts-outcome"]`).Length())
	// The portal form offers every network, a day by default.
	require.Equal(t, 15, doc.Find(`[data-testid="portal-form"] input[name="socialAccountTypes"][checked]`).Length())
	require.Equal(t, "1440", doc.Find(`#portal-expiresIn option[selected]`).AttrOr("value", ""))
}

func TestAccountConnectRedirectsAndComesBackWithTheOutcome(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")

	// The Connect form goes to the network's consent page, with the page as the way back.
	rec := b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"TWITTER"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, web.AccountsCSP, rec.Header().Get("Content-Security-Policy"))
	loc, err := url.Parse(rec.Header().Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/sandbox/x/i/oauth2/authorize", loc.Path)
	require.Equal(t, "http://crier.test/oauth/callback/twitter", loc.Query().Get("redirect_uri"))
	// htmx leaves the page itself.
	rec = b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"TWITTER"}}, hx("connect-TWITTER")...)
	require.Equal(t, http.StatusNoContent, rec.Code)
	require.True(t, strings.HasPrefix(rec.Header().Get("HX-Redirect"), b.sandboxURL+"/sandbox/x/"))

	// Instagram offers both logins: Instagram Login goes to Instagram's own consent page.
	require.Equal(t, 1, parse(t, b.get(t, "/teams/"+team.ID+"/accounts")).Find(`[data-testid="connect-INSTAGRAM"] select[name="instagramConnectionMethod"]`).Length())
	rec = b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"INSTAGRAM"}, "instagramConnectionMethod": {"INSTAGRAM"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	loc, err = url.Parse(rec.Header().Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/sandbox/instagram/oauth/authorize", loc.Path)
	require.Contains(t, loc.Query().Get("scope"), "instagram_business_basic")
	rec = b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"INSTAGRAM"}, "instagramConnectionMethod": {"FACEBOOK"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.NotContains(t, rec.Header().Get("Location"), "/sandbox/instagram/oauth/authorize")

	// Bluesky goes to Crier's own app-password page.
	rec = b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"BLUESKY"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.True(t, strings.HasPrefix(rec.Header().Get("Location"), "http://crier.test/connect/bluesky?state="), rec.Header().Get("Location"))

	// Through the consent and the callback, back to the page with the outcome.
	back := b.connect(t, team.ID, app.Facebook, "acme_coffee")
	q, err := url.ParseQuery(strings.SplitN(back, "?", 2)[1])
	require.NoError(t, err)
	require.Equal(t, "true", q.Get("success"))
	require.Equal(t, "FACEBOOK", q.Get("type"))
	doc := parse(t, b.get(t, back))
	outcome := doc.Find(`[data-testid="accounts-outcome"]`)
	require.Equal(t, "connected", outcome.AttrOr("data-outcome", ""))
	require.Equal(t, "Facebook connected as Sandbox acme_coffee (Facebook). Choose the page it publishes to below.", strings.TrimSpace(outcome.Text()))
	require.Equal(t, "1 of 15", doc.Find(`[data-testid="connected-count"]`).Text())
	fb := doc.Find(`[data-testid="account-FACEBOOK"]`)
	require.Equal(t, "Sandbox acme_coffee (Facebook)", fb.Find(`[data-testid="account-name"]`).Text())
	require.Equal(t, "SA", fb.Find(`[data-testid="account-initials"]`).Text()) // its avatar is on another origin
	require.Equal(t, 0, fb.Find("img").Length())
	require.Equal(t, "Choose a page", strings.TrimSpace(fb.Find(`[data-testid="account-state"]`).Text()))
	options := fb.Find(`[data-testid="channel-select"] option`)
	require.Equal(t, 3, options.Length()) // "Choose a page…" and the two pages
	require.Contains(t, options.Eq(1).Text(), "Sandbox Bakery")
	require.Equal(t, 0, doc.Find(`[data-testid="connect-FACEBOOK"]`).Length())
	require.Equal(t, 14, doc.Find(`[data-testid="network-grid"] > li`).Length())

	// A refused consent comes back as a failure.
	doc = parse(t, b.get(t, "/teams/"+team.ID+"/accounts?type=TWITTER&success=false&error=access_denied&message=X%3A+The+user+denied+the+request"))
	outcome = doc.Find(`[data-testid="accounts-outcome"]`)
	require.Equal(t, "failed", outcome.AttrOr("data-outcome", ""))
	require.Contains(t, outcome.Text(), "Connecting X failed: X: The user denied the request")
	// An unknown type is no outcome.
	require.Equal(t, 0, parse(t, b.get(t, "/teams/"+team.ID+"/accounts?type=MYSPACE&success=true")).Find(`[data-testid="accounts-outcome"]`).Length())
}

func TestAccountConnectRefusalShownInItsTile(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")

	// Mastodon without a server: the tile says so, the page is 422.
	rec := b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"MASTODON"}, "serverUrl": {""}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	tile := doc.Find(`[data-testid="connect-MASTODON"]`)
	require.Equal(t, "Required", strings.TrimSpace(tile.Find(`[data-testid="connect-error"]`).Text()))
	require.Equal(t, "true", tile.Find(`input[name="serverUrl"]`).AttrOr("aria-invalid", ""))

	// htmx gets the tile alone, with what was typed.
	rec = b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"MASTODON"}, "serverUrl": {"ftp://nowhere"}}, hx("connect-MASTODON")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotContains(t, rec.Body.String(), "<html")
	doc = parse(t, rec)
	require.Equal(t, "connect-MASTODON", doc.Find("li").First().AttrOr("id", ""))
	require.Equal(t, "ftp://nowhere", doc.Find(`input[name="serverUrl"]`).AttrOr("value", ""))
	require.Equal(t, 1, doc.Find(`[data-testid="connect-error"]`).Length())

	// An unknown network is a bad request.
	require.Equal(t, http.StatusBadRequest, b.post(t, "/teams/"+team.ID+"/accounts/connect", url.Values{"type": {"MYSPACE"}}).Code)
}

func TestAccountChannelPicker(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	b.connect(t, team.ID, app.Facebook, "acme")
	a, err := b.svc.SocialAccountByType(b.ctx(t), team.ID, app.Facebook)
	require.NoError(t, err)
	require.Len(t, a.Channels, 2)
	bikes := a.Channels[1]
	base := "/teams/" + team.ID + "/accounts/facebook"

	// htmx: the account's row comes back with the confirmation.
	rec := b.post(t, base+"/channel", url.Values{"channelId": {bikes.ID}}, hx("account-FACEBOOK")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	row := doc.Find(`li#account-FACEBOOK`)
	require.Equal(t, 1, row.Length())
	require.Equal(t, "Facebook now publishes to Sandbox Bikes.", strings.TrimSpace(row.Find(`[data-testid="account-flash"]`).Text()))
	require.Equal(t, "status", row.Find(`[data-testid="account-flash"]`).AttrOr("role", ""))
	require.Equal(t, bikes.ID, row.Find(`[data-testid="channel-select"] option[selected]`).AttrOr("value", ""))
	require.Equal(t, "Sandbox Bikes", row.Find(`[data-testid="account-name"]`).Text())
	require.Equal(t, "Connected", strings.TrimSpace(row.Find(`[data-testid="account-state"]`).Text()))
	a, err = b.svc.SocialAccountByType(b.ctx(t), team.ID, app.Facebook)
	require.NoError(t, err)
	require.Equal(t, bikes.ID, *a.ProviderPageID)

	// A channel that is not the account's: the refusal in the row.
	rec = b.post(t, base+"/channel", url.Values{"channelId": {"123"}}, hx("account-FACEBOOK")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="channel-error"]`).Text(), "Not one of the account's channels")

	// Refresh and unset.
	rec = b.post(t, base+"/channels/refresh", nil, hx("account-FACEBOOK")...)
	require.Equal(t, "List refreshed: 2 pages.", strings.TrimSpace(parse(t, rec).Find(`[data-testid="account-flash"]`).Text()))
	rec = b.post(t, base+"/channel/unset", nil, hx("account-FACEBOOK")...)
	require.Equal(t, "The page is no longer chosen.", strings.TrimSpace(parse(t, rec).Find(`[data-testid="account-flash"]`).Text()))
	a, err = b.svc.SocialAccountByType(b.ctx(t), team.ID, app.Facebook)
	require.NoError(t, err)
	require.Nil(t, a.ProviderPageID)

	// Without htmx: back to the page (See Other).
	rec = b.post(t, base+"/channel", url.Values{"channelId": {bikes.ID}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams/"+team.ID+"/accounts", rec.Header().Get("Location"))

	// X has no channels to choose.
	b.connect(t, team.ID, app.Twitter, "acme")
	rec = b.post(t, "/teams/"+team.ID+"/accounts/twitter/channel", url.Values{"channelId": {"1"}}, hx("account-TWITTER")...)
	require.Contains(t, parse(t, rec).Find(`[data-testid="account-problem"]`).Text(), "X accounts have no channels to choose")
	// A network without an account: 404.
	require.Equal(t, http.StatusNotFound, b.post(t, "/teams/"+team.ID+"/accounts/linkedin/channel", url.Values{"channelId": {"1"}}).Code)
}

func TestAccountDisconnectWithConfirmation(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	b.connect(t, team.ID, app.Twitter, "acme")
	path := "/teams/" + team.ID + "/accounts/twitter/disconnect"

	// The trigger opens the confirmation: a page without JavaScript, a dialog with htmx.
	doc := parse(t, b.get(t, "/teams/"+team.ID+"/accounts"))
	require.Equal(t, path, doc.Find(`[data-testid="disconnect-TWITTER"]`).AttrOr("href", ""))
	doc = parse(t, b.get(t, path))
	require.Contains(t, doc.Find("h1").Text(), "Disconnect X from “Acme Coffee”?")
	require.Equal(t, path, doc.Find(`[data-testid="confirm-page"] form`).AttrOr("action", ""))
	rec := b.get(t, path, hx("org-dialog")...)
	dialog := parse(t, rec).Find(`dialog[data-testid="confirm-dialog"]`)
	require.Equal(t, 1, dialog.Length())
	require.Contains(t, dialog.Text(), "Sandbox acme (X) stops receiving this team’s posts")

	rec = b.post(t, path, nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "accountsChanged")
	require.Contains(t, rec.Body.String(), "X account Sandbox acme (X) disconnected.")
	_, err := b.svc.SocialAccountByType(b.ctx(t), team.ID, app.Twitter)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))

	// The body reloads without it.
	rec = b.get(t, "/teams/"+team.ID+"/accounts", hx("accounts-body")...)
	require.NotContains(t, rec.Body.String(), "<html")
	doc = parse(t, rec)
	require.Equal(t, 0, doc.Find(`[data-testid="account-TWITTER"]`).Length())
	require.Equal(t, 1, doc.Find(`[data-testid="connect-TWITTER"]`).Length())

	// Again: nothing left to disconnect.
	require.Equal(t, http.StatusNotFound, b.post(t, path, nil).Code)
	// Without htmx: back to the page.
	b.connect(t, team.ID, app.Twitter, "acme")
	rec = b.post(t, path, nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/teams/"+team.ID+"/accounts", rec.Header().Get("Location"))
}

func TestAccountNeedingReconnectIsFlagged(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	b.connect(t, team.ID, app.LinkedIn, "acme")
	_, err := b.pool.Exec(context.Background(), `UPDATE social_accounts SET reconnect_required_at = now(), last_error = 'LINKEDIN AUTH_EXPIRED (HTTP 401): token revoked',
		avatar_url = 'data:image/png;base64,iVBORw0KGgo=' WHERE team_id = $1`, team.ID)
	require.NoError(t, err)

	doc := parse(t, b.get(t, "/teams/"+team.ID+"/accounts"))
	row := doc.Find(`[data-testid="account-LINKEDIN"]`)
	require.Equal(t, "Reconnect needed", strings.TrimSpace(row.Find(`[data-testid="account-state"]`).Text()))
	prompt := row.Find(`[data-testid="reconnect-prompt"]`)
	require.Equal(t, "alert", prompt.AttrOr("role", ""))
	require.Contains(t, prompt.Text(), "LinkedIn no longer accepts Crier’s access")
	require.Contains(t, prompt.Find(`[data-testid="account-error"]`).Text(), "token revoked")
	require.Equal(t, "/teams/"+team.ID+"/accounts/connect", prompt.Find("form").AttrOr("action", ""))
	require.Equal(t, "LINKEDIN", prompt.Find(`input[name="type"]`).AttrOr("value", ""))
	// A data: avatar is shown (the CSP allows it).
	require.Equal(t, "data:image/png;base64,iVBORw0KGgo=", row.Find("img.account__avatar").AttrOr("src", ""))

	// The team's page says so too.
	doc = parse(t, b.get(t, "/teams/"+team.ID))
	require.Contains(t, doc.Find(`[data-testid="team-account-LINKEDIN"]`).Text(), "Reconnect needed")
}

func TestPortalLinkCreation(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	path := "/teams/" + team.ID + "/accounts/portal-link"

	// htmx: the card comes back with the link and a copy button.
	rec := b.post(t, path, url.Values{"socialAccountTypes": {"LINKEDIN", "TIKTOK", "LINKEDIN"}, "expiresIn": {"60"},
		"redirectUrl": {"https://agency.example/thanks"}}, hx("portal-link")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	doc := parse(t, rec)
	link := doc.Find(`[data-testid="portal-url"]`).AttrOr("value", "")
	require.True(t, strings.HasPrefix(link, "http://crier.test/portal/"), link)
	require.Equal(t, "#portal-url", doc.Find(`[data-testid="copy-portal-url"]`).AttrOr("data-copy", ""))
	require.Equal(t, 2, doc.Find(`input[name="socialAccountTypes"][checked]`).Length())
	require.Equal(t, "60", doc.Find(`#portal-expiresIn option[selected]`).AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="portal-result"]`).Text(), "Valid until")

	v, err := b.svc.Portal(context.Background(), strings.TrimPrefix(link, "http://crier.test/portal/"))
	require.NoError(t, err)
	require.Equal(t, []app.Network{app.LinkedIn, app.TikTok}, v.AllowedTypes)
	require.Equal(t, "Acme Coffee", v.TeamName)
	require.Equal(t, "https://agency.example/thanks", *v.RedirectURL)
	require.WithinDuration(t, time.Now().Add(time.Hour), v.ExpiresAt, time.Minute)

	// Refusals stay in the card with the choices.
	rec = b.post(t, path, url.Values{"expiresIn": {"60"}, "redirectUrl": {"nope"}}, hx("portal-link")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Choose at least one network", strings.TrimSpace(doc.Find(`[data-testid="portal-networks-error"]`).Text()))
	require.Equal(t, "nope", doc.Find(`#portal-redirectUrl`).AttrOr("value", ""))
	require.Equal(t, 0, doc.Find(`[data-testid="portal-url"]`).Length())
	require.Equal(t, 0, doc.Find(`input[name="socialAccountTypes"][checked]`).Length())

	// Without htmx: the page, 422 when refused, 200 with the link.
	require.Equal(t, http.StatusUnprocessableEntity, b.post(t, path, url.Values{"expiresIn": {"60"}}).Code)
	rec = b.post(t, path, url.Values{"socialAccountTypes": {"YOUTUBE"}})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="portal-url"]`).AttrOr("value", ""), "/portal/")
}

// A team's open portal links are listed under the form; ending one (after a confirmation) stops it
// at once and the list reloads; an ended link is no longer listed and cannot be ended twice.
func TestPortalLinksListedAndEnded(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	doc := parse(t, b.get(t, "/teams/"+team.ID+"/accounts"))
	require.Equal(t, 1, doc.Find(`[data-testid="portal-links-empty"]`).Length())

	rec := b.post(t, "/teams/"+team.ID+"/accounts/portal-link", url.Values{"socialAccountTypes": {"INSTAGRAM", "TIKTOK"}, "expiresIn": {"60"}}, hx("portal-link")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	token := strings.TrimPrefix(doc.Find(`[data-testid="portal-url"]`).AttrOr("value", ""), "http://crier.test/portal/")
	rows := doc.Find(`[data-testid="portal-link-row"]`)
	require.Equal(t, 1, rows.Length())
	require.Contains(t, rows.Text(), "Instagram, TikTok")
	id := rows.AttrOr("data-link-id", "")

	// The list alone, as htmx reloads it.
	rec = b.get(t, "/teams/"+team.ID+"/accounts/portal-links", hx("portal-links")...)
	require.Equal(t, 1, parse(t, rec).Find(`[data-testid="portal-link-row"]`).Length())

	end := "/teams/" + team.ID + "/accounts/portal-links/" + id + "/end"
	doc = parse(t, b.get(t, end, hx("org-dialog")...))
	require.Equal(t, "End this portal link?", doc.Find("dialog h2").Text())
	_, err := b.svc.Portal(context.Background(), token)
	require.NoError(t, err) // not yet

	rec = b.post(t, end, nil, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "portalLinksChanged")
	_, err = b.svc.Portal(context.Background(), token)
	require.Equal(t, app.ENotFound, app.ErrorCode(err))
	doc = parse(t, b.get(t, "/teams/"+team.ID+"/accounts/portal-links", hx("portal-links")...))
	require.Equal(t, 0, doc.Find(`[data-testid="portal-link-row"]`).Length())
	require.Equal(t, http.StatusNotFound, b.post(t, end, nil).Code)
}

func TestAccountsPagesTenantIsolation(t *testing.T) {
	t.Parallel()
	a := setupAccounts(t)
	mine := a.createTeam(t, "Acme Coffee")
	a.connect(t, mine.ID, app.Facebook, "acme")

	// Organization B with a connected account.
	ctx := context.Background()
	bSess, err := a.svc.Signup(ctx, app.SignupParams{Email: "bob-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com", Password: "a long enough password", FirstName: "Bob"})
	require.NoError(t, err)
	bp, err := a.svc.AuthenticateSession(ctx, bSess.User.ID, *bSess.CurrentOrganizationID, bSess.Generation)
	require.NoError(t, err)
	bctx := app.WithPrincipal(ctx, bp)
	name := "Bob's team"
	bTeam, err := a.svc.CreateTeam(bctx, app.TeamParams{Name: &name})
	require.NoError(t, err)
	u, err := a.svc.ConnectSocialAccount(bctx, app.ConnectParams{Type: app.Facebook, TeamID: bTeam.ID})
	require.NoError(t, err)
	res, err := noFollow.Get(u + "&approve=1&login=bob")
	require.NoError(t, err)
	res.Body.Close()
	cb, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.NoError(t, a.svc.CompleteConnect(ctx, app.Facebook, cb.Query()).Err)
	bAcct, err := a.svc.SocialAccountByType(bctx, bTeam.ID, app.Facebook)
	require.NoError(t, err)

	_, err = a.svc.CreatePortalLink(bctx, app.PortalLinkParams{TeamID: bTeam.ID, Types: []app.Network{app.TikTok}})
	require.NoError(t, err)
	bLinks, err := a.svc.ListPortalLinks(bctx, bTeam.ID)
	require.NoError(t, err)
	bLink := bLinks[0].ID

	base := "/teams/" + bTeam.ID + "/accounts"
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, base},
		{http.MethodPost, base + "/connect"},
		{http.MethodPost, base + "/portal-link"},
		{http.MethodGet, base + "/portal-links"},
		{http.MethodGet, base + "/portal-links/" + bLink + "/end"},
		{http.MethodPost, base + "/portal-links/" + bLink + "/end"},
		{http.MethodPost, base + "/facebook/channel"},
		{http.MethodPost, base + "/facebook/channel/unset"},
		{http.MethodPost, base + "/facebook/channels/refresh"},
		{http.MethodGet, base + "/facebook/disconnect"},
		{http.MethodPost, base + "/facebook/disconnect"},
		{http.MethodGet, "/teams/not-a-uuid/accounts"},
		{http.MethodGet, "/teams/" + mine.ID + "/accounts/myspace/disconnect"},
	} {
		var rec *httptest.ResponseRecorder
		if tc.method == http.MethodGet {
			rec = a.get(t, tc.path)
		} else {
			rec = a.post(t, tc.path, url.Values{"type": {"FACEBOOK"}, "channelId": {bAcct.Channels[0].ID}, "socialAccountTypes": {"FACEBOOK"}})
		}
		require.Equal(t, http.StatusNotFound, rec.Code, tc.method+" "+tc.path)
		require.NotContains(t, rec.Body.String(), "Bob", tc.path)
		require.NotContains(t, rec.Body.String(), "Sandbox bob", tc.path)
	}

	// B's portal link still works.
	bLinks, err = a.svc.ListPortalLinks(bctx, bTeam.ID)
	require.NoError(t, err)
	require.Len(t, bLinks, 1)
	// Nor can A end it through A's own team's address.
	require.Equal(t, http.StatusNotFound, a.post(t, "/teams/"+mine.ID+"/accounts/portal-links/"+bLink+"/end", nil).Code)

	// B's account is untouched, and A's page shows nothing of B.
	got, err := a.svc.SocialAccountByType(bctx, bTeam.ID, app.Facebook)
	require.NoError(t, err)
	require.Nil(t, got.ProviderPageID)
	require.NotContains(t, a.get(t, "/teams/"+mine.ID+"/accounts").Body.String(), "Sandbox bob")
}

func TestAccountConnectionCheck(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	b.connect(t, team.ID, app.Twitter, "acme")
	path := "/teams/" + team.ID + "/accounts/twitter/check"

	rec := b.post(t, path, nil, hx("account-TWITTER")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "The connection works.", strings.TrimSpace(parse(t, rec).Find(`[data-testid="account-flash"]`).Text()))

	// The network revokes Crier's access: the check marks the account, its row asks to reconnect.
	res, err := http.Post(b.sandboxURL+"/sandbox/x/_sandbox/revoke-tokens", "application/json", nil)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	rec = b.post(t, path, nil, hx("account-TWITTER")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="account-error"]`).Text(), "token was invalid")
	require.Equal(t, "Reconnect needed", strings.TrimSpace(doc.Find(`[data-testid="account-state"]`).Text()))
	require.Equal(t, 1, doc.Find(`[data-testid="reconnect-prompt"]`).Length())
}

func TestAccountChannelsListedForPerPostNetworks(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	b.connect(t, team.ID, app.Reddit, "acme")
	a, err := b.svc.SocialAccountByType(b.ctx(t), team.ID, app.Reddit)
	require.NoError(t, err)
	require.NotEmpty(t, a.Channels)

	doc := parse(t, b.get(t, "/teams/"+team.ID+"/accounts"))
	row := doc.Find(`[data-testid="account-REDDIT"]`)
	require.Equal(t, 0, row.Find(`[data-testid="channel-select"]`).Length()) // chosen per post, not here
	require.Equal(t, len(a.Channels), row.Find(`[data-testid="channel-list"] .channel-chip`).Length())
	require.Equal(t, "Connected", strings.TrimSpace(row.Find(`[data-testid="account-state"]`).Text()))

	rec := b.post(t, "/teams/"+team.ID+"/accounts/reddit/channels/refresh", nil, hx("account-REDDIT")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "List refreshed: "+strconv.Itoa(len(a.Channels))+" subreddits.", strings.TrimSpace(parse(t, rec).Find(`[data-testid="account-flash"]`).Text()))
}

func TestTeamsListShowsConnectedNetworks(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	acme := b.createTeam(t, "Acme Coffee")
	empty := b.createTeam(t, "Blue Bottle")
	b.connect(t, acme.ID, app.Twitter, "acme")
	b.connect(t, acme.ID, app.Facebook, "acme")

	doc := parse(t, b.get(t, "/teams"))
	cell := doc.Find(`#team-` + acme.ID + ` a[data-testid="team-networks"]`)
	require.Equal(t, "/teams/"+acme.ID+"/accounts", cell.AttrOr("href", ""))
	require.Equal(t, "Accounts: Facebook, X", cell.AttrOr("aria-label", ""))
	var marks []string
	cell.Find("svg[data-network-icon]").Each(func(_ int, s *goquery.Selection) { marks = append(marks, s.AttrOr("data-network-icon", "")) })
	require.Equal(t, []string{"FACEBOOK", "TWITTER"}, marks)
	require.Equal(t, 0, doc.Find(`#team-`+empty.ID+` [data-testid="team-networks"]`).Length())
}

// The accounts page's CSP is the server's with one change: Connect forms may be redirected to the
// networks' consent pages.
func TestAccountsCSPFollowsTheServers(t *testing.T) {
	t.Parallel()
	require.Contains(t, server.CSP, "form-action 'self';")
	require.Equal(t, strings.Replace(server.CSP, "form-action 'self';", "form-action 'self' https:;", 1), web.AccountsCSP)
}

// Pages without an icon link (the portal, the sandbox's consent pages) make browsers ask for
// /favicon.ico: it answers Crier's icon, not a 404 (which browsers report as a console error).
func TestFaviconICO(t *testing.T) {
	t.Parallel()
	b := setup(t)
	rec := b.get(t, "/favicon.ico")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "image/svg+xml", rec.Header().Get("Content-Type"))
	require.Contains(t, rec.Body.String(), "<svg")
}
