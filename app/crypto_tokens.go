package app

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// sealer encrypts small secrets (network tokens, OAuth state) with AES-256-GCM under a key derived
// from CRIER_SECRET with HKDF-SHA256 and a purpose label, so each use has its own key and a
// leaked ciphertext of one kind cannot be replayed as another. The additional data binds a sealed
// value to where it belongs (a social account's id), so a token copied to another row fails to open.
type sealer struct{ aead cipher.AEAD }

// Purposes of derived keys. Changing a label makes every value sealed under it unreadable.
const (
	purposeNetworkTokens = "crier network tokens v1"
	purposeOAuthState    = "crier oauth state v1"
	// Same label as before the sealer was shared, so stored webhook secrets still open.
	purposeWebhookSecrets = "crier webhook secrets v1"
)

func newSealer(secret, purpose string) (*sealer, error) {
	if len(secret) < 16 {
		return nil, errors.New("app: sealer: secret too short")
	}
	key, err := hkdf.Key(sha256.New, []byte(secret), nil, purpose, 32)
	if err != nil {
		return nil, fmt.Errorf("app: sealer: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("app: sealer: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("app: sealer: %w", err)
	}
	return &sealer{aead: aead}, nil
}

// seal returns nonce || ciphertext of plain, bound to ad.
func (s *sealer) seal(plain []byte, ad string) []byte {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic("app: sealer: no randomness: " + err.Error())
	}
	return s.aead.Seal(nonce, nonce, plain, []byte(ad))
}

// open reverses seal; any tampering, another key or another ad fails.
func (s *sealer) open(sealed []byte, ad string) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return nil, errors.New("app: sealer: too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(ad))
	if err != nil {
		return nil, errors.New("app: sealer: cannot open (wrong key, tampered or misplaced)")
	}
	return plain, nil
}

// sealString seals a string, or returns nil for "" (nothing to keep).
func (s *sealer) sealString(v, ad string) []byte {
	if v == "" {
		return nil
	}
	return s.seal([]byte(v), ad)
}

// openString opens what sealString sealed; nil opens to "".
func (s *sealer) openString(sealed []byte, ad string) (string, error) {
	if sealed == nil {
		return "", nil
	}
	b, err := s.open(sealed, ad)
	return string(b), err
}
