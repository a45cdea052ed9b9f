package app

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
)

// webhookSecretPrefix marks Crier's webhook secrets, as Standard Webhooks libraries expect: the
// rest is base64 of 32 random bytes.
const webhookSecretPrefix = "whsec_"

// newWebhookSecret answers a fresh signing secret, "whsec_" + base64 of 32 random bytes.
func newWebhookSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("app: webhook secret: %w", err)
	}
	return webhookSecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// secretBox encrypts webhook secrets at rest with the shared sealer (AES-256-GCM, key derived from
// CRIER_SECRET by HKDF-SHA256 under purposeWebhookSecrets); the organization id is the associated
// data, so a ciphertext moved to another organization's row does not open. Stored as nonce ‖ ciphertext.
type secretBox struct{ sealer *sealer }

func newSecretBox(master []byte) (*secretBox, error) {
	if len(master) < 32 {
		return nil, errors.New("app: webhooks need CRIER_SECRET (at least 32 characters)")
	}
	s, err := newSealer(string(master), purposeWebhookSecrets)
	if err != nil {
		return nil, fmt.Errorf("app: webhook key: %w", err)
	}
	return &secretBox{sealer: s}, nil
}

func (b *secretBox) seal(orgID, secret string) ([]byte, error) {
	return b.sealer.seal([]byte(secret), orgID), nil
}

func (b *secretBox) open(orgID string, sealed []byte) (string, error) {
	plain, err := b.sealer.open(sealed, orgID)
	if err != nil {
		return "", fmt.Errorf("app: open webhook secret (was CRIER_SECRET changed?): %w", err)
	}
	return string(plain), nil
}
