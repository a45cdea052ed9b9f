package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Per-account windows of the on-demand checks (connection-check, profile-refresh): they call the
// network, so each account gets AccountCheckLimit of each per AccountCheckWindow, counted from the
// audit log (durable and shared by every instance).
const (
	AccountCheckLimit  = 10
	AccountCheckWindow = time.Hour
)

// CheckUsage is the window of an on-demand check.
type CheckUsage struct {
	Limit, Used, Remaining int
	WindowSeconds          int
}

// ConnectionCheckResult is the answer of POST /social-account/connection-check.
type ConnectionCheckResult struct {
	Success   bool
	Message   string
	AccountID string
	CheckedAt time.Time
	CheckUsage
}

// ProfileRefreshResult is the answer of POST /social-account/profile-refresh.
type ProfileRefreshResult struct {
	Success     bool
	Message     string
	Account     SocialAccount
	RefreshedAt time.Time
	CheckUsage
}

const (
	actionConnectionCheck = "social-account.connection-check"
	actionProfileRefresh  = "social-account.profile-refresh"
)

// checkWindow counts an action on an account in the current window; over the limit is 429.
func (s *Service) checkWindow(ctx context.Context, orgID, accountID, action string) (CheckUsage, error) {
	n, err := s.q.CountAccountActionsSince(ctx, store.CountAccountActionsSinceParams{OrganizationID: orgID, TargetID: &accountID,
		Action: action, Since: s.now().Add(-AccountCheckWindow)})
	if err != nil {
		return CheckUsage{}, fmt.Errorf("app: %s: %w", action, err)
	}
	u := CheckUsage{Limit: AccountCheckLimit, Used: int(n) + 1, WindowSeconds: int(AccountCheckWindow.Seconds())}
	if int(n) >= AccountCheckLimit {
		return u, Errorf(ERateLimited, "At most %d of these per account per hour; try again later", AccountCheckLimit)
	}
	u.Remaining = AccountCheckLimit - u.Used
	return u, nil
}

// ConnectionCheck verifies the account's credentials at its network (refreshing once if needed):
// it records disconnectedCheckTryAt and emits social-account.updated. A refused account is marked
// for reconnection; the answer says so with success=false rather than failing.
func (s *Service) ConnectionCheck(ctx context.Context, teamID string, n Network) (*ConnectionCheckResult, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.Adapter(n)
	if err != nil {
		return nil, err
	}
	row, err := s.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	usage, err := s.checkWindow(ctx, pr.OrganizationID, row.ID, actionConnectionCheck)
	if err != nil {
		return nil, err
	}
	row, cerr := s.WithToken(ctx, row, func(t *Token) error { return a.Check(ctx, t) })
	if cerr != nil && ErrorCode(cerr) != EForbidden && ClassOf(cerr) != ErrAuthExpired && ClassOf(cerr) != ErrPermanent {
		return nil, asAppError(cerr) // the network is down or throttling: no verdict
	}
	now := s.now().UTC()
	out := &ConnectionCheckResult{Success: cerr == nil, AccountID: row.ID, CheckedAt: now, CheckUsage: usage}
	var lastErr *string
	if cerr != nil {
		out.Message = ErrorMessage(asAppError(cerr))
		lastErr = &out.Message
	} else {
		out.Message = "The connection works"
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		r, err := q.SetSocialAccountCheckTry(ctx, store.SetSocialAccountCheckTryParams{ID: row.ID, At: &now, LastError: lastErr})
		if err != nil {
			return fmt.Errorf("app: connection check: %w", err)
		}
		if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: actionConnectionCheck, TargetType: "social_account", TargetID: r.ID,
			Metadata: map[string]any{"type": r.Type, "success": out.Success}})); err != nil {
			return err
		}
		return s.emit(ctx, tx, pr.OrganizationID, EventSocialAccountUpdated, SocialAccountFromRow(r))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ProfileRefresh reads the account's profile again from its network and stores it.
