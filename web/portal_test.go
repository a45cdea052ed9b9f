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
