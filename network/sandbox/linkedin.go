package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// LinkedIn: consent at /oauth/v2/authorization, token at /oauth/v2/accessToken (form, client
// credentials in the form), 60-day access tokens; the sandbox app is an approved partner, so it
// also gets 365-day refresh tokens. The member from /v2/userinfo; Company Pages from
// /rest/organizationAcls and /rest/organizations/{id}, which require LinkedIn-Version.
// Errors: {"serviceErrorCode", "message", "status"}.
func linkedinDialect() *dialect {
	d := &dialect{
		seg: "linkedin", title: "LinkedIn", network: app.LinkedIn,
		authorizePath: "/oauth/v2/authorization", tokenPath: "/oauth/v2/accessToken",
		accessTTL:    60 * 24 * time.Hour,
		writeToken:   linkedinWriteToken,
		writeError:   linkedinWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Code: "65600", Message: "Invalid access token"},
		newUser:      linkedinNewUser,
	}
	d.routes = map[string]func(q *req){
		"GET /v2/userinfo":             linkedinUserinfo,
		"GET /rest/organizationAcls":   linkedinVersioned(linkedinOrganizationAcls),
		"GET /rest/organizations/{id}": linkedinVersioned(linkedinOrganization),
	}
	linkedinPublish(d)
	return d
}

func linkedinWriteToken(q *req, access, refresh string, ttl time.Duration, scope string, _ *User) {
	out := map[string]any{"access_token": access, "expires_in": int(ttl.Seconds()), "scope": strings.ReplaceAll(scope, " ", ",")}
	if refresh != "" {
		out["refresh_token"], out["refresh_token_expires_in"] = refresh, 31536000
	}
	q.json(http.StatusOK, out)
}

func linkedinWriteError(q *req, e apiError) {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	body := map[string]any{"message": msg, "status": e.Status}
	var n int
	if _, err := fmt.Sscan(e.Code, &n); err == nil {
		body["serviceErrorCode"] = n
	} else if e.Code != "" {
		body["code"] = e.Code
	}
	q.json(e.Status, body)
}

func linkedinNewUser(n *Net, u *User) {
	u.ID = "sb" + u.ID
	for i, name := range []string{"Sandbox Robotics", "Sandbox Coffee Co"} {
		u.Channels = append(u.Channels, Channel{ID: numericID(u.ID + fmt.Sprint("/org", i))[:9], Name: name,
			Username: strings.ToLower(strings.ReplaceAll(name, " ", "-"))})
	}
}

// linkedinVersioned refuses calls without the LinkedIn-Version header, as the versioned API does.
func linkedinVersioned(h func(q *req)) func(q *req) {
	return func(q *req) {
		if q.r.Header.Get("LinkedIn-Version") == "" {
			q.fail(apiError{Status: http.StatusBadRequest, Code: "VERSION_MISSING", Message: "A version must be present. Please specify a version by adding the LinkedIn-Version header."})
			return
		}
		h(q)
	}
}

func linkedinUserinfo(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"sub": u.ID, "email_verified": true, "name": u.Name, "given_name": "Sandbox",
		"family_name": u.Login, "picture": u.Avatar, "email": u.Email, "locale": map[string]string{"country": "US", "language": "en"}})
}

func linkedinOrganizationAcls(q *req) {
	els := []map[string]any{}
	for _, c := range q.user.Channels {
		els = append(els, map[string]any{"roleAssignee": "urn:li:person:" + q.user.ID, "state": "APPROVED", "role": "ADMINISTRATOR",
			"organization": "urn:li:organization:" + c.ID})
	}
	q.json(http.StatusOK, map[string]any{"paging": map[string]any{"start": 0, "count": 100, "links": []any{}}, "elements": els})
}

func linkedinOrganization(q *req) {
	id := strings.TrimPrefix(q.path, "/rest/organizations/")
	for _, c := range q.user.Channels {
		if c.ID == id {
			var n int64
			_, _ = fmt.Sscan(c.ID, &n)
			q.json(http.StatusOK, map[string]any{"id": n, "localizedName": c.Name, "vanityName": c.Username,
				"name": map[string]any{"localized": map[string]string{"en_US": c.Name}}})
			return
		}
	}
	q.fail(apiError{Status: http.StatusForbidden, Code: "ACCESS_DENIED", Message: "Not enough permissions to access: organizations.GET.20260101"})
}