func (s *Service) ProfileRefresh(ctx context.Context, teamID string, n Network) (*ProfileRefreshResult, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.Adapter(n)
	if err != nil {
		return nil, err
	}
	row, err := s.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	usage, err := s.checkWindow(ctx, pr.OrganizationID, row.ID, actionProfileRefresh)
	if err != nil {
		return nil, err
	}
	var prof *Profile
	row, err = s.WithToken(ctx, row, func(t *Token) error {
		var err error
		prof, err = a.Profile(ctx, t)
		return err
	})
	if err != nil {
		return nil, asAppError(err)
	}
	out := &ProfileRefreshResult{Success: true, Message: "Profile refreshed", RefreshedAt: s.now().UTC(), CheckUsage: usage}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		p := store.UpdateSocialAccountProfileParams{ID: row.ID, Bio: nonEmpty(prof.Bio), UserUsername: nonEmpty(prof.UserUsername),
			UserDisplayName: nonEmpty(prof.UserDisplayName), UserEmail: nonEmpty(prof.UserEmail),
			Username: row.Username, DisplayName: row.DisplayName, AvatarUrl: row.AvatarUrl}
		if row.ProviderPageID == nil { // with a channel selected, the account shows the channel
			p.Username, p.DisplayName, p.AvatarUrl = nonEmpty(prof.Username), nonEmpty(prof.DisplayName), nonEmpty(prof.AvatarURL)
		}
		r, err := q.UpdateSocialAccountProfile(ctx, p)
		if err != nil {
			return NotFoundOr(err, "Social account", "app: profile refresh")
		}
		out.Account = SocialAccountFromRow(r)
		if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: actionProfileRefresh, TargetType: "social_account", TargetID: r.ID,
			Metadata: map[string]any{"type": r.Type}})); err != nil {
			return err
		}
		return s.emit(ctx, tx, pr.OrganizationID, EventSocialAccountUpdated, out.Account)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetMessaging moves messagingStatus: enabling goes DISABLED → ENABLED; disabling goes ENABLED →
// DISABLE_PENDING (the conversations capability finishes the unsubscribe and sets DISABLED). Only
// Facebook and Instagram accounts have messaging (the contract restricts type).
func (s *Service) SetMessaging(ctx context.Context, teamID string, n Network, enable bool) (*SocialAccount, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	action := "social-account.messaging-disabled"
	if enable {
		action = "social-account.messaging-enabled"
	}
	return s.changeAccount(ctx, pr, teamID, n, action, func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error) {
		next := row.MessagingStatus
		switch {
		case enable && row.MessagingStatus != MessagingEnabled:
			next = MessagingEnabled
		case !enable && row.MessagingStatus == MessagingEnabled:
			next = MessagingDisablePending
		default:
			return row, nil // already there: idempotent
		}
		return q.SetSocialAccountMessaging(ctx, store.SetSocialAccountMessagingParams{ID: row.ID, MessagingStatus: next})
	})
}

