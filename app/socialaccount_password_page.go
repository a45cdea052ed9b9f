package app

import (
	"context"
	"net/url"
	"strings"

	"github.com/crier/crier/store"
)

// PasswordPageView is what the password page (Bluesky's app-password sign-in) shows: the network,
// in the branding of the organization the account joins, where "Go back" leads, and the server
// only when the user chose one of their own.
type PasswordPageView struct {
	Network     Network
	Brand       string // the organization's portal brand name, else its name
	LogoURL     *string
	AccentColor *string
	TeamName    string
	Server      string // a server of the user's own choosing, by its host; "" for the network's default or the sandbox
	Sandbox     bool   // the server is Crier's sandbox: no real account is used
	BackURL     string // the portal link the connect started from, else the connect's redirect URL
}

// PasswordPage answers the password page's view for a valid state of network n.
func (s *Service) PasswordPage(ctx context.Context, n Network, state string) (*PasswordPageView, error) {
	st, err := s.PasswordPageInfo(n, state)
	if err != nil {
		return nil, err
	}
	org, err := s.q.GetOrganization(ctx, st.OrganizationID)
	if err != nil {
		return nil, NotFoundOr(err, "Organization", "app: password page")
	}
	v := &PasswordPageView{Network: n, Brand: org.Name, LogoURL: org.PortalLogoUrl, AccentColor: org.PortalAccentColor, Sandbox: s.opts.Sandbox}
	if org.PortalBrandName != nil && strings.TrimSpace(*org.PortalBrandName) != "" {
		v.Brand = *org.PortalBrandName
	}
	if team, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: st.TeamID, OrganizationID: st.OrganizationID}); err == nil {
		v.TeamName = team.Name
	}
	if st.PortalToken != "" {
		v.BackURL = strings.TrimRight(s.opts.BaseURL, "/") + PortalPath + st.PortalToken
	} else {
		v.BackURL = st.RedirectURL
	}
	if !s.opts.Sandbox && st.ServerURL != "" {
		if a, err := s.Adapter(n); err == nil {
			if pc, ok := a.(PasswordConnector); ok && strings.TrimRight(st.ServerURL, "/") != strings.TrimRight(pc.DefaultServer(), "/") {
				if u, err := url.Parse(st.ServerURL); err == nil && u.Host != "" {
					v.Server = u.Host
				}
			}
		}
	}
	return v, nil
}
