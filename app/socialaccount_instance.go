package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// instanceApp answers Crier's app on a server (Mastodon), registering it on first use. The row
// id is the account's mastodonServerId.
func (s *Service) instanceApp(ctx context.Context, ia InstanceApps, server, redirectURI string) (id, clientID, clientSecret string, err error) {
	row, err := s.q.GetMastodonServer(ctx, store.GetMastodonServerParams{ServerUrl: server, RedirectUri: redirectURI})
	if err == nil {
		secret, err := s.networks.tokens.openString(row.ClientSecretEnc, "mastodon-server/"+server)
		if err != nil {
			return "", "", "", fmt.Errorf("app: instance app: %w", err)
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
