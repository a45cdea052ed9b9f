package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// The portal: a visitor without a session sees the branded page, connects (CSRF required) and
// is sent to the network's consent page; unknown tokens are a clear 404; the accent is a stylesheet.
func TestPortalPage(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	ctx := b.ownerCtx(t)
	link, err := b.svc.CreatePortalLink(ctx, app.PortalLinkParams{TeamID: team.ID, Types: []app.Network{app.LinkedIn, app.Mastodon}})
	require.NoError(t, err)
	path := strings.TrimPrefix(link, "http://crier.test")

	visitor := b.anon(t)
	rec := visitor.get(path)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Contains(t, rec.Header().Get("Content-Security-Policy"), "form-action 'self' https:")
	doc := parse(t, rec)
	require.Equal(t, 2, doc.Find(`[data-network]`).Length())
	require.Contains(t, doc.Find(`[data-network="LINKEDIN"]`).Text(), "Not connected")
	require.Equal(t, 1, doc.Find(`[data-network="MASTODON"] input[name="serverUrl"]`).Length())

	// Without the CSRF token the form is refused (400: missing token); with it the visitor goes to the consent page.
	rec = visitor.postRaw(path+"/connect", url.Values{"type": {"LINKEDIN"}})
	require.Equal(t, http.StatusBadRequest, rec.Code) // echo's CSRF middleware: token missing
	rec = visitor.post(path+"/connect", url.Values{"type": {"LINKEDIN"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	require.True(t, strings.HasPrefix(rec.Header().Get("Location"), b.sandboxURL+"/sandbox/linkedin/"), rec.Header().Get("Location"))

	// A network the link does not offer is refused on the page, in place.
	rec = visitor.post(path+"/connect", url.Values{"type": {"TIKTOK"}})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "failed", parse(t, rec).Find(`[data-outcome]`).AttrOr("data-outcome", ""))

	// The outcome of a callback is shown.
	doc = parse(t, visitor.get(path+"?success=false&message=denied"))
	require.Contains(t, doc.Find(`[data-outcome="failed"]`).Text(), "denied")

	rec = visitor.get("/portal/nope")
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Body.String(), "Link not available")

	rec = visitor.get("/portal-accent/e11d48.css")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), "--portal-accent:#e11d48")
	require.Equal(t, http.StatusNotFound, visitor.get("/portal-accent/red;x.css").Code)
}

// The link's display options shape the page, and its cap refuses one network too many.
func TestPortalDisplayOptionsAndCap(t *testing.T) {
	t.Parallel()
	b := setupAccounts(t)
	team := b.createTeam(t, "Acme Coffee")
	link, err := b.svc.CreatePortalLink(b.ownerCtx(t), app.PortalLinkParams{TeamID: team.ID, Types: []app.Network{app.LinkedIn, app.TikTok},
		RedirectURL: "https://agency.example/done", UserName: "Jo from Acme", UserLogoURL: "https://agency.example/jo.png", MaxConnected: 1,
		Display: app.PortalDisplay{GoBackButtonText: "Back to Agency", HidePoweredBy: true, ShowModalOnConnectSuccess: true}})
	require.NoError(t, err)
	path := strings.TrimPrefix(link, "http://crier.test")
	visitor := b.anon(t)
	doc := parse(t, visitor.get(path))
	require.Contains(t, doc.Find(`[data-testid="portal-user"]`).Text(), "Jo from Acme")
	require.Equal(t, "https://agency.example/jo.png", doc.Find(`[data-testid="portal-user"] img`).AttrOr("src", ""))
	require.Equal(t, "Back to Agency", strings.TrimSpace(doc.Find(`[data-testid="portal-done"]`).Text()))
	require.Equal(t, "https://agency.example/done", doc.Find(`[data-testid="portal-done"]`).AttrOr("href", ""))
	require.Zero(t, doc.Find(".portal__powered").Length())
	require.Contains(t, doc.Find(".portal__count").Text(), "up to 1")

	// A success shows the dialog; with one account connected the cap refuses the second network.
	doc = parse(t, visitor.get(path+"?success=true&type=LINKEDIN"))
	require.Contains(t, doc.Find(`[data-testid="portal-success-dialog"]`).Text(), "LinkedIn connected.")
	b.connect(t, team.ID, app.LinkedIn, "acme")
	rec := visitor.post(path+"/connect", url.Values{"type": {"TIKTOK"}})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-outcome="failed"]`).Text(), "allows 1 connected account")
	// Reconnecting the connected one is still allowed.
	rec = visitor.post(path+"/connect", url.Values{"type": {"LINKEDIN"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
}
