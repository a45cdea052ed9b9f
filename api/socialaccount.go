package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// SocialAccountConnect answers POST /social-account/connect with the network's consent URL.
func (s *Server) SocialAccountConnect(ctx context.Context, req SocialAccountConnectRequestObject) (SocialAccountConnectResponseObject, error) {
	b := req.Body
	p := app.ConnectParams{Type: app.Network(b.Type), TeamID: b.TeamId, RedirectURL: b.RedirectUrl, ServerURL: deref(b.ServerUrl),
		Options: app.ConnectOptions{DisableAutoLogin: flag(b.DisableAutoLogin), TikTokForceLogin: flag(b.TiktokForceLogin),
			ForceBrowserOAuth: flag(b.ForceBrowserOAuth), WithBusinessScope: flag(b.WithBusinessScope), WithMessagingScope: flag(b.WithMessagingScope)}}
	if b.InstagramConnectionMethod != nil {
		p.Options.InstagramConnectionMethod = string(*b.InstagramConnectionMethod)
	}
	u, err := s.svc.ConnectSocialAccount(ctx, p)
	if err != nil {
		return nil, err
	}
	return SocialAccountConnect200JSONResponse{Url: u}, nil
}

// SocialAccountDisconnect answers DELETE /social-account/disconnect with the disconnected account.
func (s *Server) SocialAccountDisconnect(ctx context.Context, req SocialAccountDisconnectRequestObject) (SocialAccountDisconnectResponseObject, error) {
	a, err := s.svc.DisconnectSocialAccount(ctx, req.Body.TeamId, app.Network(req.Body.Type))
	if err != nil {
		return nil, err
	}
	return SocialAccountDisconnect200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountSetChannel answers POST /social-account/set-channel.
func (s *Server) SocialAccountSetChannel(ctx context.Context, req SocialAccountSetChannelRequestObject) (SocialAccountSetChannelResponseObject, error) {
	a, err := s.svc.SetChannel(ctx, req.Body.TeamId, app.Network(req.Body.Type), req.Body.ChannelId)
	if err != nil {
		return nil, err
	}
	return SocialAccountSetChannel200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountUnsetChannel answers POST /social-account/unset-channel.
func (s *Server) SocialAccountUnsetChannel(ctx context.Context, req SocialAccountUnsetChannelRequestObject) (SocialAccountUnsetChannelResponseObject, error) {
	a, err := s.svc.UnsetChannel(ctx, req.Body.TeamId, app.Network(req.Body.Type))
	if err != nil {
		return nil, err
	}
	return SocialAccountUnsetChannel200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountRefreshChannels answers POST /social-account/refresh-channels.
func (s *Server) SocialAccountRefreshChannels(ctx context.Context, req SocialAccountRefreshChannelsRequestObject) (SocialAccountRefreshChannelsResponseObject, error) {
	a, err := s.svc.RefreshChannels(ctx, req.Body.TeamId, app.Network(req.Body.Type))
	if err != nil {
		return nil, err
	}
	return SocialAccountRefreshChannels200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountGetByType answers GET /social-account/by-type.
func (s *Server) SocialAccountGetByType(ctx context.Context, req SocialAccountGetByTypeRequestObject) (SocialAccountGetByTypeResponseObject, error) {
	a, err := s.svc.SocialAccountByType(ctx, req.Params.TeamId, app.Network(req.Params.Type))
	if err != nil {
		return nil, err
	}
	return SocialAccountGetByType200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountGetAccountsToDelete answers GET /social-account/to-delete.
func (s *Server) SocialAccountGetAccountsToDelete(ctx context.Context, req SocialAccountGetAccountsToDeleteRequestObject) (SocialAccountGetAccountsToDeleteResponseObject, error) {
	page, size := 1, 20
	if req.Params.Page != nil {
		page = int(*req.Params.Page)
	}
	if req.Params.PageSize != nil {
		size = int(*req.Params.PageSize)
	}
	items, total, err := s.svc.SocialAccountsToDelete(ctx, page, size)
	if err != nil {
		return nil, err
	}
	return SocialAccountGetAccountsToDelete200JSONResponse{Items: toSocialAccounts(items), Pagination: Pagination{
		Page: float32(page), PageSize: float32(size), Total: float32(total), TotalPages: float32((total + size - 1) / size)}}, nil
}

// SocialAccountConnectionCheck answers POST /social-account/connection-check.
func (s *Server) SocialAccountConnectionCheck(ctx context.Context, req SocialAccountConnectionCheckRequestObject) (SocialAccountConnectionCheckResponseObject, error) {
	r, err := s.svc.ConnectionCheck(ctx, req.Body.TeamId, app.Network(req.Body.Type))
	if err != nil {
		return nil, err
	}
	msg := r.Message
	return SocialAccountConnectionCheck200JSONResponse{Success: r.Success, Message: &msg, SocialAccountId: r.AccountID,
		CheckedAt: r.CheckedAt.Format(time.RFC3339), Limit: r.Limit, Used: r.Used, Remaining: r.Remaining, WindowSeconds: r.WindowSeconds}, nil
}

// SocialAccountProfileRefresh answers POST /social-account/profile-refresh.
func (s *Server) SocialAccountProfileRefresh(ctx context.Context, req SocialAccountProfileRefreshRequestObject) (SocialAccountProfileRefreshResponseObject, error) {
	r, err := s.svc.ProfileRefresh(ctx, req.Body.TeamId, app.Network(req.Body.Type))
	if err != nil {
		return nil, err
	}
	msg := r.Message
	return SocialAccountProfileRefresh200JSONResponse{Success: r.Success, Message: &msg, SocialAccountId: r.Account.ID,
		SocialAccount: toSocialAccount(r.Account), RefreshedAt: r.RefreshedAt.Format(time.RFC3339),
		Limit: r.Limit, Used: r.Used, Remaining: r.Remaining, WindowSeconds: r.WindowSeconds}, nil
}

// SocialAccountEnableMessaging answers POST /social-account/messaging/enable.
func (s *Server) SocialAccountEnableMessaging(ctx context.Context, req SocialAccountEnableMessagingRequestObject) (SocialAccountEnableMessagingResponseObject, error) {
	a, err := s.svc.SetMessaging(ctx, req.Body.TeamId, app.Network(req.Body.Type), true)
	if err != nil {
		return nil, err
	}
	return SocialAccountEnableMessaging200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountDisableMessaging answers POST /social-account/messaging/disable.
func (s *Server) SocialAccountDisableMessaging(ctx context.Context, req SocialAccountDisableMessagingRequestObject) (SocialAccountDisableMessagingResponseObject, error) {
	a, err := s.svc.SetMessaging(ctx, req.Body.TeamId, app.Network(req.Body.Type), false)
	if err != nil {
		return nil, err
	}
	return SocialAccountDisableMessaging200JSONResponse(toSocialAccount(*a)), nil
}

// SocialAccountCopy answers POST /social-account/copy with the copies made.
func (s *Server) SocialAccountCopy(ctx context.Context, req SocialAccountCopyRequestObject) (SocialAccountCopyResponseObject, error) {
	types := make([]app.Network, 0, len(req.Body.SocialAccountTypes))
	for _, t := range req.Body.SocialAccountTypes {
		types = append(types, app.Network(t))
	}
	out, err := s.svc.CopySocialAccounts(ctx, req.Body.FromTeamId, req.Body.ToTeamId, types, flag(req.Body.ResetChannel))
	if err != nil {
		return nil, err
	}
	return SocialAccountCopy200JSONResponse(toSocialAccounts(out)), nil
}

// RegisterOAuthCallback mounts GET /oauth/callback/:network, where networks send the user back
// after consent (outside /api/v1: it is a browser redirect, authenticated by the sealed state). It
// redirects to the connect's redirectUrl with the outcome; without one it shows the outcome.
//
// It also mounts the password page of networks without OAuth (socialaccount_password.go).
func RegisterOAuthCallback(e *echo.Echo, svc *app.Service) {
	e.GET(app.CallbackPath+":network", func(c echo.Context) error {
		n, ok := app.NetworkFromPath(c.Param("network"))
		if !ok {
			return echo.ErrNotFound
		}
		res := svc.CompleteConnect(c.Request().Context(), n, c.QueryParams())
		if res.RedirectURL != "" {
			return c.Redirect(http.StatusFound, res.RedirectURL)
		}
		if res.Err != nil {
			return res.Err
		}
		return c.String(http.StatusOK, n.DisplayName()+" account connected. You can close this window.")
	})
}

func toSocialAccounts(in []app.SocialAccount) []SocialAccount {
	out := make([]SocialAccount, 0, len(in))
	for _, a := range in {
		out = append(out, toSocialAccount(a))
	}
	return out
}

func toSocialAccount(a app.SocialAccount) SocialAccount {
	created, updated := a.CreatedAt, a.UpdatedAt
	status := SocialAccountMessagingStatus(a.MessagingStatus)
	out := SocialAccount{Id: a.ID, Type: NetworkType(a.Type), TeamId: a.TeamID, Username: a.Username, DisplayName: a.DisplayName,
		Bio: a.Bio, AvatarUrl: a.AvatarURL, ExternalId: a.ExternalID, ProviderPageId: a.ProviderPageID, UserUsername: a.UserUsername,
		UserDisplayName: a.UserDisplayName, UserEmail: a.UserEmail, UserId: a.UserID, MastodonServerId: a.MastodonServerID,
		IsTiktokBusinessAccount: a.IsTikTokBusinessAccount, DisconnectedCheckTryAt: a.DisconnectedCheckTryAt, DeleteOn: a.DeleteOn,
		MessagingStatus: &status, MessagingStatusUpdatedAt: a.MessagingStatusUpdatedAt, MessagingLastError: a.MessagingLastError,
		CreatedAt: &created, UpdatedAt: &updated, DeletedAt: a.DeletedAt}
	if a.InstagramConnectionMethod != nil {
		m := SocialAccountInstagramConnectionMethod(*a.InstagramConnectionMethod)
		out.InstagramConnectionMethod = &m
	}
	if a.TwitterSubType != nil {
		t := SocialAccountTwitterSubType(*a.TwitterSubType)
		out.TwitterSubType = &t
	}
	if a.Channels != nil {
		cs := make([]Channel, 0, len(a.Channels))
		for _, c := range a.Channels {
			ch := Channel{Id: c.ID, Name: c.Name, Username: c.Username, Address: c.Address, AvatarUrl: c.AvatarURL}
			if c.Webhook != nil {
				ch.Webhook = &ChannelWebhook{Id: c.Webhook.ID, Name: c.Webhook.Name, Avatar: c.Webhook.Avatar, Url: c.Webhook.URL}
			}
			if c.Metadata != nil {
				m := c.Metadata
				ch.Metadata = &ChannelMetadata{AllowImages: m.AllowImages, AllowVideos: m.AllowVideos, AllowGalleries: m.AllowGalleries,
					LinkFlairEnabled: m.LinkFlairEnabled, FacebookPageId: m.FacebookPageID}
			}
			cs = append(cs, ch)
		}
		out.Channels = &cs
	}
	return out
}

func flag(b *bool) bool { return b != nil && *b }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
