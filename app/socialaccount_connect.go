package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
)

// ConnectParams is the body of POST /social-account/connect (and of the portal's connect).
type ConnectParams struct {
	Type        Network
	TeamID      string
	RedirectURL string
	ServerURL   string
	Options     ConnectOptions
}

// CallbackPath is where networks send the user back: BaseURL + CallbackPath + lower(network).
const CallbackPath = "/oauth/callback/"

// CallbackURL is the redirect URI registered with a network.
func (s *Service) CallbackURL(n Network) string {
	return strings.TrimRight(s.opts.BaseURL, "/") + CallbackPath + strings.ToLower(string(n))
}

// NetworkFromPath reads a network from its lower-case path segment ("google_business").
func NetworkFromPath(seg string) (Network, bool) {
	n := Network(strings.ToUpper(seg))
	return n, n.Valid()
}

func validRedirectURL(raw, field string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Invalid("Validation failed: "+field+": Invalid url", InvalidString("url", field))
	}
	return nil
}

// ConnectSocialAccount answers the URL the user must open to connect the team's account for a network.
func (s *Service) ConnectSocialAccount(ctx context.Context, p ConnectParams) (string, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return "", err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return "", NotFoundOr(err, "Team", "app: connect")
	}
	st := OAuthState{OrganizationID: pr.OrganizationID, TeamID: p.TeamID, Network: p.Type, RedirectURL: p.RedirectURL,
		UserID: pr.UserID, ActorName: pr.ActorName, APIKeyID: pr.APIKeyID, ServerURL: p.ServerURL, Options: p.Options}
	return s.connectURL(ctx, st)
}

