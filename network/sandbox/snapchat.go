package sandbox

import (
	"net/http"
	"time"

	"github.com/crier/crier/app"
)

// Snapchat (Public Profile API; shapes per networks.md, marked uncertain there): consent at
// /login/oauth2/authorize, token at /login/oauth2/access_token (form), 30-minute access tokens with
// non-rotating refresh tokens, the profile at /v1/public_profiles/my_profile in Snap's
// {"request_status","request_id",…} envelope.
func snapchatDialect() *dialect {
	d := &dialect{
		seg: "snapchat", title: "Snapchat", network: app.Snapchat,
		authorizePath: "/login/oauth2/authorize", tokenPath: "/login/oauth2/access_token", accessTTL: 30 * time.Minute,
		writeToken:   standardToken,
		writeError:   snapchatWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "E1001", Message: "Unauthorized"},
		routes: map[string]func(q *req){
			"GET /v1/public_profiles/my_profile": snapchatMyProfile,
		},
	}
	snapchatPublish(d)
	return d
}

func snapchatWriteError(q *req, e apiError) {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	code := e.Code
	if code == "" {
		code = "E" + http.StatusText(e.Status)
	}
	q.json(e.Status, map[string]any{"request_status": "ERROR", "request_id": randID("")[:16], "debug_message": msg,
		"display_message": msg, "error_code": code})
}

func snapchatMyProfile(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"request_status": "SUCCESS", "request_id": randID("")[:16],
		"public_profile": map[string]any{"id": "pp-" + u.ID, "display_name": u.Name, "username": u.Login, "profile_image_url": u.Avatar}})
}
