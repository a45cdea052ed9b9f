package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// Reddit: consent /api/v1/authorize, token /api/v1/access_token (Basic client auth), hour-long
// access tokens, permanent refresh tokens that do not rotate; /api/v1/me and
// /subreddits/mine/subscriber (a Listing); errors {"message","error"}; X-Ratelimit-* headers.
func redditDialect() *dialect {
	d := &dialect{
		seg: "reddit", title: "Reddit", network: app.Reddit,
		authorizePath: "/api/v1/authorize", tokenPath: "/api/v1/access_token", basicAuth: true, accessTTL: time.Hour,
		writeToken:   redditWriteToken,
		writeError:   redditWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Message: "Unauthorized"},
		newUser:      redditNewUser,
		routes: map[string]func(q *req){
			"GET /api/v1/me":                  redditMe,
			"GET /subreddits/mine/subscriber": redditSubscribed,
		},
	}
	redditPublish(d)
	return d
}

func redditWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, u *User) {
	out := map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int(ttl.Seconds()), "scope": scope}
	if refresh != "" && q.r.Form.Get("grant_type") != "refresh_token" {
		out["refresh_token"] = refresh
	}
	q.json(http.StatusOK, out)
}

func redditWriteError(q *req, e apiError) {
	q.w.Header().Set("X-Ratelimit-Used", "100")
	q.w.Header().Set("X-Ratelimit-Remaining", "0")
	if !e.ResetAt.IsZero() {
		q.w.Header().Set("X-Ratelimit-Reset", fmt.Sprint(int(time.Until(e.ResetAt).Seconds()+0.5)))
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	q.json(e.Status, map[string]any{"message": msg, "error": e.Status})
}

func redditNewUser(n *Net, u *User) {
	u.ID = strings.ToLower(fmt.Sprintf("%x", u.ID))[:7]
	for _, name := range []string{"golang", "selfhosted", "sandboxtest"} {
		u.Channels = append(u.Channels, Channel{ID: name, Name: "r/" + name + " community", Username: name})
	}
}

func redditMe(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"id": u.ID, "name": u.Login, "icon_img": u.Avatar + "?width=256&amp;s=abc",
		"subreddit": map[string]any{"display_name_prefixed": "u/" + u.Login, "public_description": u.Bio, "title": u.Name}})
}

func redditSubscribed(q *req) {
	children := []map[string]any{}
	for i, c := range q.user.Channels {
		children = append(children, map[string]any{"kind": "t5", "data": map[string]any{"name": fmt.Sprintf("t5_%x", i+100),
			"display_name": c.ID, "display_name_prefixed": "r/" + c.ID, "title": c.Name, "icon_img": "", "community_icon": "",
			"allow_images": true, "allow_videos": c.ID != "golang", "allow_galleries": true, "link_flair_enabled": c.ID == "selfhosted"}})
	}
	q.json(http.StatusOK, map[string]any{"kind": "Listing", "data": map[string]any{"after": nil, "dist": len(children), "children": children}})
}
