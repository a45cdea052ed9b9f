package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
)

// Social accounts: a team holds at most one live account per network. Connecting goes through the
// network's OAuth consent (state sealed by oauth_state.go), the callback stores the profile and
// the encrypted tokens, and every later call to the network goes through withToken (refresh once
// on an auth failure, then mark the account for reconnection — never a loop).

// SocialAccount is the spec's 26-field record; its JSON is the payload of social-account.* events.
type SocialAccount struct {
	ID                        string     `json:"id"`
	Type                      Network    `json:"type"`
	TeamID                    string     `json:"teamId"`
	Username                  *string    `json:"username"`
	DisplayName               *string    `json:"displayName"`
	Bio                       *string    `json:"bio"`
	AvatarURL                 *string    `json:"avatarUrl"`
	ExternalID                *string    `json:"externalId"`
	ProviderPageID            *string    `json:"providerPageId"`
	UserUsername              *string    `json:"userUsername"`
	UserDisplayName           *string    `json:"userDisplayName"`
	UserEmail                 *string    `json:"userEmail"`
	UserID                    *string    `json:"userId"`
	Channels                  []Channel  `json:"channels"`
	MastodonServerID          *string    `json:"mastodonServerId"`
	InstagramConnectionMethod *string    `json:"instagramConnectionMethod"`
	TwitterSubType            *string    `json:"twitterSubType"`
	IsTikTokBusinessAccount   *bool      `json:"isTiktokBusinessAccount"`
	DisconnectedCheckTryAt    *time.Time `json:"disconnectedCheckTryAt"`
	DeleteOn                  *time.Time `json:"deleteOn"`
	MessagingStatus           string     `json:"messagingStatus"`
	MessagingStatusUpdatedAt  *time.Time `json:"messagingStatusUpdatedAt"`
	MessagingLastError        *string    `json:"messagingLastError"`
	CreatedAt                 time.Time  `json:"createdAt"`
	UpdatedAt                 time.Time  `json:"updatedAt"`
	DeletedAt                 *time.Time `json:"deletedAt"`
	// Not in the spec's record (the dashboard and the reconnect flow use them).
	ReconnectRequiredAt *time.Time `json:"-"`
	LastError           *string    `json:"-"`
	OrganizationID      string     `json:"-"`
}

// Messaging states.
const (
	MessagingDisabled       = "DISABLED"
	MessagingEnabled        = "ENABLED"
	MessagingDisablePending = "DISABLE_PENDING"
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
		return Invalid("Validation failed: "+field+": Invalid url", Issue{Code: IssueInvalidString, Message: "Invalid url", Path: []any{field}})
	}
	return nil
}

