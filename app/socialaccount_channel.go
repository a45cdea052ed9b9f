package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// changeAccount runs change on the team's account inside a transaction, then writes the audit item
// and social-account.updated.
func (s *Service) changeAccount(ctx context.Context, pr *Principal, teamID string, n Network, action string,
	change func(q *store.Queries, row store.SocialAccount) (store.SocialAccount, error)) (*SocialAccount, error) {
	var out SocialAccount
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := s.AccountByType(ctx, q, pr.OrganizationID, teamID, n)
		if err != nil {
			return err
		}
		if row, err = change(q, row); err != nil {
			return err
		}
		out = SocialAccountFromRow(row)
		if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: action, TargetType: "social_account", TargetID: out.ID,
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
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.Adapter(n)
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
		return q.SetSocialAccountChannel(ctx, channelSelection(row, *ch))
	})
}

// channelSelection is the account publishing to ch: the channel's id and identity (its username
// falls back to the connected user's).
func channelSelection(row store.SocialAccount, ch Channel) store.SetSocialAccountChannelParams {
	p := store.SetSocialAccountChannelParams{ID: row.ID, ProviderPageID: &ch.ID, ExternalID: &ch.ID,
		Username: ch.Username, DisplayName: ch.Name, AvatarUrl: ch.AvatarURL}
	if p.Username == nil {
		p.Username = row.UserUsername
	}
	return p
}

// UnsetChannel removes the selection; the account shows the connected user again.
func (s *Service) UnsetChannel(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.Adapter(n)
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
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return nil, err
	}
	a, err := s.Adapter(n)
	if err != nil {
		return nil, err
	}
	if err := requireChannelMode(a, ChannelsList, n); err != nil {
		return nil, err
	}
	row, err := s.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	var channels []Channel
	row, err = s.WithToken(ctx, row, func(t *Token) error {
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
