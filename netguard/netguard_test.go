package netguard_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/netguard"
)

func TestBlockedAddresses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
		"0.0.0.0", "::1", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1", "64:ff9b::7f00:1", "224.0.0.1", "255.255.255.255"} {
		require.True(t, netguard.Blocked(netip.MustParseAddr(s)), s)
	}
	for _, s := range []string{"93.184.215.14", "8.8.8.8", "2606:4700::1111", "64:ff9b::808:808"} {
		require.False(t, netguard.Blocked(netip.MustParseAddr(s)), s)
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"ftp://example.com/a", "file:///etc/passwd", "gopher://x", "http://", "http://user:pw@example.com/",
		"http://127.0.0.1/", "http://[::1]:8080/", "http://169.254.169.254/latest/meta-data/"} {
		_, err := netguard.CheckURL(u, false)
		require.True(t, netguard.IsBlocked(err), u)
	}
	_, err := netguard.CheckURL("http://127.0.0.1/", true)
	require.NoError(t, err)
	_, err = netguard.CheckURL("https://example.com/a.png", false)
	require.NoError(t, err)
}

// A name that resolves to loopback is refused on the connected address, not the name; redirects
// to loopback are refused; allowed, the same requests succeed, within the size cap.
func TestGetChecksConnectedAddressAndRedirects(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			fmt.Fprint(w, strings.Repeat("x", 2000))
		default:
			fmt.Fprint(w, "hello")
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	ctx := context.Background()

	// "localhost" is a name: CheckURL passes it, the dialer's check refuses the connection.
	byName := "http://localhost:" + port + "/"
	_, err := netguard.CheckURL(byName, false)
	require.NoError(t, err)
	_, _, err = netguard.Get(ctx, netguard.Client(netguard.Options{}), byName, 100, false)
	require.True(t, netguard.IsBlocked(err), "%v", err)

	// A public-looking first hop that redirects to loopback is refused at the redirect.
	redirector := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusFound, Header: http.Header{"Location": {srv.URL + "/"}}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
	})}
	redirector.CheckRedirect = netguard.Client(netguard.Options{}).CheckRedirect
	_, _, err = netguard.Get(ctx, redirector, "https://example.com/a.png", 100, false)
	require.True(t, netguard.IsBlocked(err), "%v", err)

	allowed := netguard.Client(netguard.Options{AllowPrivate: true})
	body, _, err := netguard.Get(ctx, allowed, byName, 100, true)
	require.NoError(t, err)
	b, err := io.ReadAll(body)
	body.Close()
	require.NoError(t, err)
	require.Equal(t, "hello", string(b))

	body, _, err = netguard.Get(ctx, allowed, srv.URL+"/big", 1000, true)
	if err == nil {
		_, err = io.ReadAll(body)
		body.Close()
	}
	require.ErrorIs(t, err, netguard.ErrTooLarge)
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