// ConnectSocialAccount answers the URL the user must open to connect the team's account for a network.
func (s *Service) ConnectSocialAccount(ctx context.Context, p ConnectParams) (string, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return "", err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return "", notFoundOr(err, "Team", "app: connect")
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
	a, err := s.adapter(st.Network)
	if err != nil {
		return "", err
	}
	if st.Network == Mastodon && st.ServerURL == "" {
		return "", Invalid("Validation failed: serverUrl: Required for Mastodon", Issue{Code: IssueInvalidType, Message: "Required", Path: []any{"serverUrl"}})
	}
	req := AuthorizeRequest{RedirectURI: s.CallbackURL(st.Network), ServerURL: st.ServerURL, Options: st.Options}
	if ia, ok := a.(InstanceApps); ok {
		server, err := ia.NormalizeServer(st.ServerURL)
		if err != nil {
			return "", Invalid("Validation failed: serverUrl: "+err.Error(), Issue{Code: IssueInvalidString, Message: err.Error(), Path: []any{"serverUrl"}})
		}
		st.ServerURL, req.ServerURL = server, server
		if _, req.ClientID, req.ClientSecret, err = s.instanceApp(ctx, ia, server, req.RedirectURI); err != nil {
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
	a, err := s.adapter(n)
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
	a, err := s.adapter(st.Network)
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
		if serverID, xreq.ClientID, xreq.ClientSecret, err = s.instanceApp(ctx, ia, st.ServerURL, xreq.RedirectURI); err != nil {
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
			return notFoundOr(err, "Team", "app: connect")
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
		if st.Network != Instagram {
			params.InstagramConnectionMethod = nil
		} else if params.InstagramConnectionMethod == nil {
			m := "FACEBOOK"
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
			if channelModeOf(a) == ChannelsSelect && row.ProviderPageID != nil && !hasChannel(channels, *row.ProviderPageID) {
				// The selected channel is gone from the account: unselect it.
				if row, err = q.SetSocialAccountChannel(ctx, store.SetSocialAccountChannelParams{ID: row.ID}); err != nil {
					return fmt.Errorf("app: connect: %w", err)
				}
			}
		}
		out = socialAccountFromRow(row)
		item := auditItem{OrganizationID: st.OrganizationID, ActorType: "USER", ActorID: st.UserID, ActorName: st.ActorName,
			Action: kind, TargetType: "social_account", TargetID: out.ID, Metadata: map[string]any{"type": out.Type, "teamId": out.TeamID}}
		switch {
		case st.APIKeyID != "":
			item.ActorType, item.ActorID = "API_KEY", st.APIKeyID
		case st.UserID == "":
			item.ActorType, item.ActorName = "SYSTEM", "portal"
		}
		if err := s.audit(ctx, tx, item); err != nil {
			return err
		}
		return s.emit(ctx, tx, st.OrganizationID, kind, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// sealToken fills the encrypted token columns of a row from tok (and the channels' own tokens).
func (s *Service) sealToken(access, refresh, secrets *[]byte, expires **time.Time, scope **string, rowID string, tok *Token, channels []Channel) {
	*access = s.networks.tokens.sealString(tok.AccessToken, rowID+"/access")
	*refresh = s.networks.tokens.sealString(tok.RefreshToken, rowID+"/refresh")
	sec := map[string]string{}
	for k, v := range tok.Secrets {
		sec[k] = v
	}
	for _, c := range channels {
		if c.Token != "" {
			sec["channel:"+c.ID] = c.Token
		}
	}
	if len(sec) > 0 {
		b, _ := json.Marshal(sec)
		*secrets = s.networks.tokens.seal(b, rowID+"/secrets")
	}
	if !tok.Expiry.IsZero() {
		e := tok.Expiry.UTC()
		*expires = &e
	}
	*scope = nonEmpty(tok.Scope)
}

// tokenOf opens a row's credentials. A selected channel's own token (a Facebook page token) is in
// Secrets["channel"].
func (s *Service) tokenOf(row store.SocialAccount) (*Token, error) {
	t := &Token{Secrets: map[string]string{}}
	var err error
	if t.AccessToken, err = s.networks.tokens.openString(row.AccessTokenEnc, row.ID+"/access"); err != nil {
		return nil, fmt.Errorf("app: token of %s: %w", row.ID, err)
	}
	if t.RefreshToken, err = s.networks.tokens.openString(row.RefreshTokenEnc, row.ID+"/refresh"); err != nil {
		return nil, fmt.Errorf("app: token of %s: %w", row.ID, err)
	}
	if row.SecretsEnc != nil {
		b, err := s.networks.tokens.open(row.SecretsEnc, row.ID+"/secrets")
		if err != nil {
			return nil, fmt.Errorf("app: token of %s: %w", row.ID, err)
		}
		if err := json.Unmarshal(b, &t.Secrets); err != nil {
			return nil, fmt.Errorf("app: token of %s: %w", row.ID, err)
		}
	}
	if row.ProviderPageID != nil {
		t.Secrets["channel"] = t.Secrets["channel:"+*row.ProviderPageID]
		t.Secrets["channelId"] = *row.ProviderPageID
	}
	if row.TokenExpiresAt != nil {
		t.Expiry = *row.TokenExpiresAt
	}
	if row.TokenScope != nil {
		t.Scope = *row.TokenScope
	}
	return t, nil
}

// refreshMargin: a token expiring sooner than this is refreshed before use (and by the periodic job).
const refreshMargin = 10 * time.Minute

// withToken runs fn with the account's token. An expiring token is refreshed first; an
// ErrAuthExpired answer triggers exactly one refresh and one retry; if the refresh fails or the
// retry is refused again, the account is marked for reconnection (social-account.updated) and the
// error returned. It never loops.
func (s *Service) withToken(ctx context.Context, row store.SocialAccount, fn func(*Token) error) (store.SocialAccount, error) {
	a, err := s.adapter(Network(row.Type))
	if err != nil {
		return row, err
	}
	if row.ReconnectRequiredAt != nil {
		return row, Errorf(EForbidden, "The %s account must be connected again", Network(row.Type).DisplayName())
	}
	tok, err := s.tokenOf(row)
	if err != nil {
		return row, err
	}
	refreshed := false
	if !tok.Expiry.IsZero() && canRefresh(a, tok) && tok.Expiry.Before(s.now().Add(refreshMargin)) {
		if row, tok, err = s.refreshToken(ctx, a, row, tok); err != nil {
			return row, err
		}
		refreshed = true
	}
	err = fn(tok)
	if err == nil || ClassOf(err) != ErrAuthExpired {
		return row, err
	}
	if !refreshed {
		var rerr error
		if row, tok, rerr = s.refreshToken(ctx, a, row, tok); rerr != nil {
			return row, rerr
		}
		if err = fn(tok); err == nil || ClassOf(err) != ErrAuthExpired {
			return row, err
		}
	}
	row, merr := s.markReconnect(ctx, row, err)
	if merr != nil {
		return row, merr
	}
	return row, err
}

// refreshToken renews the account's token and stores it; a refusal marks the account for reconnection.
func (s *Service) refreshToken(ctx context.Context, a Adapter, row store.SocialAccount, tok *Token) (store.SocialAccount, *Token, error) {
	nt, err := a.Refresh(ctx, tok)
	if err != nil {
		if errors.Is(err, ErrNoRefresh) || ClassOf(err) == ErrAuthExpired || ClassOf(err) == ErrPermanent {
			row, merr := s.markReconnect(ctx, row, err)
			if merr != nil {
				return row, tok, merr
			}
			if errors.Is(err, ErrNoRefresh) {
				err = &NetworkError{Network: a.Network(), Class: ErrAuthExpired, Message: "the access token expired and cannot be refreshed"}
			}
		}
		return row, tok, err
	}
	if nt.RefreshToken == "" {
		nt.RefreshToken = tok.RefreshToken // networks that do not rotate keep the old one valid
	}
	for k, v := range tok.Secrets {
		if _, ok := nt.Secrets[k]; !ok && !strings.HasPrefix(k, "channel") {
			if nt.Secrets == nil {
				nt.Secrets = map[string]string{}
			}
			nt.Secrets[k] = v
		}
	}
	var channels []Channel
	for k, v := range tok.Secrets {
		if id, ok := strings.CutPrefix(k, "channel:"); ok {
			channels = append(channels, Channel{ID: id, Token: v})
		}
	}
	p := store.UpdateSocialAccountTokensParams{ID: row.ID}
	s.sealToken(&p.AccessTokenEnc, &p.RefreshTokenEnc, &p.SecretsEnc, &p.TokenExpiresAt, &p.TokenScope, row.ID, nt, channels)
	nrow, err := s.q.UpdateSocialAccountTokens(ctx, p)
	if err != nil {
		return row, tok, fmt.Errorf("app: refresh token: %w", err)
	}
	ntok, err := s.tokenOf(nrow)
	return nrow, ntok, err
}

// markReconnect flags the account as needing a new connect and emits social-account.updated.
func (s *Service) markReconnect(ctx context.Context, row store.SocialAccount, cause error) (store.SocialAccount, error) {
	msg := cause.Error()
	out := row
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		r, err := s.q.WithTx(tx).MarkSocialAccountReconnect(ctx, store.MarkSocialAccountReconnectParams{ID: row.ID, LastError: &msg})
		if err != nil {
			return fmt.Errorf("app: mark reconnect: %w", err)
		}
		out = r
		if row.ReconnectRequiredAt != nil {
			return nil // already marked: one event only
		}
		return s.emit(ctx, tx, r.OrganizationID, EventSocialAccountUpdated, socialAccountFromRow(r))
	})
	return out, err
}

// accountByType finds the team's live account of a network (404 when none, or another tenant's team).
func (s *Service) accountByType(ctx context.Context, q *store.Queries, orgID, teamID string, n Network) (store.SocialAccount, error) {
	if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: teamID, OrganizationID: orgID}); err != nil {
		return store.SocialAccount{}, notFoundOr(err, "Team", "app: social account")
	}
	row, err := q.GetSocialAccountByType(ctx, store.GetSocialAccountByTypeParams{OrganizationID: orgID, TeamID: teamID, Type: string(n)})
	if err != nil {
		return row, notFoundOr(err, "Social account", "app: social account")
	}
	return row, nil
}

// SocialAccountByType answers the team's account of a network.
func (s *Service) SocialAccountByType(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	row, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	out := socialAccountFromRow(row)
	return &out, nil
}

// DisconnectSocialAccount soft-deletes the team's account of a network; it is purged after the
// organization's deleteAccountAfter hours (deleteOn), and a reconnect before that revives it.
func (s *Service) DisconnectSocialAccount(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	return s.disconnect(ctx, pr.OrganizationID, teamID, n, func(item auditItem) auditItem { return auditBy(pr, item) })
}

func (s *Service) disconnect(ctx context.Context, orgID, teamID string, n Network, by func(auditItem) auditItem) (*SocialAccount, error) {
	var out SocialAccount
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := s.accountByType(ctx, q, orgID, teamID, n)
		if err != nil {
			return err
		}
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return notFoundOr(err, "Organization", "app: disconnect")
		}
		deleteOn := s.now().UTC().Add(time.Duration(org.DeleteAccountAfter) * time.Hour)
		if row, err = q.DisconnectSocialAccount(ctx, store.DisconnectSocialAccountParams{ID: row.ID, DeleteOn: &deleteOn}); err != nil {
			return notFoundOr(err, "Social account", "app: disconnect")
		}
		out = socialAccountFromRow(row)
		if err := s.audit(ctx, tx, by(auditItem{Action: EventSocialAccountDeleted, TargetType: "social_account", TargetID: out.ID,
			Metadata: map[string]any{"type": out.Type, "teamId": out.TeamID}})); err != nil {
			return err
		}
		return s.emit(ctx, tx, orgID, EventSocialAccountDeleted, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// changeAccount runs change on the team's account inside a transaction, then writes the audit item
// and social-account.updated.
func (s *Service) changeAccount(ctx context.Context, pr *Principal, teamID string, n Network, action string,
	change func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error)) (*SocialAccount, error) {
	var out SocialAccount
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := s.accountByType(ctx, q, pr.OrganizationID, teamID, n)
		if err != nil {
			return err
		}
		if row, err = change(q, row); err != nil {
			return err
		}
		out = socialAccountFromRow(row)
		if err := s.audit(ctx, tx, auditBy(pr, auditItem{Action: action, TargetType: "social_account", TargetID: out.ID,
			Metadata: map[string]any{"type": out.Type, "teamId": out.TeamID}})); err != nil {
			return err
		}
		return s.emit(ctx, tx, pr.OrganizationID, EventSocialAccountUpdated, out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func requireChannelMode(a Adapter, want ChannelMode, n Network) error {
	mode := channelModeOf(a)
	if mode == want || (want == ChannelsList && mode != ChannelsNone) {
		return nil
	}
	return Invalid("Validation failed: type: "+n.DisplayName()+" accounts have no channels to choose",
		Issue{Code: IssueInvalidEnumValue, Message: n.DisplayName() + " accounts have no channels to choose", Path: []any{"type"}})
}

// SetChannel selects the channel (page, organization, YouTube channel, location) the account
// publishes to, from the channels listed at connect or refresh.
func (s *Service) SetChannel(ctx context.Context, teamID string, n Network, channelID string) (*SocialAccount, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.adapter(n)
	if err != nil {
		return nil, err
	}
	if err := requireChannelMode(a, ChannelsSelect, n); err != nil {
		return nil, err
	}
	return s.changeAccount(ctx, pr, teamID, n, "social-account.channel-set", func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error) {
		var ch *Channel
		for _, c := range channelsOf(row.Channels) {
			if c.ID == channelID {
				ch = &c
				break
			}
		}
		if ch == nil {
			return row, Invalid("Validation failed: channelId: not one of the account's channels",
				Issue{Code: IssueCustom, Message: "Not one of the account's channels; refresh the channels if it is new", Path: []any{"channelId"}})
		}
		p := store.SetSocialAccountChannelParams{ID: row.ID, ProviderPageID: &ch.ID, ExternalID: &ch.ID,
			Username: ch.Username, DisplayName: ch.Name, AvatarUrl: ch.AvatarURL}
		if p.Username == nil {
			p.Username = row.UserUsername
		}
		return q.SetSocialAccountChannel(ctx, p)
	})
}

// UnsetChannel removes the selection; the account shows the connected user again.
func (s *Service) UnsetChannel(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.adapter(n)
	if err != nil {
		return nil, err
	}
	if err := requireChannelMode(a, ChannelsSelect, n); err != nil {
		return nil, err
	}
	return s.changeAccount(ctx, pr, teamID, n, "social-account.channel-unset", func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error) {
		return q.SetSocialAccountChannel(ctx, store.SetSocialAccountChannelParams{ID: row.ID, ExternalID: row.UserID,
			Username: row.UserUsername, DisplayName: row.UserDisplayName})
	})
}

// RefreshChannels lists the account's channels again from the network.
func (s *Service) RefreshChannels(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.adapter(n)
	if err != nil {
		return nil, err
	}
	if err := requireChannelMode(a, ChannelsList, n); err != nil {
		return nil, err
	}
	row, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	var channels []Channel
	row, err = s.withToken(ctx, row, func(t *Token) error {
		var err error
		channels, err = a.Channels(ctx, t)
		return err
	})
	if err != nil {
		return nil, asAppError(err)
	}
	tok, err := s.tokenOf(row)
	if err != nil {
		return nil, err
	}
	return s.changeAccount(ctx, pr, teamID, n, "social-account.channels-refreshed", func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error) {
		p := store.UpdateSocialAccountTokensParams{ID: row.ID}
		s.sealToken(&p.AccessTokenEnc, &p.RefreshTokenEnc, &p.SecretsEnc, &p.TokenExpiresAt, &p.TokenScope, row.ID, withoutChannelSecrets(tok), channels)
		if _, err := q.UpdateSocialAccountTokens(ctx, p); err != nil {
			return row, fmt.Errorf("app: refresh channels: %w", err)
		}
		r, err := q.SetSocialAccountChannels(ctx, store.SetSocialAccountChannelsParams{ID: row.ID, Channels: channelsJSON(channels)})
		if err != nil {
			return r, fmt.Errorf("app: refresh channels: %w", err)
		}
		if r.ProviderPageID != nil && !hasChannel(channels, *r.ProviderPageID) {
			return q.SetSocialAccountChannel(ctx, store.SetSocialAccountChannelParams{ID: r.ID, ExternalID: r.UserID, Username: r.UserUsername, DisplayName: r.UserDisplayName})
		}
		return r, nil
	})
}

