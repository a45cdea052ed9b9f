// Package inspector holds the sandbox inspector page (SANDBOX=1 only): the 15 simulated networks
// with their counts, and for the chosen one the accounts that signed in, what Crier made there
// (posts, media, comments, messages), the latest calls, live tokens, knobs and pending injected
// failures, with forms that turn the knobs.
//
// Pages take plain values; web reads the sandbox, formats times in the viewer's timezone and builds
// every URL. The parts that change while people watch (counts, holdings, calls, accounts, tokens,
// failures) are regions that one poller refreshes out of band; the forms are never replaced by it.
package inspector

import (
	"strconv"

	"github.com/a-h/templ"

	"github.com/crier/crier/views/components"
)

// Data is the inspector page for one network.
type Data struct {
	Nets     []NetLink
	Net      Net
	Poll     templ.SafeURL // the live regions, with the version the page shows
	Controls Controls
}

// NetLink is one network in the list of 15.
type NetLink struct {
	Code       string // "TWITTER"
	Name       string // "X"
	Href       templ.SafeURL
	Current    bool
	Users      int
	Held       int // live things Crier made there
	Calls      int
	Failed     int // calls answered 4xx/5xx
	Failures   int // injected failures pending
	LiveTokens int
}

// Net is the chosen network's state.
type Net struct {
	Code, Name    string
	JSON          templ.SafeURL // its raw state
	Base          string        // where it is mounted ("/sandbox/x/")
	Teams         templ.SafeURL // where accounts get connected
	Users         []User
	Held          []Held
	Posts         int
	Media         int
	Comments      int
	Messages      int
	Calls         []Call
	KeptCalls     int
	Failed        int
	Tokens        []Token
	RefreshTokens int
	Failures      []Failure
	LatencyMs     int
	TokenTTL      string // "60 s" or "network default (2 h)"
}

// User is a simulated account.
type User struct {
	ID, Login, Name, Email string
	Channels               []Channel
}

// Channel is a page, board, channel … of a user.
type Channel struct {
	ID, Name, Username string
}

// Held is one thing Crier made on the network.
type Held struct {
	Kind    string // post, media, comment, message
	ID      string
	User    string
	Channel string
	Text    string
	Media   []string
	Parent  string
	URL     templ.SafeURL // the permalink; "" when none (or not http/https)
	URLText string
	At      string
	Deleted string // when deleted, else ""
}

// Call is one request the network received.
type Call struct {
	At, Method, Path, Query string
	Status                  int
}

// Token is a live access token.
type Token struct {
	User, Scope, Expires, Hint string
}

// Failure is a pending injected failure.
type Failure struct {
	Status  int
	Code    string
	Message string
	Path    string
	Times   int
	Reset   int
}

// Controls are the forms.
type Controls struct {
	Knobs        components.Form // latencyMs, tokenTtlSeconds
	KnobsAction  templ.SafeURL
	Fail         components.Form // status, code, message, times, path, resetInSeconds
	FailAction   templ.SafeURL
	Statuses     []Option
	Expire       templ.SafeURL
	Revoke       templ.SafeURL
	ClearFailure templ.SafeURL
	Reset        templ.SafeURL
	NetName      string
}

// Option is a choice of a select.
type Option struct {
	Value, Label string
}

// Region ids: the poller refreshes them out of band.
const (
	idNets     = "sandbox-nets"
	idStats    = "sandbox-stats"
	idHeld     = "sandbox-held"
	idCalls    = "sandbox-calls"
	idUsers    = "sandbox-users"
	idTokens   = "sandbox-tokens"
	idFailures = "sandbox-failures"
	idKnobsNow = "sandbox-knobs-now"
	// Forms (their answers replace them).
	idKnobsForm = "sandbox-knobs-form"
	idFailForm  = "sandbox-fail-form"
)

// KindTone colours a kind of holding.
func KindTone(kind string) components.Tone {
	switch kind {
	case "post":
		return components.ToneAccent
	case "media":
		return components.ToneInfo
	case "comment":
		return components.ToneSuccess
	case "message":
		return components.ToneWarning
	}
	return components.ToneNeutral
}

// StatusTone colours an HTTP status.
func StatusTone(status int) components.Tone {
	switch {
	case status >= 500:
		return components.ToneDanger
	case status >= 400:
		return components.ToneWarning
	case status >= 300:
		return components.ToneInfo
	}
	return components.ToneSuccess
}

func itoa(n int) string { return strconv.Itoa(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func oob(on bool) templ.Attributes {
	if on {
		return templ.Attributes{"hx-swap-oob": "true"}
	}
	return templ.Attributes{}
}

func times(n int) string {
	if n == 1 {
		return "next call"
	}
	return "next " + strconv.Itoa(n) + " calls"
}

func initial(s string) string {
	for _, r := range s {
		return string(r)
	}
	return "?"
}

func methodClass(m string) string { return "sbx-method sbx-method--" + m }
