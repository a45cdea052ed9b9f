// Package google holds what Crier's Google adapters (YouTube, Google Business Profile) share:
// Google's OAuth 2 (offline access with prompt=consent so a refresh token is issued; access tokens
// of about an hour; a refused refresh is invalid_grant) and Google's error body
// {"error":{"code","message","errors":[{"domain","reason","message"}],"status"}}.
package google

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// Real endpoints: consent on accounts.google.com, token on oauth2.googleapis.com; APIs vary.
var Real = core.Endpoints{Auth: "https://accounts.google.com", Token: "https://oauth2.googleapis.com", API: "https://www.googleapis.com"}

// OAuth builds Google's flow for network n with scopes.
func OAuth(n app.Network, scopes []string, ep core.Endpoints, cred core.Credentials) *core.OAuth2 {
	tok := ep.Token
	if tok == "" {
		tok = ep.API
	}
	return &core.OAuth2{Network: n, Config: oauth2.Config{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: strings.TrimRight(ep.Auth, "/") + "/o/oauth2/v2/auth", TokenURL: strings.TrimRight(tok, "/") + "/token", AuthStyle: oauth2.AuthStyleInParams}},
		Extra: url.Values{"access_type": {"offline"}, "prompt": {"consent"}, "include_granted_scopes": {"true"}}}
}

// Pacific is where Google's daily quotas reset (midnight Pacific time).
var Pacific = func() *time.Location {
	if l, err := time.LoadLocation("America/Los_Angeles"); err == nil {
		return l
	}
	return time.FixedZone("PT", -8*3600)
}()

// NextPacificMidnight is when a daily quota resets.
func NextPacificMidnight(now time.Time) time.Time {
	t := now.In(Pacific)
	return time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, Pacific).UTC()
}

// Classify reads Google's error answers.
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Status  string `json:"status"`
			Errors  []struct {
				Reason string `json:"reason"`
				Domain string `json:"domain"`
			} `json:"errors"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Error.Message, Code: e.Error.Status}
	if len(e.Error.Errors) > 0 && e.Error.Errors[0].Reason != "" {
		ne.Code = e.Error.Errors[0].Reason
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch ne.Code {
	case "quotaExceeded", "uploadLimitExceeded", "dailyLimitExceeded":
		ne.Class, ne.ResetAt = app.ErrRateLimited, NextPacificMidnight(time.Now())
	case "rateLimitExceeded", "userRateLimitExceeded", "RESOURCE_EXHAUSTED":
		ne.Class = app.ErrRateLimited
		ne.ResetAt = core.RetryAfter(h, time.Now())
	case "authError", "UNAUTHENTICATED":
		ne.Class = app.ErrAuthExpired
	case "backendError", "internalError", "UNAVAILABLE":
		ne.Class = app.ErrTransient
	}
	return ne
}
