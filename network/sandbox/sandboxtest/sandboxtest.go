// Package sandboxtest runs the sandbox networks on a test server and connects accounts to them
// through the real adapters, so adapter tests (publishing, comments …) start from a live token
// without going through Crier's HTTP server.
package sandboxtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network"
	"github.com/crier/crier/network/sandbox"
)

// Networks is a sandbox served over HTTP with every adapter pointed at it.
type Networks struct {
	Server   *httptest.Server
	Sandbox  *sandbox.Sandbox
	Adapters app.Adapters
}

// Start serves a fresh sandbox for the test.
func Start(t testing.TB) *Networks {
	t.Helper()
	sb := sandbox.New()
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	return &Networks{Server: srv, Sandbox: sb,
		Adapters: network.Adapters(network.Options{Sandbox: true, BaseURL: srv.URL, AllowPrivate: true})}
}

// Base is the sandbox URL of a network ("…/sandbox/x").
func (n *Networks) Base(net app.Network) string {
	return n.Server.URL + "/sandbox/" + sandbox.Segment(net)
}

// Connect signs login in at a network through its adapter (consent approved at once, code
// exchanged) and answers the token, as Crier's connect would store it.
func (n *Networks) Connect(t testing.TB, net app.Network, login string) *app.Token {
	t.Helper()
	return n.ConnectWith(t, net, login, app.ConnectOptions{})
}

// ConnectWith is Connect with the connect's options (Instagram's connection method …).
func (n *Networks) ConnectWith(t testing.TB, net app.Network, login string, opts app.ConnectOptions) *app.Token {
	t.Helper()
	ctx := context.Background()
	a := n.Adapters[net]
	if a == nil {
		t.Fatalf("no adapter for %s", net)
	}
	if pc, ok := a.(app.PasswordConnector); ok {
		tok, err := pc.CreateSession(ctx, n.Base(net), login, "abcd-efgh-ijkl-mnop")
		if err != nil {
			t.Fatalf("%s createSession: %v", net, err)
		}
		return tok
	}
	const redirect = "http://127.0.0.1:1/oauth/callback"
	req := app.AuthorizeRequest{RedirectURI: redirect, State: "sandboxtest", Verifier: oauth2.GenerateVerifier(), Options: opts}
	if ia, ok := a.(app.InstanceApps); ok {
		server, err := ia.NormalizeServer(n.Base(net))
		if err != nil {
			t.Fatalf("%s server: %v", net, err)
		}
		req.ServerURL = server
		if req.ClientID, req.ClientSecret, err = ia.RegisterApp(ctx, server, redirect); err != nil {
			t.Fatalf("%s register app: %v", net, err)
		}
	}
	authorize, err := a.AuthorizeURL(ctx, req)
	if err != nil {
		t.Fatalf("%s authorize url: %v", net, err)
	}
	u, err := url.Parse(authorize)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("approve", "1")
	q.Set("login", login)
	u.RawQuery = q.Encode()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	if err != nil || back.Query().Get("code") == "" {
		t.Fatalf("%s consent answered %d → %q", net, res.StatusCode, res.Header.Get("Location"))
	}
	query := map[string]string{}
	for k := range back.Query() {
		query[k] = back.Query().Get(k)
	}
	tok, err := a.Exchange(ctx, app.ExchangeRequest{Code: query["code"], RedirectURI: redirect, Verifier: req.Verifier,
		ServerURL: req.ServerURL, Query: query, ClientID: req.ClientID, ClientSecret: req.ClientSecret, Options: opts})
	if err != nil {
		t.Fatalf("%s exchange: %v", net, err)
	}
	return tok
}
