package api

import (
	"context"

	"github.com/crier/crier/app"
)

// SocialAccountCreatePortalLink answers POST /social-account/create-portal-link with the portal URL.
func (s *Server) SocialAccountCreatePortalLink(ctx context.Context, req SocialAccountCreatePortalLinkRequestObject) (SocialAccountCreatePortalLinkResponseObject, error) {
	b := req.Body
	types := make([]app.Network, 0, len(b.SocialAccountTypes))
	for _, t := range b.SocialAccountTypes {
		types = append(types, app.Network(t))
	}
	p := app.PortalLinkParams{TeamID: b.TeamId, Types: types, RedirectURL: deref(b.RedirectUrl), ServerURL: deref(b.ServerUrl),
		ExpiresIn: b.ExpiresIn, LogoURL: deref(b.LogoUrl), UserName: deref(b.UserName), UserLogoURL: deref(b.UserLogoUrl),
		Options: app.ConnectOptions{DisableAutoLogin: flag(b.DisableAutoLogin), TikTokForceLogin: flag(b.TiktokForceLogin),
			ForceBrowserOAuth: flag(b.ForceBrowserOAuth), WithBusinessScope: flag(b.WithBusinessScope)},
		Display: app.PortalDisplay{GoBackButtonText: deref(b.GoBackButtonText), HidePoweredBy: flag(b.HidePoweredBy),
			HideGoBackButton: flag(b.HideGoBackButton), HideUserLogo: flag(b.HideUserLogo), HideUserName: flag(b.HideUserName),
			HideLanguageSwitcher: flag(b.HideLanguageSwitcher), ShowModalOnConnectSuccess: flag(b.ShowModalOnConnectSuccess)}}
	if b.Language != nil {
		p.Display.Language = string(*b.Language)
	}
	if b.MaxSocialAccountsConnected != nil {
		p.MaxConnected = int(*b.MaxSocialAccountsConnected)
	}
	if b.InstagramConnectionMethod != nil {
		p.Options.InstagramConnectionMethod = string(*b.InstagramConnectionMethod)
	}
	u, err := s.svc.CreatePortalLink(ctx, p)
	if err != nil {
		return nil, err
	}
	return SocialAccountCreatePortalLink200JSONResponse{Url: u}, nil
}

// PortalGet answers GET /portal/{token} (no key: the token is the credential).
func (s *Server) PortalGet(ctx context.Context, req PortalGetRequestObject) (PortalGetResponseObject, error) {
	v, err := s.svc.Portal(ctx, req.Token)
	if err != nil {
		return nil, err
	}
	return PortalGet200JSONResponse(toPortalView(v)), nil
}

// PortalConnect answers POST /portal/{token}/connect with the consent URL.
func (s *Server) PortalConnect(ctx context.Context, req PortalConnectRequestObject) (PortalConnectResponseObject, error) {
	u, err := s.svc.PortalConnect(ctx, req.Token, app.Network(req.Body.Type), deref(req.Body.ServerUrl))
	if err != nil {
		return nil, err
	}
	return PortalConnect200JSONResponse{Url: u}, nil
}

// PortalDisconnect answers POST /portal/{token}/disconnect.
func (s *Server) PortalDisconnect(ctx context.Context, req PortalDisconnectRequestObject) (PortalDisconnectResponseObject, error) {
	if err := s.svc.PortalDisconnect(ctx, req.Token, app.Network(req.Body.Type)); err != nil {
		return nil, err
	}
	return PortalDisconnect200JSONResponse{Success: true}, nil
}

func toPortalView(v *app.PortalView) PortalView {
	exp := v.ExpiresAt
	out := PortalView{OrganizationName: v.OrganizationName, BrandName: v.BrandName, LogoUrl: v.LogoURL, AccentColor: v.AccentColor,
		TeamName: v.TeamName, RedirectUrl: v.RedirectURL, ExpiresAt: &exp, AllowedTypes: []string{}}
	for _, t := range v.AllowedTypes {
		out.AllowedTypes = append(out.AllowedTypes, string(t))
	}
	type item = struct {
		AvatarUrl   *string `json:"avatarUrl,omitempty"`
		DisplayName *string `json:"displayName,omitempty"`
		Type        *string `json:"type,omitempty"`
		Username    *string `json:"username,omitempty"`
	}
	connected := make([]item, 0, len(v.Connected))
	for _, a := range v.Connected {
		t := string(a.Type)
		connected = append(connected, item{AvatarUrl: a.AvatarURL, DisplayName: a.DisplayName, Type: &t, Username: a.Username})
	}
	out.Connected = &connected
	return out
}
