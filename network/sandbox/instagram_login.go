package sandbox

import (
	"net/http"
	"strings"
	"time"
)

// Instagram Login (instagramConnectionMethod INSTAGRAM) in the Instagram twin, beside Facebook
// Login; the real hosts (www.instagram.com, api.instagram.com, graph.instagram.com) all live under
// /sandbox/instagram/:
//
//	GET  /oauth/authorize            the consent (the same page and approve=1 as every twin); scopes instagram_business_*
//	POST /oauth/access_token         form client_id, client_secret, grant_type=authorization_code, redirect_uri, code →
//	                                 {"data":[{"access_token","user_id","permissions"}]} (a ~1-hour token); errors
//	                                 {"error_type":"OAuthException","code":400,"error_message":"…"}
//	GET  /access_token               grant_type=ig_exchange_token, client_secret, access_token → {access_token,token_type,expires_in} (60 days)
//	GET  /refresh_access_token       grant_type=ig_refresh_token, access_token → a new 60-day token (the real one also
//	                                 wants the token ≥ 24 h old; the twin does not, so tests can refresh at once)
//	GET  /vN/me                      with an Instagram Login token: {id, user_id, username, name, profile_picture_url, account_type}
//
// The account signed in is the professional account linked to the user's first page (the one
// Facebook Login lists first), so both methods reach the same account; its token publishes through
// the same container routes (instagram_publish.go) to that account only. Instagram Login tokens
// start with "IGAA" as the real ones do; Graph errors as elsewhere (190 for a dead token).
func instagramLogin(d *dialect) {
	if d.unauthenticated == nil {
		d.unauthenticated = map[string]func(q *req){}
	}
	d.unauthenticated["GET /oauth/authorize"] = func(q *req) { q.net.authorize(q) }
	d.unauthenticated["POST /oauth/access_token"] = instagramLoginCode
	d.unauthenticated["GET /access_token"] = instagramLoginLongLived("ig_exchange_token", true)
	d.unauthenticated["GET /refresh_access_token"] = instagramLoginLongLived("ig_refresh_token", false)
	d.routes["GET /"+GraphVersion+"/me"] = instagramLoginMe
}

func instagramLoginMe(q *req) {
	if !instagramLoginToken(q.tok) {
		facebookMe(q) // the Facebook Login answer
		return
	}
	c := instagramLoginAccount(q.user)
	if c == nil {
		facebookMissing(q, "me")
		return
	}
	q.json(http.StatusOK, map[string]any{"id": instagramAppScopedID(c), "user_id": c.IGID, "username": c.IGUsername, "name": c.Name,
		"profile_picture_url": "https://sandbox.crier.invalid/instagram/" + c.IGUsername + ".jpg", "account_type": "BUSINESS"})
}

// instagramLoginToken reports whether a token was issued through Instagram Login.
func instagramLoginToken(t *issued) bool { return t != nil && strings.HasPrefix(t.token, "IGAA") }

// instagramLoginAccount is the professional account an Instagram Login user signs in as.
func instagramLoginAccount(u *User) *Channel {
	for i := range u.Channels {
		if u.Channels[i].IGID != "" {
			return &u.Channels[i]
		}
	}
	return nil
}

func instagramAppScopedID(c *Channel) string { return numericID(c.IGID + "/app-scoped") }

// instagramLoginError answers api.instagram.com's token errors.
func instagramLoginError(q *req, status int, msg string) {
	q.json(status, map[string]any{"error_type": "OAuthException", "code": status, "error_message": msg})
}

// instagramLoginCode is api.instagram.com/oauth/access_token: the code for a short-lived token.
func instagramLoginCode(q *req) {
	_ = q.r.ParseForm()
	f := q.r.PostForm
	if f.Get("client_id") != ClientID("instagram") || f.Get("client_secret") != ClientSecret("instagram") {
		instagramLoginError(q, http.StatusBadRequest, "Invalid platform app")
		return
	}
	if f.Get("grant_type") != "authorization_code" {
		instagramLoginError(q, http.StatusBadRequest, "Invalid grant_type")
		return
	}
	g, ok := q.net.codes[f.Get("code")]
	if !ok || g.expires.Before(q.net.sb.Now()) || !strings.Contains(g.scope, "instagram_business_basic") {
		instagramLoginError(q, http.StatusBadRequest, "Invalid authorization code")
		return
	}
	delete(q.net.codes, f.Get("code"))
	if g.redirectURI != f.Get("redirect_uri") {
		instagramLoginError(q, http.StatusBadRequest, "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request")
		return
	}
	c := instagramLoginAccount(g.user)
	if c == nil {
		instagramLoginError(q, http.StatusBadRequest, "The user is not an Instagram professional account")
		return
	}
	access := randID("IGAA")
	q.net.access[access] = &issued{user: g.user, scope: g.scope, expires: q.net.sb.Now().Add(time.Hour), token: access}
	q.json(http.StatusOK, map[string]any{"data": []map[string]any{{"access_token": access, "user_id": instagramAppScopedID(c), "permissions": g.scope}}})
}

// instagramLoginLongLived is graph.instagram.com's /access_token (ig_exchange_token, with the app secret)
// and /refresh_access_token (ig_refresh_token): a valid Instagram Login token for a 60-day one.
func instagramLoginLongLived(grant string, needSecret bool) func(q *req) {
	return func(q *req) {
		v := q.r.URL.Query()
		if v.Get("grant_type") != grant || (needSecret && v.Get("client_secret") != ClientSecret("instagram")) {
			graphError(q, apiError{Status: http.StatusBadRequest, Code: "100", Message: "Invalid grant_type or client_secret"})
			return
		}
		t, ok := q.net.access[v.Get("access_token")]
		if !ok || !instagramLoginToken(t) || t.revoked || !t.expires.After(q.net.sb.Now()) {
			graphError(q, apiError{Status: http.StatusBadRequest, Code: "190", Message: "Error validating access token: Session has expired or the token is invalid."})
			return
		}
		ttl := 60 * 24 * time.Hour
		if q.net.knobs.TokenTTLSeconds > 0 {
			ttl = q.net.ttl()
		}
		access := randID("IGAA")
		q.net.access[access] = &issued{user: t.user, scope: t.scope, expires: q.net.sb.Now().Add(ttl), token: access}
		q.json(http.StatusOK, map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds())})
	}
}
