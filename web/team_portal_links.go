package web

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/teams"
)

// A team's open portal links, listed under the portal form, and ending one before it expires.

const (
	suffixPortalLinks     = "/portal-links"
	pathTeamPortalLinks   = pathTeamAccounts + suffixPortalLinks
	pathTeamPortalLinkEnd = pathTeamPortalLinks + "/:link/end"
	eventPortalLinks      = "portalLinksChanged"

	routeTeamPortalLinks      = "team.portal-links"
	routeTeamPortalLinkEndAsk = "team.portal-link.end.confirm"
	routeTeamPortalLinkEnd    = "team.portal-link.end"
)

// portalLinks lists the team's open links as the card shows them.
func (h *Handler) portalLinks(c echo.Context, teamID string) (teams.PortalLinks, error) {
	links, err := h.svc.ListPortalLinks(c.Request().Context(), teamID)
	if err != nil {
		return teams.PortalLinks{}, err
	}
	l := teams.PortalLinks{Self: templ.SafeURL(accountsURL(teamID) + suffixPortalLinks)}
	for _, k := range links {
		r := teams.PortalLinkRow{ID: k.ID, Created: viewerMoment(c, k.CreatedAt), Expires: viewerMoment(c, k.ExpiresAt),
			End: templ.SafeURL(accountsURL(teamID) + suffixPortalLinks + "/" + k.ID + "/end")}
		var names []string
		for _, n := range k.Types {
			r.Networks = append(r.Networks, string(n))
			names = append(names, n.DisplayName())
		}
		r.Names = strings.Join(names, ", ")
		l.Rows = append(l.Rows, r)
	}
	return l, nil
}

// portalLinksShow serves GET /teams/:id/accounts/portal-links: the list alone (htmx reloads it
// after a link ends).
func (h *Handler) portalLinksShow(c echo.Context) error {
	t, err := h.svc.GetTeam(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	l, err := h.portalLinks(c, t.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, teams.PortalLinksList(l), nil)
}

// portalLinkEndConfirm serves GET /teams/:id/accounts/portal-links/:link/end.
func (h *Handler) portalLinkEndConfirm(c echo.Context) error {
	t, link, err := h.findPortalLink(c)
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaTeams, t.Name, portalLinkEndConfirmation(t.ID, link))
}

// portalLinkEnd serves POST /teams/:id/accounts/portal-links/:link/end.
func (h *Handler) portalLinkEnd(c echo.Context) error {
	t, link, err := h.findPortalLink(c)
	if err != nil {
		return pageError(err)
	}
	if err := h.svc.EndPortalLink(c.Request().Context(), t.ID, link.ID); err != nil {
		return h.confirmFailed(c, areaTeams, t.Name, portalLinkEndConfirmation(t.ID, link), err)
	}
	msg := "The portal link for " + linkNetworks(link) + " no longer works."
	if isHTMX(c) {
		return dialogDone(c, msg, eventPortalLinks)
	}
	return flashRedirect(c, msg, accountsURL(t.ID))
}

// findPortalLink finds an open link of the team in the URL (404 when the team or the link is not
// the caller's, or the link has ended).
func (h *Handler) findPortalLink(c echo.Context) (*app.TeamDetail, app.PortalLinkInfo, error) {
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return nil, app.PortalLinkInfo{}, err
	}
	links, err := h.svc.ListPortalLinks(ctx, t.ID)
	if err != nil {
		return nil, app.PortalLinkInfo{}, err
	}
	for _, l := range links {
		if l.ID == c.Param("link") {
			return t, l, nil
		}
	}
	return nil, app.PortalLinkInfo{}, app.NotFound("Portal link")
}

func portalLinkEndConfirmation(teamID string, l app.PortalLinkInfo) components.Confirm {
	return components.Confirm{
		ID:     "confirm-end-portal-link",
		Title:  "End this portal link?",
		Text:   "The link for " + linkNetworks(l) + " stops working at once; whoever has it sees that it has expired. Accounts already connected through it stay connected.",
		Button: "End link",
		Action: templ.SafeURL(accountsURL(teamID) + suffixPortalLinks + "/" + l.ID + "/end"),
		Cancel: templ.SafeURL(accountsURL(teamID)),
	}
}

func linkNetworks(l app.PortalLinkInfo) string {
	names := make([]string, 0, len(l.Types))
	for _, n := range l.Types {
		names = append(names, n.DisplayName())
	}
	return strings.Join(names, ", ")
}