func withoutChannelSecrets(t *Token) *Token {
	c := *t
	c.Secrets = map[string]string{}
	for k, v := range t.Secrets {
		if !strings.HasPrefix(k, "channel") {
			c.Secrets[k] = v
		}
	}
	return &c
}

// SocialAccountsToDelete pages the organization's disconnected accounts waiting for their purge.
func (s *Service) SocialAccountsToDelete(ctx context.Context, page, pageSize int) ([]SocialAccount, int, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, 0, err
	}
	total, err := s.q.CountSocialAccountsToDelete(ctx, pr.OrganizationID)
	if err != nil {
		return nil, 0, fmt.Errorf("app: accounts to delete: %w", err)
	}
	rows, err := s.q.ListSocialAccountsToDelete(ctx, store.ListSocialAccountsToDeleteParams{OrganizationID: pr.OrganizationID,
		Off: int32((page - 1) * pageSize), Lim: int32(pageSize)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: accounts to delete: %w", err)
	}
	out := make([]SocialAccount, 0, len(rows))
	for _, r := range rows {
		out = append(out, socialAccountFromRow(r))
	}
	return out, int(total), nil
}

// teamSocialAccounts answers the live accounts of teams, keyed by team id (for the team detail).
func (s *Service) teamSocialAccounts(ctx context.Context, orgID string, teamIDs []string) (map[string][]SocialAccount, error) {
	rows, err := s.q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: orgID, TeamIds: teamIDs})
	if err != nil {
		return nil, fmt.Errorf("app: team social accounts: %w", err)
	}
	out := map[string][]SocialAccount{}
	for _, r := range rows {
		out[r.TeamID] = append(out[r.TeamID], socialAccountFromRow(r))
	}
	return out, nil
}

