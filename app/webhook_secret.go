package app

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
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

// secretBox encrypts webhook secrets at rest: AES-256-GCM with a key derived from CRIER_SECRET by
// HKDF-SHA256 (info "crier webhook secrets v1"); the organization id is the associated data, so a
// ciphertext moved to another organization's row does not open. Stored as nonce ‖ ciphertext.
type secretBox struct{ aead cipher.AEAD }

func newSecretBox(master []byte) (*secretBox, error) {
	if len(master) < 32 {
		return nil, errors.New("app: webhooks need CRIER_SECRET (at least 32 characters)")
	}
	key, err := hkdf.Key(sha256.New, master, nil, "crier webhook secrets v1", 32)
	if err != nil {
		return nil, fmt.Errorf("app: derive webhook key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("app: webhook key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("app: webhook key: %w", err)
	}
	return &secretBox{aead: aead}, nil
}

func (b *secretBox) seal(orgID, secret string) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(secret)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("app: seal webhook secret: %w", err)
	}
	return b.aead.Seal(nonce, nonce, []byte(secret), []byte(orgID)), nil
}

func (b *secretBox) open(orgID string, sealed []byte) (string, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("app: open webhook secret: too short")
	}
	plain, err := b.aead.Open(nil, sealed[:n], sealed[n:], []byte(orgID))
	if err != nil {
		return "", fmt.Errorf("app: open webhook secret (was CRIER_SECRET changed?): %w", err)
	}
	return string(plain), nil
}
