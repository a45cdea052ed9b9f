package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// GraphVersion is the Graph API version Crier's Meta adapters call.
const GraphVersion = "v21.0"

// Facebook (Graph API, Pages): the dialog at www.facebook.com/vN/dialog/oauth, the token at
// graph.facebook.com/vN/oauth/access_token (short-lived user token; grant_type=fb_exchange_token
// gives a ~60-day one; no refresh token), pages with their own tokens from /me/accounts. Errors are
// {"error":{message,type,code,error_subcode,fbtrace_id}}; throttling is code 4/17/32/613 with
// X-Business-Use-Case-Usage / X-App-Usage headers.
func facebookDialect() *dialect {
	d := &dialect{
		seg: "facebook", title: "Facebook", network: app.Facebook,
		authorizePath: "/" + GraphVersion + "/dialog/oauth", tokenPath: "/" + GraphVersion + "/oauth/access_token",
		noRefresh: true, accessTTL: 2 * time.Hour,
		bearer:          graphBearer,
		writeToken:      graphToken,
		writeTokenError: facebookWriteTokenError,
		writeError:      graphError,
		newUser:         facebookNewUser,
		invalidToken:    apiError{Status: http.StatusBadRequest, Code: "190", Message: "Error validating access token: Session has expired."},
	}
	d.exchange = facebookExchange
	d.routes = map[string]func(q *req){
		"GET /" + GraphVersion + "/me":          facebookMe,
		"GET /" + GraphVersion + "/me/accounts": facebookAccounts,
	}
	facebookPublish(d)
	return d
}

func facebookWriteTokenError(q *req, status int, code, msg string) {
	graphError(q, apiError{Status: status, Code: "100", Message: msg})
}

func facebookNewUser(n *Net, u *User) {
	for i, name := range []string{"Sandbox Bakery", "Sandbox Bikes"} {
		id := numericID(u.ID + fmt.Sprint("/page", i))
		u.Channels = append(u.Channels, Channel{ID: id, Name: name, Username: strings.ToLower(strings.ReplaceAll(name, " ", "")),
			Avatar: "https://sandbox.crier.invalid/facebook/pages/" + id + ".png", Token: randID("facebook-page-")})
	}
}

func facebookExchange(q *req, form url.Values) bool {
	if form.Get("grant_type") != "fb_exchange_token" {
		return false
	}
	t, ok := q.net.access[form.Get("fb_exchange_token")]
	if !ok || t.revoked || !t.expires.After(q.net.sb.Now()) {
		graphError(q, apiError{Status: http.StatusBadRequest, Code: "190", Message: "Error validating access token: The session has been invalidated."})
		return true
	}
	ttl := 60 * 24 * time.Hour
	if q.net.knobs.TokenTTLSeconds > 0 {
		ttl = q.net.ttl()
	}
	access := randID("facebook-ll-")
	q.net.access[access] = &issued{user: t.user, scope: t.scope, expires: q.net.sb.Now().Add(ttl), token: access}
	graphToken(q, access, "", ttl, t.scope, t.user)
	return true
}

func facebookMe(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"id": u.ID, "name": u.Name, "email": u.Email,
		"picture": map[string]any{"data": map[string]any{"url": u.Avatar}}})
}

func facebookAccounts(q *req) {
	data := []map[string]any{}
	for _, c := range q.user.Channels {
		data = append(data, map[string]any{"id": c.ID, "name": c.Name, "username": c.Username, "access_token": c.Token,
			"category": "Local business", "tasks": []string{"ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MODERATE", "MANAGE"},
			"picture": map[string]any{"data": map[string]any{"url": c.Avatar}}})
	}
	q.json(http.StatusOK, map[string]any{"data": data, "paging": map[string]any{"cursors": map[string]string{"before": "QVFIUk", "after": "QVFIUl"}}})
}

// graphBearer reads a Graph token from access_token (query or form) or Authorization: Bearer/OAuth.
func graphBearer(r *http.Request) string {
	if t := r.URL.Query().Get("access_token"); t != "" {
		return t
	}
	a := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(a, "OAuth "); ok {
		return t
	}
	return strings.TrimPrefix(a, "Bearer ")
}

func graphToken(q *req, access, _ string, ttl time.Duration, _ string, _ *User) {
	q.json(http.StatusOK, map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds())})
}

// graphError answers in Graph's shape. Codes 4/17/32/613/80001 are throttling (Graph answers them
// with 400/403 and usage headers rather than 429); the injected status is kept.
func graphError(q *req, e apiError) {
	code := e.Code
	if code == "" {
		code = "1"
		if e.Status == http.StatusTooManyRequests {
			code = "32"
		}
	}
	typ := "OAuthException"
	if !e.ResetAt.IsZero() {
		mins := int(time.Until(e.ResetAt).Minutes() + 0.999)
		usage, _ := json.Marshal(map[string]any{"0": []map[string]any{{"type": "pages", "call_count": 100, "total_cputime": 10,
			"total_time": 10, "estimated_time_to_regain_access": mins}}})
		q.w.Header().Set("X-Business-Use-Case-Usage", string(usage))
		q.w.Header().Set("X-App-Usage", `{"call_count":100,"total_cputime":10,"total_time":10}`)
	}
	msg := e.Message
	if msg == "" {
		msg = "An unknown error has occurred."
	}
	var n int
	_, _ = fmt.Sscan(code, &n)
	q.json(e.Status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": n, "fbtrace_id": randID("A")[:12]}})
}
