package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// instanceApp answers Crier's app on a server (Mastodon), registering it on first use. The row
// id is the account's mastodonServerId. With check (the authorize step, before the user is sent
// to the server), a kept registration the server no longer knows is replaced by a fresh one.
func (s *Service) instanceApp(ctx context.Context, ia InstanceApps, server, redirectURI string, check bool) (id, clientID, clientSecret string, err error) {
	row, err := s.q.GetMastodonServer(ctx, store.GetMastodonServerParams{ServerUrl: server, RedirectUri: redirectURI})
	if err == nil {
		secret, err := s.networks.tokens.openString(row.ClientSecretEnc, "mastodon-server/"+server)
		if err != nil {
			return "", "", "", fmt.Errorf("app: instance app: %w", err)
		}
		if ac, ok := ia.(AppChecker); ok && check {
			known, err := ac.AppKnown(ctx, server, row.ClientID, secret)
			if err != nil {
				return "", "", "", asAppError(err)
			}
			if !known {
				return s.reregisterInstanceApp(ctx, ia, row.ID, server, redirectURI)
			}
		}
		return row.ID, row.ClientID, secret, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", "", "", fmt.Errorf("app: instance app: %w", err)
	}
	clientID, clientSecret, err = ia.RegisterApp(ctx, server, redirectURI)
	if err != nil {
		return "", "", "", asAppError(err)
	}
	// Two connects racing register twice; the first row wins and both use it.
	row, err = s.q.InsertMastodonServer(ctx, store.InsertMastodonServerParams{ServerUrl: server, RedirectUri: redirectURI,
		ClientID: clientID, ClientSecretEnc: s.networks.tokens.seal([]byte(clientSecret), "mastodon-server/"+server)})
	if err != nil {
		return "", "", "", fmt.Errorf("app: instance app: %w", err)
	}
	secret, err := s.networks.tokens.openString(row.ClientSecretEnc, "mastodon-server/"+server)
	if err != nil {
		return "", "", "", fmt.Errorf("app: instance app: %w", err)
	}
	return row.ID, row.ClientID, secret, nil
}

// reregisterInstanceApp registers Crier again on a server that forgot it, under the same row.
func (s *Service) reregisterInstanceApp(ctx context.Context, ia InstanceApps, rowID, server, redirectURI string) (id, clientID, clientSecret string, err error) {
	clientID, clientSecret, err = ia.RegisterApp(ctx, server, redirectURI)
	if err != nil {
		return "", "", "", asAppError(err)
	}
	row, err := s.q.ReplaceMastodonServerApp(ctx, store.ReplaceMastodonServerAppParams{ID: rowID, ClientID: clientID,
		ClientSecretEnc: s.networks.tokens.seal([]byte(clientSecret), "mastodon-server/"+server)})
	if err != nil {
		return "", "", "", fmt.Errorf("app: instance app: %w", err)
	}
	s.log.Info("mastodon server forgot Crier's app: registered again", "server", server)
	return row.ID, clientID, clientSecret, nil
}
