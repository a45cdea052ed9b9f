package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// YouTube over Google OAuth: consent at /o/oauth2/v2/auth, token at /token (form, client
// credentials in the form; hour-long access tokens; the refresh token does not rotate), the Google
// user at /oauth2/v3/userinfo, channels at /youtube/v3/channels?mine=true. Errors are Google's
// {"error":{code,message,errors:[{domain,reason,message}],status}}.
func youtubeDialect() *dialect {
	d := &dialect{
		seg: "youtube", title: "YouTube", network: app.YouTube,
		authorizePath: "/o/oauth2/v2/auth", tokenPath: "/token", accessTTL: time.Hour,
		writeToken:   youtubeWriteToken,
		writeError:   googleError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "authError", Message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."},
		newUser:      youtubeNewUser,
		routes: map[string]func(q *req){
			"GET /oauth2/v3/userinfo":  youtubeUserinfo,
			"GET /youtube/v3/channels": youtubeChannels,
		},
	}
	youtubePublish(d)
	return d
}

func youtubeWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, _ *User) {
	out := map[string]any{"access_token": access, "expires_in": int(ttl.Seconds()), "scope": scope, "token_type": "Bearer"}
	if q.r.Form.Get("grant_type") != "refresh_token" && refresh != "" {
		out["refresh_token"] = refresh // Google sends the refresh token at the code exchange only
	}
	q.json(http.StatusOK, out)
}

func youtubeNewUser(n *Net, u *User) {
	for i, name := range []string{"Sandbox Cooking", "Sandbox Travel"} {
		u.Channels = append(u.Channels, Channel{ID: "UC" + numericID(u.ID+fmt.Sprint("/yt", i)), Name: name,
			Username: strings.ToLower(strings.ReplaceAll(name, " ", "")), Avatar: "https://sandbox.crier.invalid/youtube/" + fmt.Sprint(i) + ".jpg"})
	}
}

func youtubeUserinfo(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"sub": u.ID, "name": u.Name, "picture": u.Avatar, "email": u.Email, "email_verified": true})
}

func youtubeChannels(q *req) {
	if q.r.URL.Query().Get("mine") != "true" || !strings.Contains(q.r.URL.Query().Get("part"), "snippet") {
		googleError(q, apiError{Status: http.StatusBadRequest, Code: "missingRequiredParameter", Message: "No filter selected. Expected one of: mine, id, forHandle"})
		return
	}
	items := []map[string]any{}
	for _, c := range q.user.Channels {
		items = append(items, map[string]any{"kind": "youtube#channel", "etag": "sb", "id": c.ID, "snippet": map[string]any{
			"title": c.Name, "description": "", "customUrl": "@" + c.Username,
			"thumbnails": map[string]any{"default": map[string]any{"url": c.Avatar, "width": 88, "height": 88}}}})
	}
	q.json(http.StatusOK, map[string]any{"kind": "youtube#channelListResponse", "etag": "sb",
		"pageInfo": map[string]int{"totalResults": len(items), "resultsPerPage": 50}, "items": items})
}

// googleError answers in Google's shape; the code is the reason (quotaExceeded, rateLimitExceeded …).
func googleError(q *req, e apiError) {
	reason, status := e.Code, "INVALID_ARGUMENT"
	switch e.Status {
	case http.StatusUnauthorized:
		status = "UNAUTHENTICATED"
	case http.StatusForbidden:
		status = "PERMISSION_DENIED"
	case http.StatusNotFound:
		status = "NOT_FOUND"
	case http.StatusTooManyRequests:
		status = "RESOURCE_EXHAUSTED"
	}
	if e.Status >= 500 {
		status = "UNAVAILABLE"
	}
	if reason == "" {
		reason = strings.ToLower(status[:1]) + status[1:]
		if e.Status == http.StatusTooManyRequests {
			reason = "rateLimitExceeded"
		}
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if !e.ResetAt.IsZero() {
		q.w.Header().Set("Retry-After", fmt.Sprint(int(time.Until(e.ResetAt).Seconds()+0.5)))
	}
	q.json(e.Status, map[string]any{"error": map[string]any{"code": e.Status, "message": msg, "status": status,
		"errors": []map[string]string{{"message": msg, "domain": "youtube.api", "reason": reason}}}})
}
