package sandbox

// The OAuth side every twin shares: users created on first sign-in, the consent page, the token
// endpoint (authorization_code and refresh_token grants, PKCE, Basic or form client credentials)
// and the access tokens it issues. A dialect changes only the shapes (writeToken, writeTokenError)
// and extra grants (exchange).

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// user returns (creating) the simulated user with a login.
func (n *Net) user(login string) *User {
	if login == "" {
		login = "crier_sandbox"
	}
	if u, ok := n.users[login]; ok {
		return u
	}
	u := &User{ID: numericID(n.d.seg + "/" + login), Login: login, Name: "Sandbox " + login + " (" + n.d.title + ")",
		Bio: "A " + n.d.title + " account of the Crier sandbox", Avatar: "https://sandbox.crier.invalid/" + n.d.seg + "/" + login + ".png",
		Email: login + "@sandbox.crier.invalid"}
	if n.d.newUser != nil {
		n.d.newUser(n, u)
	}
	n.users[login] = u
	return u
}

func (n *Net) ttl() time.Duration {
	if n.knobs.TokenTTLSeconds > 0 {
		return time.Duration(n.knobs.TokenTTLSeconds) * time.Second
	}
	return n.d.accessTTL
}

// issue creates an access token (and a refresh token unless the network has none).
func (n *Net) issue(u *User, scope string) (access, refresh string, ttl time.Duration) {
	ttl = n.ttl()
	access = randID(n.d.seg + "-at-")
	n.access[access] = &issued{user: u, scope: scope, expires: n.sb.Now().Add(ttl), token: access}
	if !n.d.noRefresh {
		refresh = randID(n.d.seg + "-rt-")
		n.refresh[refresh] = &issued{user: u, scope: scope, token: refresh}
	}
	return access, refresh, ttl
}