// CopySocialAccounts copies accounts of one team into another team of the organization (profile,
// channels and credentials; the target team's existing account of a network is kept, not replaced).
// resetChannel drops the selected page/channel so the copy must choose its own.
func (s *Service) CopySocialAccounts(ctx context.Context, fromTeamID, toTeamID string, types []Network, resetChannel bool) ([]SocialAccount, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	var out []SocialAccount
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		for _, id := range []string{fromTeamID, toTeamID} {
			if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: id, OrganizationID: pr.OrganizationID}); err != nil {
				return NotFoundOr(err, "Team", "app: copy accounts")
			}
		}
		for _, n := range types {
			src, err := q.GetSocialAccountByType(ctx, store.GetSocialAccountByTypeParams{OrganizationID: pr.OrganizationID, TeamID: fromTeamID, Type: string(n)})
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			} else if err != nil {
				return fmt.Errorf("app: copy accounts: %w", err)
			}
			if _, err := q.GetSocialAccountByType(ctx, store.GetSocialAccountByTypeParams{OrganizationID: pr.OrganizationID, TeamID: toTeamID, Type: string(n)}); err == nil {
				continue
			} else if !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("app: copy accounts: %w", err)
			}
			tok, err := s.tokenOf(src)
			if err != nil {
				return err
			}
			row, err := q.CopySocialAccount(ctx, store.CopySocialAccountParams{ID: src.ID, ToTeamID: toTeamID})
			if err != nil {
				return fmt.Errorf("app: copy accounts: %w", err)
			}
			var channels []Channel
			for k, v := range tok.Secrets {
				if cid, ok := cutChannel(k); ok {
					channels = append(channels, Channel{ID: cid, Token: v})
				}
			}
			p := store.UpdateSocialAccountTokensParams{ID: row.ID}
			s.sealToken(&p.AccessTokenEnc, &p.RefreshTokenEnc, &p.SecretsEnc, &p.TokenExpiresAt, &p.TokenScope, row.ID, withoutChannelSecrets(tok), channels)
			if row, err = q.UpdateSocialAccountTokens(ctx, p); err != nil {
				return fmt.Errorf("app: copy accounts: %w", err)
			}
			if resetChannel && row.ProviderPageID != nil {
				if row, err = q.SetSocialAccountChannel(ctx, store.SetSocialAccountChannelParams{ID: row.ID, ExternalID: row.UserID,
					Username: row.UserUsername, DisplayName: row.UserDisplayName}); err != nil {
					return fmt.Errorf("app: copy accounts: %w", err)
				}
			}
			a := SocialAccountFromRow(row)
			if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: EventSocialAccountCreated, TargetType: "social_account", TargetID: a.ID,
				Metadata: map[string]any{"type": a.Type, "teamId": a.TeamID, "copiedFrom": src.ID}})); err != nil {
				return err
			}
			if err := s.emit(ctx, tx, pr.OrganizationID, EventSocialAccountCreated, a); err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []SocialAccount{}
	}
	return out, nil
}

func cutChannel(k string) (string, bool) {
	const p = "channel:"
	if len(k) > len(p) && k[:len(p)] == p {
		return k[len(p):], true
	}
	return "", false
}

// RefreshDueTokens refreshes the tokens expiring within the margin (the periodic job); failures
// are logged and, for refusals, the account is marked for reconnection by refreshToken.
func (s *Service) RefreshDueTokens(ctx context.Context) (int, error) {
	var byAccess []string
	for n, a := range s.networks.adapters {
		if r, ok := a.(AccessRefresher); ok && r.RefreshesWithAccessToken() {
			byAccess = append(byAccess, string(n))
		}
	}
	due, err := s.q.SocialAccountsToRefresh(ctx, store.SocialAccountsToRefreshParams{Before: ptr(s.now().Add(2 * refreshMargin)),
		AccessRefreshTypes: byAccess, Lim: 100})
	if err != nil {
		return 0, fmt.Errorf("app: refresh tokens: %w", err)
	}
	done := 0
	for _, d := range due {
		row, err := s.q.GetSocialAccount(ctx, store.GetSocialAccountParams{ID: d.ID, OrganizationID: d.OrganizationID})
		if err != nil {
			continue
		}
		a, err := s.Adapter(Network(row.Type))
		if err != nil {
			continue
		}
		tok, err := s.tokenOf(row)
		if err != nil {
			s.log.Warn("refresh token: cannot open", "account", row.ID, "err", err)
			continue
		}
		if _, _, err := s.refreshToken(ctx, a, row, tok); err != nil {
			s.log.Warn("refresh token", "account", row.ID, "network", row.Type, "err", err)
			continue
		}
		done++
	}
	return done, nil
}

// PurgeDueSocialAccounts deletes disconnected accounts whose deleteOn has passed.
func (s *Service) PurgeDueSocialAccounts(ctx context.Context) (int, error) {
	rows, err := s.q.PurgeDueSocialAccounts(ctx, ptr(s.now()))
	if err != nil {
		return 0, fmt.Errorf("app: purge social accounts: %w", err)
	}
	return len(rows), nil
}
