// Package netguard fetches URLs that users give Crier (upload from URL; webhooks reuse it) without
// letting them reach Crier's own network: only http and https; no loopback, private, link-local
// (cloud metadata at 169.254.169.254 included), CGNAT, multicast or reserved addresses unless
// allowed. The check runs on the address actually connected to — in the dialer's Control function,
// after name resolution — so DNS rebinding and names that resolve to private addresses are caught;
// every redirect is checked again the same way. Responses have a size cap and the client a timeout.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Options configure a Client.
type Options struct {
	// AllowPrivate lets requests reach private and loopback addresses (ALLOW_PRIVATE_URLS, for
	// development and tests).
	AllowPrivate bool
	// Timeout bounds a whole request, redirects and body included; default 30 s.
	Timeout time.Duration
	// MaxRedirects; default 5.
	MaxRedirects int
}

// BlockedError reports a URL refused by the guard.
type BlockedError struct {
	URL    string
	Reason string
}

func (e *BlockedError) Error() string { return "netguard: " + e.Reason }

// IsBlocked reports whether err is (or wraps) a refusal of the guard.
func IsBlocked(err error) bool {
	var b *BlockedError
	return errors.As(err, &b)
}

// ErrTooLarge reports a body above the cap of Fetch.
var ErrTooLarge = errors.New("netguard: response body too large")

var blockedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this" network
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
		"::/128",          // unspecified
		"::1/128",         // loopback
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard
		"2001:db8::/32",   // documentation
		"fc00::/7",        // unique local (includes AWS's fd00:ec2::254 metadata)
		"fe80::/10",       // link-local
		"ff00::/8",        // multicast
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Blocked reports whether ip is one Crier must not reach on a user's behalf.
func Blocked(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() {
		return true
	}
	if nat64.Contains(ip) { // well-known NAT64: judge the IPv4 address it embeds
		b := ip.As16()
		return Blocked(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// CheckURL checks what can be checked before connecting: an absolute http(s) URL with a host,
// and, when the host is a literal address, that it is allowed.
func CheckURL(raw string, allowPrivate bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, &BlockedError{URL: raw, Reason: "not a URL"}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, &BlockedError{URL: raw, Reason: "only http and https URLs are allowed"}
	}
	if u.Hostname() == "" {
		return nil, &BlockedError{URL: raw, Reason: "the URL has no host"}
	}
	if u.User != nil {
		return nil, &BlockedError{URL: raw, Reason: "URLs with credentials are not allowed"}
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && !allowPrivate && Blocked(ip) {
		return nil, &BlockedError{URL: raw, Reason: "the URL points to a private, loopback or link-local address"}
	}
	return u, nil
}

// Client answers an HTTP client that enforces the guard on every connection and redirect.
// It ignores proxy settings: through a proxy the connected address would be the proxy's.
func Client(o Options) *http.Client {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	dialer := &net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			if o.AllowPrivate {
				return nil
			}
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &BlockedError{URL: address, Reason: "cannot parse the connected address"}
			}
			if Blocked(ap.Addr()) {
				return &BlockedError{URL: address, Reason: "the URL resolves to a private, loopback or link-local address"}
			}
			return nil
		},
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          20,
		MaxIdleConnsPerHost:   20, // one host called by many workers at once (webhooks, a Mastodon server) keeps its connections (the default is 2)
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= o.MaxRedirects {
				return &BlockedError{URL: req.URL.String(), Reason: fmt.Sprintf("more than %d redirects", o.MaxRedirects)}
			}
			_, err := CheckURL(req.URL.String(), o.AllowPrivate)
			return err
		},
	}
}

// Get GETs raw with the guarded client c and answers the response body, which fails with
// ErrTooLarge past max bytes, and the response's Content-Type. Non-2xx statuses are errors.
// The caller closes the body.
func Get(ctx context.Context, c *http.Client, raw string, max int64, allowPrivate bool) (io.ReadCloser, string, error) {
	u, err := CheckURL(raw, allowPrivate)
	if err != nil {
		return nil, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", &BlockedError{URL: raw, Reason: "not a URL"}
	}
	req.Header.Set("User-Agent", "Crier/1 (+media fetch)")
	res, err := c.Do(req)
	if err != nil {
		return nil, "", err
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		res.Body.Close()
		return nil, "", fmt.Errorf("netguard: %s answered %s", u.Host, res.Status)
	}
	if res.ContentLength > max {
		res.Body.Close()
		return nil, "", ErrTooLarge
	}
	return &capped{rc: res.Body, left: max}, res.Header.Get("Content-Type"), nil
}

// capped fails with ErrTooLarge once more than its budget has been read.
type capped struct {
	rc   io.ReadCloser
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, ErrTooLarge
	}
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }
