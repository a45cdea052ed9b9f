package session

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDeriveKeyIsPerLabel(t *testing.T) {
	t.Parallel()
	secret := []byte("secret")
	require.Len(t, deriveKey(secret, hashLabel), 32)
	require.NotEqual(t, deriveKey(secret, hashLabel), deriveKey(secret, encryptionLabel))
	require.NotEqual(t, deriveKey(secret, hashLabel), deriveKey([]byte("other"), hashLabel))
}

func TestCookieRoundTrip(t *testing.T) {
	t.Parallel()
	store := NewStore([]byte("0123456789abcdef0123456789abcdef"), true)
	want := Data{UserID: "u1", OrganizationID: "o1", Generation: 3}
	c, err := NewCookie(store, want)
	require.NoError(t, err)
	require.True(t, c.HttpOnly)
	require.True(t, c.Secure)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)

	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.AddCookie(c)
	got, ok := Load(store, r)
	require.True(t, ok)
	require.Equal(t, want, got)

	// Another secret cannot read it; a tampered value is refused.
	other := NewStore([]byte("another-secret-another-secret-xx"), true)
	_, ok = Load(other, r)
	require.False(t, ok)
	r2 := httptest.NewRequest(http.MethodGet, "/", nil)
	r2.AddCookie(&http.Cookie{Name: Cookie, Value: c.Value[:len(c.Value)-2] + "xx"})
	_, ok = Load(store, r2)
	require.False(t, ok)

	require.Equal(t, -1, ExpiredCookie(store).MaxAge)
}

func TestCrossSiteWrite(t *testing.T) {
	t.Parallel()
	req := func(method, site, cookie, header string) *http.Request {
		r := httptest.NewRequest(method, "/api/v1/team", nil)
		if site != "" {
			r.Header.Set("Sec-Fetch-Site", site)
		}
		if cookie != "" {
			r.AddCookie(&http.Cookie{Name: CSRFCookie, Value: cookie})
		}
		if header != "" {
			r.Header.Set(CSRFHeader, header)
		}
		return r
	}
	require.False(t, CrossSiteWrite(req(http.MethodGet, "cross-site", "", "")))
	require.False(t, CrossSiteWrite(req(http.MethodPost, "same-origin", "", "")))
	require.True(t, CrossSiteWrite(req(http.MethodPost, "cross-site", "t", "t")))
	require.True(t, CrossSiteWrite(req(http.MethodPost, "", "", "")))
	require.True(t, CrossSiteWrite(req(http.MethodPost, "", "t", "u")))
	require.False(t, CrossSiteWrite(req(http.MethodDelete, "", "t", "t")))
}
