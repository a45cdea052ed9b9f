package instagram

// Instagram Login (instagramConnectionMethod INSTAGRAM): the professional account signs in at
// Instagram itself, without a Facebook page. Consent at www.instagram.com/oauth/authorize with the
// instagram_business_* scopes (comma-separated); the code is exchanged at
// api.instagram.com/oauth/access_token (form: client_id, client_secret, grant_type, redirect_uri,
// code) for a short-lived token (~1 h), traded at once at graph.instagram.com/access_token
// (grant_type=ig_exchange_token) for a ~60-day one; Refresh renews it while valid (and at least
// 24 h old) at graph.instagram.com/refresh_access_token (grant_type=ig_refresh_token) — there is no
// refresh token. The account is GET graph.instagram.com/vN/me (user_id, username, name,
// profile_picture_url, account_type); it is its own destination (no channel to select), and
// publishing is the same container flow as publish.go against graph.instagram.com/vN/<user_id>.
//
// The token keeps the method and the account id in Secrets, so every later call (refresh,
// profile, publish) takes the Instagram Login path without asking the service.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/meta"
)

// MethodInstagram is the connection method of Instagram Login (MethodFacebook, the default, is
// Facebook Login).
const (
	MethodInstagram = "INSTAGRAM"
	MethodFacebook  = "FACEBOOK"
)

// Secrets kept with an Instagram Login token.
const (
	SecretMethod = "instagramConnectionMethod" // "INSTAGRAM"
	SecretUserID = "igUserId"                  // the professional account's id (me.user_id)
)

// LoginReal are Instagram Login's hosts: the consent on www.instagram.com, the code exchange on
// api.instagram.com, the API (token exchange, refresh, me, media) on graph.instagram.com.
var LoginReal = core.Endpoints{Auth: "https://www.instagram.com", Token: "https://api.instagram.com", API: "https://graph.instagram.com"}

// LoginScopes are asked at an Instagram Login connect (instagram_business_manage_messages is added
// with withMessagingScope).
var LoginScopes = []string{"instagram_business_basic", "instagram_business_content_publish", "instagram_business_manage_comments",
	"instagram_business_manage_insights"}

// loginEndpoints derives Instagram Login's hosts from the adapter's: the real Graph means the real
// Instagram hosts; any other base (the sandbox, a test server) serves all three paths itself.
func loginEndpoints(ep core.Endpoints) core.Endpoints {
	if ep == Real {
		return LoginReal
	}
	tok := ep.Token
	if tok == "" {
		tok = ep.API
	}
	return core.Endpoints{Auth: strings.TrimRight(ep.Auth, "/"), Token: strings.TrimRight(tok, "/"), API: strings.TrimRight(ep.API, "/")}
}

// IsLogin reports whether a token was issued through Instagram Login.
func IsLogin(t *app.Token) bool { return t != nil && t.Secrets[SecretMethod] == MethodInstagram }

func viaLogin(t *app.Token, acct *app.SocialAccount) bool {
	if IsLogin(t) {
		return true
	}
	return acct != nil && acct.InstagramConnectionMethod != nil && *acct.InstagramConnectionMethod == MethodInstagram
}

// loginGraph is graph.instagram.com's versioned base.
func (a *Adapter) loginGraph() string { return a.Login.API + "/" + meta.Version }

func (a *Adapter) loginAuthorizeURL(r app.AuthorizeRequest) string {
	scopes := append([]string{}, LoginScopes...)
	if r.Options.WithMessagingScope {
		scopes = append(scopes, "instagram_business_manage_messages")
	}
	q := url.Values{"client_id": {a.cred.ClientID}, "redirect_uri": {r.RedirectURI}, "response_type": {"code"},
		"scope": {strings.Join(scopes, ",")}, "state": {r.State}}
	if r.Options.DisableAutoLogin {
		q.Set("force_reauth", "true")
	}
	return a.Login.Auth + "/oauth/authorize?" + q.Encode()
}

// flexID reads an id given as a JSON number or string.
type flexID string

func (f *flexID) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = flexID(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*f = flexID(s)
	return nil
}

// shortToken is api.instagram.com's answer: {"data":[{access_token,user_id,permissions}]} (the
// current docs) or the same fields at the top level (the older shape, permissions an array).
type shortToken struct {
	Data []struct {
		AccessToken string          `json:"access_token"`
		UserID      flexID          `json:"user_id"`
		Permissions json.RawMessage `json:"permissions"`
	} `json:"data"`
	AccessToken string          `json:"access_token"`
	UserID      flexID          `json:"user_id"`
	Permissions json.RawMessage `json:"permissions"`
}

func permissions(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		return strings.Join(l, ",")
	}
	return ""
}