func socialAccountFromRow(r store.SocialAccount) SocialAccount {
	a := SocialAccount{ID: r.ID, Type: Network(r.Type), TeamID: r.TeamID, Username: r.Username, DisplayName: r.DisplayName,
		Bio: r.Bio, AvatarURL: r.AvatarUrl, ExternalID: r.ExternalID, ProviderPageID: r.ProviderPageID,
		UserUsername: r.UserUsername, UserDisplayName: r.UserDisplayName, UserEmail: r.UserEmail, UserID: r.UserID,
		Channels: channelsOf(r.Channels), MastodonServerID: r.MastodonServerID, InstagramConnectionMethod: r.InstagramConnectionMethod,
		TwitterSubType: r.TwitterSubType, DisconnectedCheckTryAt: r.DisconnectedCheckTryAt, DeleteOn: r.DeleteOn,
		MessagingStatus: r.MessagingStatus, MessagingStatusUpdatedAt: r.MessagingStatusUpdatedAt, MessagingLastError: r.MessagingLastError,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt,
		ReconnectRequiredAt: r.ReconnectRequiredAt, LastError: r.LastError, OrganizationID: r.OrganizationID}
	if r.IsTiktokBusinessAccount.Valid {
		v := r.IsTiktokBusinessAccount.Bool
		a.IsTikTokBusinessAccount = &v
	}
	return a
}

func channelsOf(b []byte) []Channel {
	if b == nil {
		return nil
	}
	var cs []Channel
	_ = json.Unmarshal(b, &cs)
	return cs
}

func channelsJSON(cs []Channel) []byte {
	if cs == nil {
		cs = []Channel{}
	}
	b, _ := json.Marshal(cs)
	return b
}

func hasChannel(cs []Channel, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// isUUID reports whether s looks like a UUID (ids are uuids; anything else matches nothing).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