// connectURL checks the request and builds the network's authorize URL around a sealed state.
func (s *Service) connectURL(ctx context.Context, st OAuthState) (string, error) {
	if !st.Network.Valid() {
		return "", Invalid("Validation failed: type: Invalid enum value", Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value '" + string(st.Network) + "'", Path: []any{"type"}})
	}
	if st.RedirectURL != "" {
		if err := validRedirectURL(st.RedirectURL, "redirectUrl"); err != nil {
			return "", err
		}
	}
	a, err := s.Adapter(st.Network)
	if err != nil {
		return "", err
	}
	if _, instances := a.(InstanceApps); instances && st.ServerURL == "" {
		return "", Invalid("Validation failed: serverUrl: Required for "+st.Network.DisplayName(), Issue{Code: IssueInvalidType, Message: "Required", Path: []any{"serverUrl"}})
	}
	req := AuthorizeRequest{RedirectURI: s.CallbackURL(st.Network), ServerURL: st.ServerURL, Options: st.Options}
	if ia, ok := a.(InstanceApps); ok {
		server, err := ia.NormalizeServer(st.ServerURL)
		if err != nil {
			return "", Invalid("Validation failed: serverUrl: "+err.Error(), Issue{Code: IssueInvalidString, Message: err.Error(), Path: []any{"serverUrl"}})
		}
		st.ServerURL, req.ServerURL = server, server
		if _, req.ClientID, req.ClientSecret, err = s.instanceApp(ctx, ia, server, req.RedirectURI, true); err != nil {
			return "", err
		}
	}
	if pc, ok := a.(PasswordConnector); ok && a.Kind() == ConnectPassword {
		// Our own page asks for the identifier and app password; the state carries the rest.
		if st.ServerURL == "" {
			st.ServerURL = pc.DefaultServer()
		}
		return strings.TrimRight(s.opts.BaseURL, "/") + PasswordPagePath + strings.ToLower(string(st.Network)) + "?state=" + s.sealState(st), nil
	}
	st.Verifier = newPKCEVerifier()
	req.State, req.Verifier = s.sealState(st), st.Verifier
	u, err := a.AuthorizeURL(ctx, req)
	if err != nil {
		return "", asAppError(err)
	}
	return u, nil
}

// PasswordPagePath is Crier's page asking for an identifier and app password (Bluesky).
const PasswordPagePath = "/connect/"

// PasswordPageInfo is what the password page shows: the network and the server, from a valid state.
func (s *Service) PasswordPageInfo(n Network, state string) (*OAuthState, error) {
	st, err := s.openState(state)
	if err != nil {
		return nil, err
	}
	if st.Network != n {
		return nil, Invalid("The connection link does not match this network", Issue{Code: IssueCustom, Message: "State is for another network", Path: []any{"state"}})
	}
	return st, nil
}

// CompletePasswordConnect opens a session with the identifier and app password given on the
// password page and stores the account like an OAuth callback does. A refused password answers
// the error without a redirect (the page asks again); other outcomes go to the redirect URL.
func (s *Service) CompletePasswordConnect(ctx context.Context, n Network, state, identifier, password string) CallbackResult {
	st, err := s.PasswordPageInfo(n, state)
	if err != nil {
		return CallbackResult{Err: err}
	}
	a, err := s.Adapter(n)
	if err != nil {
		return CallbackResult{Err: err}
	}
	pc, ok := a.(PasswordConnector)
	if !ok {
		return CallbackResult{Err: Errorf(ENotImplemented, "%s does not connect with a password", n.DisplayName())}
	}
	identifier, password = strings.TrimSpace(identifier), strings.TrimSpace(password)
	if identifier == "" || password == "" {
		return CallbackResult{Err: Invalid("Give your handle (or email) and an app password",
			Issue{Code: IssueTooSmall, Message: "Required", Path: []any{"identifier"}})}
	}
	tok, err := pc.CreateSession(ctx, st.ServerURL, identifier, password)
	if err != nil {
		if ClassOf(err) == ErrAuthExpired || ClassOf(err) == ErrPermanent {
			return CallbackResult{Err: asAppError(err)}
		}
		err = asAppError(err)
		return CallbackResult{RedirectURL: outcomeURL(st, nil, err), Err: err}
	}
	acct, err := s.storeConnection(ctx, st, a, tok)
	return CallbackResult{RedirectURL: outcomeURL(st, acct, err), Account: acct, Err: err}
}

// CallbackResult is what the OAuth callback decided: where to send the user.
type CallbackResult struct {
	RedirectURL string
	Account     *SocialAccount
	Err         error
}

// CompleteConnect handles the network's redirect back to Crier: it checks the state, exchanges the
// code, reads the profile (and channels where the network has them), upserts the team's account
// for the network (a reconnect keeps its id) and emits social-account.created or .updated. The
// outcome goes back to the connect's redirectUrl in the query (success=true&socialAccountId=… or
// success=false&error=CODE&message=…); without a redirectUrl (or with a bad state) the error is
// returned for the transport to show.
func (s *Service) CompleteConnect(ctx context.Context, n Network, query url.Values) CallbackResult {
	st, err := s.openState(query.Get("state"))
	if err != nil {
		return CallbackResult{Err: err}
	}
	if st.Network != n {
		return CallbackResult{Err: Invalid("The connection link does not match this network", Issue{Code: IssueCustom, Message: "State is for another network", Path: []any{"state"}})}
	}
	acct, err := s.completeConnect(ctx, st, query)
	return CallbackResult{RedirectURL: outcomeURL(st, acct, err), Account: acct, Err: err}
}

// outcomeURL appends the outcome to the connect's redirect URL (or the portal's page).
func outcomeURL(st *OAuthState, acct *SocialAccount, err error) string {
	target := st.RedirectURL
	if target == "" {
		return ""
	}
	u, perr := url.Parse(target)
	if perr != nil {
		return ""
	}
	q := u.Query()
	q.Set("type", string(st.Network))
	if err != nil {
		q.Set("success", "false")
		code := string(ErrorCode(err))
		var ne *NetworkError
		if errors.As(err, &ne) && ne.Code != "" {
			code = ne.Code
		}
		q.Set("error", code)
		q.Set("message", ErrorMessage(err))
	} else {
		q.Set("success", "true")
		q.Set("socialAccountId", acct.ID)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func (s *Service) completeConnect(ctx context.Context, st *OAuthState, query url.Values) (*SocialAccount, error) {
	if e := query.Get("error"); e != "" {
		msg := query.Get("error_description")
		if msg == "" {
			msg = e
		}
		return nil, &Error{Code: EForbidden, Message: st.Network.DisplayName() + ": " + msg, Err: &NetworkError{Network: st.Network, Class: ErrPermanent, Code: e, Message: msg}}
	}
	code := query.Get("code")
	if code == "" {
		return nil, Invalid("The network sent no authorization code", Issue{Code: IssueInvalidType, Message: "Required", Path: []any{"code"}})
	}
	a, err := s.Adapter(st.Network)
	if err != nil {
		return nil, err
	}
	flat := map[string]string{}
	for k := range query {
		flat[k] = query.Get(k)
	}
	xreq := ExchangeRequest{Code: code, RedirectURI: s.CallbackURL(st.Network), Verifier: st.Verifier, ServerURL: st.ServerURL, Query: flat, Options: st.Options}
	serverID := ""
	if ia, ok := a.(InstanceApps); ok {
		if serverID, xreq.ClientID, xreq.ClientSecret, err = s.instanceApp(ctx, ia, st.ServerURL, xreq.RedirectURI, false); err != nil {
			return nil, err
		}
	}
	tok, err := a.Exchange(ctx, xreq)
	if err != nil {
		return nil, asAppError(err)
	}
	if serverID != "" {
		if tok.Secrets == nil {
			tok.Secrets = map[string]string{}
		}
		tok.Secrets["mastodonServerId"] = serverID
	}
	return s.storeConnection(ctx, st, a, tok)
}

// storeConnection reads the profile and channels with a fresh token and upserts the account.
func (s *Service) storeConnection(ctx context.Context, st *OAuthState, a Adapter, tok *Token) (*SocialAccount, error) {
	prof, err := a.Profile(ctx, tok)
	if err != nil {
		return nil, asAppError(err)
	}
	var channels []Channel
	if channelModeOf(a) != ChannelsNone {
		if channels, err = a.Channels(ctx, tok); err != nil {
			return nil, asAppError(err)
		}
	}
	var out SocialAccount
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: st.TeamID, OrganizationID: st.OrganizationID}); err != nil {
			return NotFoundOr(err, "Team", "app: connect")
		}
		kind := EventSocialAccountUpdated
		row, err := q.GetSocialAccountByType(ctx, store.GetSocialAccountByTypeParams{OrganizationID: st.OrganizationID, TeamID: st.TeamID, Type: string(st.Network)})
		if errors.Is(err, pgx.ErrNoRows) {
			// Reconnecting after a disconnect (before the purge) revives the same account.
			row, err = q.LatestDeletedSocialAccount(ctx, store.LatestDeletedSocialAccountParams{OrganizationID: st.OrganizationID, TeamID: st.TeamID, Type: string(st.Network)})
			if errors.Is(err, pgx.ErrNoRows) {
				kind = EventSocialAccountCreated
				row, err = q.InsertSocialAccount(ctx, store.InsertSocialAccountParams{OrganizationID: st.OrganizationID, TeamID: st.TeamID, Type: string(st.Network)})
			}
		}
		if err != nil {
			return fmt.Errorf("app: connect: %w", err)
		}
		params := store.UpdateSocialAccountConnectionParams{ID: row.ID,
			Username: nonEmpty(prof.Username), DisplayName: nonEmpty(prof.DisplayName), Bio: nonEmpty(prof.Bio),
			AvatarUrl: nonEmpty(prof.AvatarURL), ExternalID: nonEmpty(prof.ExternalID),
			UserUsername: nonEmpty(prof.UserUsername), UserDisplayName: nonEmpty(prof.UserDisplayName),
			UserEmail: nonEmpty(prof.UserEmail), UserID: nonEmpty(prof.UserID), TwitterSubType: nonEmpty(prof.TwitterSubType),
			InstagramConnectionMethod: nonEmpty(st.Options.InstagramConnectionMethod),
			MastodonServerID:          nonEmpty(tok.Secrets["mastodonServerId"]),
		}
		var methods []string
		if spec := SpecOf(st.Network); spec != nil {
			methods = spec.ConnectMethods
		}
		if len(methods) == 0 {
			params.InstagramConnectionMethod = nil
		} else if params.InstagramConnectionMethod == nil {
			m := methods[0]
			params.InstagramConnectionMethod = &m
		}
		if prof.TikTokBusiness != nil {
			params.IsTiktokBusinessAccount = pgtype.Bool{Bool: *prof.TikTokBusiness, Valid: true}
		}
		s.sealToken(&params.AccessTokenEnc, &params.RefreshTokenEnc, &params.SecretsEnc, &params.TokenExpiresAt, &params.TokenScope, row.ID, tok, channels)
		if row, err = q.UpdateSocialAccountConnection(ctx, params); err != nil {
			return fmt.Errorf("app: connect: %w", err)
		}
		if channelModeOf(a) != ChannelsNone {
			if row, err = q.SetSocialAccountChannels(ctx, store.SetSocialAccountChannelsParams{ID: row.ID, Channels: channelsJSON(channels)}); err != nil {
				return fmt.Errorf("app: connect: %w", err)
			}
			if channelModeOf(a) == ChannelsSelect && row.ProviderPageID != nil {
				// The profile just overwrote the account's identity with the user's: a selected
				// channel still there is selected again (its id, name and avatar); one gone from
				// the account is unselected.
				p := store.SetSocialAccountChannelParams{ID: row.ID}
				for _, c := range channels {
					if c.ID == *row.ProviderPageID {
						p = channelSelection(row, c)
					}
				}
				if row, err = q.SetSocialAccountChannel(ctx, p); err != nil {
					return fmt.Errorf("app: connect: %w", err)
				}
			}
		}
		out = SocialAccountFromRow(row)
		item := AuditItem{OrganizationID: st.OrganizationID, ActorType: "USER", ActorID: st.UserID, ActorName: st.ActorName,
			Action: kind, TargetType: "social_account", TargetID: out.ID, Metadata: map[string]any{"type": out.Type, "teamId": out.TeamID}}
		switch {
		case st.APIKeyID != "":
			item.ActorType, item.ActorID = "API_KEY", st.APIKeyID
		case st.UserID == "":
			item.ActorType, item.ActorName = "SYSTEM", "portal"
		}
		if err := s.Audit(ctx, tx, item); err != nil {
			return err
		}
		return s.emit(ctx, tx, st.OrganizationID, kind, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
