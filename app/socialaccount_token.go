package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

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

// WithToken runs fn with the account's token. An expiring token is refreshed first; an
// ErrAuthExpired answer triggers exactly one refresh and one retry; if the refresh fails or the
// retry is refused again, the account is marked for reconnection (social-account.updated) and the
// error returned. It never loops.
func (s *Service) WithToken(ctx context.Context, row store.SocialAccount, fn func(*Token) error) (store.SocialAccount, error) {
	a, err := s.Adapter(Network(row.Type))
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
		return s.emit(ctx, tx, r.OrganizationID, EventSocialAccountUpdated, SocialAccountFromRow(r))
	})
	return out, err
}