// loginExchange trades the code for a short-lived token, then for a long-lived one, and reads the
// account id to publish with.
func (a *Adapter) loginExchange(ctx context.Context, r app.ExchangeRequest) (*app.Token, error) {
	var st shortToken
	form := url.Values{"client_id": {a.cred.ClientID}, "client_secret": {a.cred.ClientSecret}, "grant_type": {"authorization_code"},
		"redirect_uri": {r.RedirectURI}, "code": {r.Code}}
	if err := a.loginToken.Do(ctx, core.Request{Method: http.MethodPost, URL: a.Login.Token + "/oauth/access_token", Form: form}, &st); err != nil {
		return nil, err
	}
	short, userID, scope := st.AccessToken, string(st.UserID), permissions(st.Permissions)
	if len(st.Data) > 0 {
		short, userID, scope = st.Data[0].AccessToken, string(st.Data[0].UserID), permissions(st.Data[0].Permissions)
	}
	if short == "" {
		return nil, &app.NetworkError{Network: app.Instagram, Class: app.ErrTransient, Message: "the token endpoint answered no access_token"}
	}
	q := url.Values{"grant_type": {"ig_exchange_token"}, "client_secret": {a.cred.ClientSecret}, "access_token": {short}}
	t, err := a.loginLongLived(ctx, "/access_token", q)
	if err != nil {
		return nil, err
	}
	t.Scope = scope
	t.Secrets[SecretUserID] = userID
	// The professional account's id (me.user_id) is the one the media endpoints take.
	if me, err := a.loginMe(ctx, t.AccessToken); err == nil && me.UserID != "" {
		t.Secrets[SecretUserID] = string(me.UserID)
	} else if err != nil && app.ClassOf(err) != app.ErrTransient {
		return nil, err
	}
	return t, nil
}

func (a *Adapter) loginLongLived(ctx context.Context, path string, q url.Values) (*app.Token, error) {
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := a.API().Do(ctx, core.Request{URL: a.Login.API + path + "?" + q.Encode()}, &out); err != nil {
		return nil, err
	}
	t := &app.Token{AccessToken: out.AccessToken, Secrets: map[string]string{SecretMethod: MethodInstagram}}
	if out.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
	}
	return t, nil
}

// loginRefresh renews a long-lived Instagram Login token (a dead one is ErrAuthExpired, code 190).
func (a *Adapter) loginRefresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	nt, err := a.loginLongLived(ctx, "/refresh_access_token", url.Values{"grant_type": {"ig_refresh_token"}, "access_token": {t.AccessToken}})
	if err != nil {
		return nil, err
	}
	nt.Scope = t.Scope
	for k, v := range t.Secrets {
		if _, ok := nt.Secrets[k]; !ok && !strings.HasPrefix(k, "channel") {
			nt.Secrets[k] = v
		}
	}
	return nt, nil
}

type loginUser struct {
	ID                string `json:"id"`
	UserID            flexID `json:"user_id"`
	Username          string `json:"username"`
	Name              string `json:"name"`
	ProfilePictureURL string `json:"profile_picture_url"`
	AccountType       string `json:"account_type"`
	Biography         string `json:"biography"`
}

func (a *Adapter) loginMe(ctx context.Context, token string) (*loginUser, error) {
	var me loginUser
	err := a.API().Do(ctx, core.Request{URL: a.loginGraph() + "/me?fields=user_id,username,name,profile_picture_url,account_type", Bearer: token}, &me)
	return &me, err
}

// loginProfile reads the professional account: it is both the account and its user.
func (a *Adapter) loginProfile(ctx context.Context, t *app.Token) (*app.Profile, error) {
	me, err := a.loginMe(ctx, t.AccessToken)
	if err != nil {
		return nil, err
	}
	id := string(me.UserID)
	if id == "" {
		id = me.ID
	}
	return &app.Profile{ExternalID: id, Username: me.Username, DisplayName: me.Name, AvatarURL: me.ProfilePictureURL,
		UserID: id, UserUsername: me.Username, UserDisplayName: me.Name}, nil
}

// classifyLoginToken reads api.instagram.com's token errors
// {"error_type":"OAuthException","code":400,"error_message":"…"} (Graph's shape otherwise).
func classifyLoginToken(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		ErrorType    string `json:"error_type"`
		Code         int    `json:"code"`
		ErrorMessage string `json:"error_message"`
	}
	if json.Unmarshal(body, &e) != nil || e.ErrorMessage == "" {
		return meta.Classify(status, h, body)
	}
	ne := &app.NetworkError{Class: core.ByStatus(status), Code: e.ErrorType, Message: e.ErrorMessage}
	if status == http.StatusBadRequest {
		// A used, expired or foreign code (or a mismatched redirect_uri): connect again.
		ne.Class = app.ErrPermanent
	}
	return ne
}
