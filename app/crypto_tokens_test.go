package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSealerBindsKeyAndPlace(t *testing.T) {
	t.Parallel()
	a, err := newSealer("0123456789abcdef0123456789abcdef", purposeNetworkTokens)
	require.NoError(t, err)
	sealed := a.sealString("tok-123", "acct-1/access")
	require.NotContains(t, string(sealed), "tok-123")
	got, err := a.openString(sealed, "acct-1/access")
	require.NoError(t, err)
	require.Equal(t, "tok-123", got)
	_, err = a.openString(sealed, "acct-2/access")
	require.Error(t, err, "a token moved to another row does not open")
	other, _ := newSealer("0123456789abcdef0123456789abcdef", purposeOAuthState)
	_, err = other.openString(sealed, "acct-1/access")
	require.Error(t, err, "another purpose has another key")
	sealed[len(sealed)-1] ^= 1
	_, err = a.openString(sealed, "acct-1/access")
	require.Error(t, err)
	require.Nil(t, a.sealString("", "x"))
}

func TestOAuthStateSealedAndExpiring(t *testing.T) {
	t.Parallel()
	networks, err := newNetworkDeps(Adapters{}, []byte("0123456789abcdef0123456789abcdef"))
	require.NoError(t, err)
	s := &Service{now: time.Now, networks: networks}
	raw := s.sealState(OAuthState{OrganizationID: "o", TeamID: "t", Network: Twitter, RedirectURL: "https://a.example/", Verifier: "secret-verifier"})
	require.NotContains(t, raw, "secret-verifier")
	st, err := s.openState(raw)
	require.NoError(t, err)
	require.Equal(t, "t", st.TeamID)
	require.Equal(t, "secret-verifier", st.Verifier)

	_, err = s.openState(raw[:len(raw)-2] + "AA")
	require.Equal(t, EInvalid, ErrorCode(err))
	s.now = func() time.Time { return time.Now().Add(OAuthStateTTL + time.Minute) }
	_, err = s.openState(raw)
	require.Equal(t, EInvalid, ErrorCode(err), "expired")
}