func (n *Net) bearer(r *http.Request) string {
	if n.d.bearer != nil {
		return n.d.bearer(r)
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} (sandbox) – Authorize</title><link rel="icon" href="data:,"></head>
<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">
<h1>{{.Title}} <small>sandbox</small></h1>
<p><strong>{{.ClientID}}</strong> wants to access your {{.Title}} account{{if .Scope}} ({{.Scope}}){{end}}.</p>
<form method="get" action="">
{{range $k, $v := .Params}}<input type="hidden" name="{{$k}}" value="{{$v}}">
{{end}}<label>Sign in as <input name="login" value="crier_sandbox" autocomplete="off"></label>
<p><button type="submit" name="approve" value="1">Authorize</button>
<button type="submit" name="deny" value="1">Cancel</button></p>
</form></body></html>`))

// authorize shows the consent page, or with approve=1 (or deny=1) answers at once.
func (n *Net) authorize(q *req) {
	v := q.r.URL.Query()
	clientID := v.Get("client_id")
	if clientID == "" {
		clientID = v.Get("client_key")
	}
	redirect := v.Get("redirect_uri")
	if (clientID != ClientID(n.d.seg) && n.apps[clientID] == "") || redirect == "" {
		q.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		q.w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(q.w, "%s sandbox: unknown client_id %q or missing redirect_uri", n.d.title, clientID)
		return
	}
	ru, err := url.Parse(redirect)
	if err != nil {
		q.w.WriteHeader(http.StatusBadRequest)
		return
	}
	back := ru.Query()
	back.Set("state", v.Get("state"))
	switch {
	case v.Get("deny") == "1":
		back.Set("error", "access_denied")
		back.Set("error_description", "The user denied the request")
	case v.Get("approve") == "1":
		if n.d.pkce && (v.Get("code_challenge") == "" || v.Get("code_challenge_method") != "S256") {
			back.Set("error", "invalid_request")
			back.Set("error_description", "Missing or invalid code_challenge")
			break
		}
		code := randID(n.d.seg + "-code-")
		n.codes[code] = &grant{user: n.user(v.Get("login")), redirectURI: redirect, challenge: v.Get("code_challenge"),
			scope: v.Get("scope"), expires: n.sb.Now().Add(10 * time.Minute)}
		back.Set("code", code)
		if n.d.approved != nil {
			n.d.approved(n.codes[code].user, back)
		}
	default:
		params := map[string]string{}
		for k := range v {
			if k != "login" {
				params[k] = v.Get(k)
			}
		}
		q.w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = consentPage.Execute(q.w, map[string]any{"Title": n.d.title, "ClientID": clientID, "Scope": v.Get("scope"), "Params": params})
		return
	}
	ru.RawQuery = back.Encode()
	http.Redirect(q.w, q.r, ru.String(), http.StatusFound)
}

func (n *Net) tokenError(q *req, status int, code, msg string) {
	if n.d.writeTokenError != nil {
		n.d.writeTokenError(q, status, code, msg)
		return
	}
	q.json(status, map[string]string{"error": code, "error_description": msg})
}

// token is the token endpoint: authorization_code and refresh_token grants.
func (n *Net) token(q *req) {
	_ = q.r.ParseForm()
	form := q.r.Form // body and query (Graph API takes both)
	id, secret := form.Get("client_id"), form.Get("client_secret")
	if id == "" {
		id = form.Get("client_key")
	}
	if n.d.basicAuth {
		if bid, bsecret, ok := q.r.BasicAuth(); ok {
			id, secret = bid, bsecret
		} else if n.d.pkce && secret == "" {
			secret = ClientSecret(n.d.seg) // public PKCE clients send only client_id
		}
	}
	if (id != ClientID(n.d.seg) || secret != ClientSecret(n.d.seg)) && (n.apps[id] == "" || n.apps[id] != secret) {
		n.tokenError(q, http.StatusUnauthorized, "invalid_client", "Client authentication failed")
		return
	}
	if n.d.exchange != nil && n.d.exchange(q, form) {
		return
	}
	switch form.Get("grant_type") {
	case "authorization_code", "":
		g, ok := n.codes[form.Get("code")]
		if !ok || g.expires.Before(n.sb.Now()) {
			n.tokenError(q, http.StatusBadRequest, "invalid_grant", "Value passed for the authorization code was invalid.")
			return
		}
		delete(n.codes, form.Get("code"))
		if g.redirectURI != form.Get("redirect_uri") {
			n.tokenError(q, http.StatusBadRequest, "invalid_grant", "redirect_uri does not match the authorization request")
			return
		}
		if n.d.pkce {
			sum := sha256.Sum256([]byte(form.Get("code_verifier")))
			if base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
				n.tokenError(q, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
				return
			}
		}
		access, refresh, ttl := n.issue(g.user, g.scope)
		n.d.writeToken(q, access, refresh, ttl, g.scope, g.user)
	case "refresh_token":
		t, ok := n.refresh[form.Get("refresh_token")]
		if !ok || t.revoked {
			n.tokenError(q, http.StatusBadRequest, "invalid_grant", "Value passed for the token was invalid.")
			return
		}
		access, refresh, ttl := n.issue(t.user, t.scope)
		if n.d.rotate {
			delete(n.refresh, form.Get("refresh_token"))
		} else {
			delete(n.refresh, refresh)
			refresh = form.Get("refresh_token")
		}
		n.d.writeToken(q, access, refresh, ttl, t.scope, t.user)
	case "client_credentials":
		// An app-only token (Mastodon's apps ask for one): the client authenticated above, so the
		// answer says that the server knows the app. It opens no user's data.
		q.json(http.StatusOK, map[string]any{"access_token": randID("app_"), "token_type": "Bearer", "scope": form.Get("scope"), "created_at": n.sb.Now().Unix()})
	default:
		n.tokenError(q, http.StatusBadRequest, "unsupported_grant_type", "grant_type "+form.Get("grant_type")+" is not supported")
	}
}

// standardToken is RFC 6749's token answer.
func standardToken(q *req, access, refresh string, ttl time.Duration, scope string, _ *User) {
	out := map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds()), "scope": scope}
	if refresh != "" {
		out["refresh_token"] = refresh
	}
	q.json(http.StatusOK, out)
}
