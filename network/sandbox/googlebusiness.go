package sandbox

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/crier/crier/app"
)

// Google Business Profile: YouTube's Google OAuth twin (same consent, token and userinfo), plus
// GET /v1/accounts (Account Management) and GET /v1/accounts/{a}/locations (Business Information,
// readMask required). Errors are Google's.
func googleBusinessDialect() *dialect {
	d := youtubeDialect()
	d.seg, d.title, d.network = "google_business", "Google Business", app.GoogleBusiness
	d.newUser = googleBusinessNewUser
	d.routes = map[string]func(q *req){
		"GET /oauth2/v3/userinfo":         d.routes["GET /oauth2/v3/userinfo"],
		"GET /v1/accounts":                googleBusinessAccounts,
		"GET /v1/accounts/{id}/locations": googleBusinessLocations,
	}
	googleBusinessPublish(d)
	return d
}

func googleBusinessNewUser(n *Net, u *User) {
	for i, name := range []string{"Sandbox Bakery Downtown", "Sandbox Bakery Airport"} {
		u.Channels = append(u.Channels, Channel{ID: numericID(u.ID + fmt.Sprint("/loc", i))[:12], Name: name, Username: fmt.Sprint(i+1) + " Main Street"})
	}
}

func googleBusinessAccounts(q *req) {
	q.json(http.StatusOK, map[string]any{"accounts": []map[string]any{{"name": "accounts/" + q.user.ID, "accountName": q.user.Name,
		"type": "PERSONAL", "verificationState": "VERIFIED"}}})
}

func googleBusinessLocations(q *req) {
	if strings.TrimPrefix(strings.TrimSuffix(q.path, "/locations"), "/v1/accounts/") != q.user.ID {
		googleError(q, apiError{Status: http.StatusForbidden, Message: "The caller does not have permission"})
		return
	}
	if q.r.URL.Query().Get("readMask") == "" {
		googleError(q, apiError{Status: http.StatusBadRequest, Message: "Request contains an invalid argument."})
		return
	}
	locs := []map[string]any{}
	for _, c := range q.user.Channels {
		locs = append(locs, map[string]any{"name": "locations/" + c.ID, "title": c.Name,
			"storefrontAddress": map[string]any{"regionCode": "US", "postalCode": "94110", "locality": "San Francisco", "addressLines": []string{c.Username}}})
	}
	q.json(http.StatusOK, map[string]any{"locations": locs})
}
