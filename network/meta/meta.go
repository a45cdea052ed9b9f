// Package meta holds what Crier's Meta adapters (Facebook, Instagram, Threads) share: the Graph
// API's version and hosts, Facebook Login (FacebookLogin: the Graph OAuth dialog, the short-lived
// token exchanged at once for a ~60-day one, /me and /me/accounts) that Facebook and Instagram
// connect through, the page token of a chosen channel, and Graph's error body
// {"error":{"message","type","code","error_subcode","fbtrace_id"}} read by Classify (Threads
// answers the same shape).
//
// Throttling is code 4/17/32/613/80001 (on 400/403, rarely 429); the reset comes from
// X-Business-Use-Case-Usage's estimated_time_to_regain_access (minutes). 190 (and subcode
// 463/467/490) means the token is dead.
package meta

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

// Version is the Graph API version called.
const Version = "v21.0"

// Real endpoints: the dialog lives on www.facebook.com, the API on graph.facebook.com.
var Real = core.Endpoints{Auth: "https://www.facebook.com", API: "https://graph.facebook.com"}

// ChannelToken answers the destination page (or Instagram account) and its page token: the
// channel's own Token, else the one Crier keeps in the token's Secrets ("channel:<id>", or
// "channel" for the selected channel "channelId"); without a channel, the selected one.
func ChannelToken(t *app.Token, ch *app.Channel) (id, token string) {
	if ch != nil {
		id, token = ch.ID, ch.Token
	}
	if t == nil || t.Secrets == nil {
		return id, token
	}
	if id == "" {
		id = t.Secrets["channelId"]
	}
	if token == "" && id != "" {
		if token = t.Secrets["channel:"+id]; token == "" && t.Secrets["channelId"] == id {
			token = t.Secrets["channel"]
		}
	}
	return id, token
}

// Classify reads Graph API errors (Facebook, Instagram and Threads).
func Classify(status int, h http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error struct {
			Message      string `json:"message"`
			Type         string `json:"type"`
			Code         int    `json:"code"`
			ErrorSubcode int    `json:"error_subcode"`
			IsTransient  bool   `json:"is_transient"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	ne := &app.NetworkError{Class: core.ByStatus(status), Message: e.Error.Message}
	if e.Error.Code != 0 {
		ne.Code = strconv.Itoa(e.Error.Code)
		if e.Error.ErrorSubcode != 0 {
			ne.Code += "/" + strconv.Itoa(e.Error.ErrorSubcode)
		}
	}
	if ne.Message == "" {
		ne.Message = core.Snippet(body)
	}
	switch e.Error.Code {
	case 4, 17, 32, 613, 80001, 80002, 80006:
		ne.Class = app.ErrRateLimited
		ne.ResetAt = regainAccess(h)
	case 190, 102:
		ne.Class = app.ErrAuthExpired
	case 1, 2, 1363047, 1609010:
		ne.Class = app.ErrTransient
	case 0:
	default:
		if e.Error.IsTransient {
			ne.Class = app.ErrTransient
		} else if status < 500 && status != http.StatusTooManyRequests {
			ne.Class = app.ErrPermanent
		}
	}
	if status == http.StatusTooManyRequests {
		ne.Class = app.ErrRateLimited
		if ne.ResetAt.IsZero() {
			ne.ResetAt = regainAccess(h)
		}
	}
	return ne
}

// regainAccess reads estimated_time_to_regain_access (minutes) from X-Business-Use-Case-Usage;
// without it, an X-App-Usage at 100% (Platform rate limits, a rolling hour) reopens within the hour.
func regainAccess(h http.Header) time.Time {
	raw := h.Get("X-Business-Use-Case-Usage")
	if raw == "" {
		return appUsage(h)
	}
	var usage map[string][]struct {
		Minutes int `json:"estimated_time_to_regain_access"`
	}
	if json.Unmarshal([]byte(raw), &usage) != nil {
		return time.Time{}
	}
	most := 0
	for _, es := range usage {
		for _, e := range es {
			most = max(most, e.Minutes)
		}
	}
	if most == 0 {
		return time.Time{}
	}
	return time.Now().Add(time.Duration(most) * time.Minute)
}

// appUsage reads X-App-Usage ({"call_count","total_cputime","total_time"} in percent): at 100 the
// app is throttled until the rolling one-hour window lets calls through again.
func appUsage(h http.Header) time.Time {
	var u struct {
		CallCount    int `json:"call_count"`
		TotalCPUTime int `json:"total_cputime"`
		TotalTime    int `json:"total_time"`
	}
	if raw := h.Get("X-App-Usage"); raw == "" || json.Unmarshal([]byte(raw), &u) != nil {
		return time.Time{}
	}
	if max(u.CallCount, u.TotalCPUTime, u.TotalTime) < 100 {
		return time.Time{}
	}
	return time.Now().Add(time.Hour)
}
