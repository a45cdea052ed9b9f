package web

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/inspector"
)

// The sandbox inspector (SANDBOX=1 only): what the simulated networks hold and received, and
// forms that turn their knobs. Without a sandbox its routes are not mounted (404) and the sidebar
// has no link to it.

// SandboxInspector is what the inspector needs of the sandbox networks. The server adapts
// network/sandbox to it where it mounts the sandbox; web never imports the simulator.
type SandboxInspector interface {
	// Summaries counts each simulated network's state, in the order of app.Networks.
	Summaries() []SandboxSummary
	// Inspect copies one network's state with its latest calls (at most calls of them).
	Inspect(n app.Network, calls int) (SandboxNetwork, error)
	Inject(n app.Network, f SandboxFailure) error
	ClearFailures(n app.Network) error
	SetKnobs(n app.Network, k SandboxKnobs) error
	ExpireTokens(n app.Network) error
	RevokeTokens(n app.Network) error
	Reset(n app.Network) error
}

// SandboxSummary counts one simulated network's state.
type SandboxSummary struct {
	Network    app.Network
	Users      int
	Held       int // live things Crier made there
	Calls      int
	Failed     int // calls answered 4xx/5xx
	Failures   int // injected failures pending
	LiveTokens int
	LastCall   time.Time
}

// SandboxNetwork is a copy of one simulated network's state.
type SandboxNetwork struct {
	Network       app.Network
	StatePath     string // its JSON state
	Users         []SandboxUser
	Held          []SandboxHeld // newest first
	Calls         []SandboxCall // newest first
	KeptCalls     int
	Knobs         SandboxKnobs
	Failures      []SandboxFailure
	Tokens        []SandboxToken // live access tokens
	RefreshTokens int
	DefaultTTL    time.Duration
}

// SandboxUser is a simulated account and its channels.
type SandboxUser struct {
	ID, Login, Name, Email string
	Channels               []SandboxChannel
}

// SandboxChannel is a page, board, channel … of a simulated account.
type SandboxChannel struct {
	ID, Name, Username string
}

// SandboxHeld is one thing Crier made on a simulated network.
type SandboxHeld struct {
	Kind, ID, User, Channel, Text, Parent, URL string
	Media                                      []string
	At                                         time.Time
	DeletedAt                                  *time.Time
}

// SandboxCall is one request a simulated network received.
type SandboxCall struct {
	At           time.Time
	Method, Path string
	Query        string
	Status       int
}

// SandboxKnobs tune a simulated network.
type SandboxKnobs struct {
	LatencyMs       int
	TokenTTLSeconds int // 0: the network's usual lifetime
}

// SandboxFailure is an injected error: the next Times calls whose path contains Path ("" for
// every API and token call) answer Status with the network's error shape.
type SandboxFailure struct {
	Status         int
	Code           string
	Message        string
	ResetInSeconds int
	Times          int
	Path           string
}

// SandboxToken is a live access token, by its last characters.
type SandboxToken struct {
	User, Scope, Hint string
	Expires           time.Time
}

// Paths and route names of the inspector.
const (
	pathSandbox        = "/sandbox-inspector"
	pathSandboxNetwork = pathSandbox + "/:network"
	suffixLive         = "/live"
	suffixFail         = "/fail"
	suffixClearFail    = "/clear-failures"
	suffixKnobs        = "/knobs"
	suffixExpireTokens = "/expire-tokens"
	suffixRevokeTokens = "/revoke-tokens"
	suffixReset        = "/reset"
	eventSandbox       = "sandboxChanged"

	areaSandbox         = "sandbox"
	routeSandboxNetwork = "sandbox.network"
	routeSandboxLive    = "sandbox.live"
	routeSandboxFail    = "sandbox.fail"
	routeSandboxClear   = "sandbox.clear-failures"
	routeSandboxKnobs   = "sandbox.knobs"
	routeSandboxExpire  = "sandbox.expire-tokens"
	routeSandboxRevoke  = "sandbox.revoke-tokens"
	routeSandboxReset   = "sandbox.reset"
)

// sandboxCalls is how many of the latest calls the page lists.
const sandboxCalls = 60

// sandboxNavItem is the sidebar link, under Developers, when the server runs with SANDBOX=1.
var sandboxNavItem = layout.NavItem{ID: areaSandbox, Label: "Sandbox", Href: pathSandbox, Icon: "flask"}

// failStatuses are the statuses offered for an injected failure.
var failStatuses = []inspector.Option{
	{Value: "429", Label: "429 Too Many Requests"}, {Value: "500", Label: "500 Internal Server Error"},
	{Value: "502", Label: "502 Bad Gateway"}, {Value: "503", Label: "503 Service Unavailable"},
	{Value: "400", Label: "400 Bad Request"}, {Value: "401", Label: "401 Unauthorized"},
	{Value: "403", Label: "403 Forbidden"}, {Value: "404", Label: "404 Not Found"},
	{Value: "409", Label: "409 Conflict"}, {Value: "422", Label: "422 Unprocessable"},
}

// sandboxURL is a network's inspector URL ("/sandbox-inspector/google_business/knobs").
func sandboxURL(n app.Network, suffix string) templ.SafeURL {
	return templ.SafeURL(pathSandbox + "/" + strings.ToLower(string(n)) + suffix)
}

// sandboxNetwork reads :network, by its id ("twitter", "google_business") or by the name people
// know it by ("x", "google-business"); an unknown one is a 404. The page's own links keep the id.
func sandboxNetwork(c echo.Context) (app.Network, error) {
	seg := c.Param("network")
	if n, ok := app.NetworkFromPath(seg); ok {
		return n, nil
	}
	for _, n := range app.Networks {
		if name := n.DisplayName(); name != "" && commonNameKey(name) == commonNameKey(seg) {
			return n, nil
		}
	}
	return "", echo.NewHTTPError(http.StatusNotFound, "No such network")
}

// commonNameKey folds a network's common name or a path segment for comparison: lower case, no
// spaces, hyphens or underscores ("Google Business", "google-business" → "googlebusiness").
func commonNameKey(s string) string {
	return strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(strings.TrimSpace(s)))
}

// sandboxIndex serves GET /sandbox-inspector: the network called last (TikTok before any call).
func (h *Handler) sandboxIndex(c echo.Context) error {
	n := app.Networks[0]
	var last time.Time
	for _, s := range h.sandbox.Summaries() {
		if s.LastCall.After(last) {
			n, last = s.Network, s.LastCall
		}
	}
	return h.renderSandbox(c, n, http.StatusOK, nil)
}

// sandboxShow serves GET /sandbox-inspector/:network.
func (h *Handler) sandboxShow(c echo.Context) error {
	n, err := sandboxNetwork(c)
	if err != nil {
		return err
	}
	return h.renderSandbox(c, n, http.StatusOK, nil)
}

// sandboxData reads the sandbox into the page's values; ctl, when given, keeps submitted forms.
func (h *Handler) sandboxData(c echo.Context, n app.Network, ctl *inspector.Controls) (inspector.Data, error) {
	st, err := h.sandbox.Inspect(n, sandboxCalls)
	if err != nil {
		return inspector.Data{}, echo.NewHTTPError(http.StatusNotFound, "No such network").SetInternal(err)
	}
	loc := viewerLocation(c)
	d := inspector.Data{Net: sandboxNetView(st, loc)}
	for _, s := range h.sandbox.Summaries() {
		if s.Network == n {
			d.Net.Failed = s.Failed // among every call kept, not only those listed
		}
		d.Nets = append(d.Nets, inspector.NetLink{Code: string(s.Network), Name: s.Network.DisplayName(),
			Href: sandboxURL(s.Network, ""), Current: s.Network == n, Users: s.Users, Held: s.Held, Calls: s.Calls, Failed: s.Failed,
			Failures: s.Failures, LiveTokens: s.LiveTokens})
	}
	if ctl != nil {
		d.Controls = *ctl
	} else {
		d.Controls = sandboxControls(n, knobsForm(st.Knobs), failForm())
	}
	d.Poll = withQuery(string(sandboxURL(n, suffixLive)), "v", sandboxVersion(d))
	return d, nil
}

func sandboxNetView(st SandboxNetwork, loc *time.Location) inspector.Net {
	clock := func(t time.Time) string { return t.In(loc).Format("15:04:05") }
	today := time.Now().In(loc).Format(time.DateOnly)
	moment := func(t time.Time) string {
		t = t.In(loc)
		if t.Format(time.DateOnly) == today {
			return "today " + t.Format("15:04:05")
		}
		return t.Format("Jan 2, 15:04:05")
	}
	v := inspector.Net{Code: string(st.Network), Name: st.Network.DisplayName(),
		JSON: templ.SafeURL(st.StatePath), Base: strings.TrimSuffix(st.StatePath, "_sandbox"), Teams: pathTeams, KeptCalls: st.KeptCalls, RefreshTokens: st.RefreshTokens, LatencyMs: st.Knobs.LatencyMs}
	if st.Knobs.TokenTTLSeconds > 0 {
		v.TokenTTL = shortDuration(time.Duration(st.Knobs.TokenTTLSeconds) * time.Second)
	} else {
		v.TokenTTL = shortDuration(st.DefaultTTL) + ", the network’s usual"
	}
	for _, u := range st.Users {
		vu := inspector.User{ID: u.ID, Login: u.Login, Name: u.Name, Email: u.Email}
		for _, ch := range u.Channels {
			vu.Channels = append(vu.Channels, inspector.Channel{ID: ch.ID, Name: ch.Name, Username: ch.Username})
		}
		v.Users = append(v.Users, vu)
	}
	for _, x := range st.Held {
		vh := inspector.Held{Kind: x.Kind, ID: x.ID, User: x.User, Channel: x.Channel, Text: x.Text, Media: x.Media, Parent: x.Parent,
			URLText: x.URL, At: moment(x.At)}
		if u, err := url.Parse(x.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			vh.URL = templ.SafeURL(x.URL)
		}
		if x.DeletedAt != nil {
			vh.Deleted = moment(*x.DeletedAt)
		}
		if x.DeletedAt == nil {
			switch x.Kind {
			case "post":
				v.Posts++
			case "media":
				v.Media++
			case "comment":
				v.Comments++
			case "message":
				v.Messages++
			}
		}
		v.Held = append(v.Held, vh)
	}
	for _, x := range st.Calls {
		v.Calls = append(v.Calls, inspector.Call{At: clock(x.At), Method: x.Method, Path: x.Path, Query: x.Query, Status: x.Status})
	}
	for _, t := range st.Tokens {
		v.Tokens = append(v.Tokens, inspector.Token{User: t.User, Scope: t.Scope, Hint: t.Hint, Expires: moment(t.Expires)})
	}
	for _, f := range st.Failures {
		v.Failures = append(v.Failures, inspector.Failure{Status: f.Status, Code: f.Code, Message: f.Message, Path: f.Path, Times: f.Times, Reset: f.ResetInSeconds})
	}
	return v
}

// shortDuration says a lifetime plainly ("2 h", "60 days").
func shortDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "no expiry"
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + " days"
	case d >= time.Hour && d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + " h"
	case d >= time.Minute && d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + " min"
	}
	return strconv.Itoa(int(d/time.Second)) + " s"
}

// sandboxVersion fingerprints what the live regions show, so the poller learns "unchanged" (204).
func sandboxVersion(d inspector.Data) string {
	b, _ := json.Marshal(struct {
		Nets []inspector.NetLink
		Net  inspector.Net
	}{d.Nets, d.Net})
	f := fnv.New64a()
	_, _ = f.Write(b)
	return strconv.FormatUint(f.Sum64(), 36)
}

func sandboxControls(n app.Network, knobs, fail components.Form) inspector.Controls {
	return inspector.Controls{Knobs: knobs, KnobsAction: sandboxURL(n, suffixKnobs), Fail: fail, FailAction: sandboxURL(n, suffixFail),
		Statuses: failStatuses, Expire: sandboxURL(n, suffixExpireTokens), Revoke: sandboxURL(n, suffixRevokeTokens),
		ClearFailure: sandboxURL(n, suffixClearFail), Reset: sandboxURL(n, suffixReset), NetName: n.DisplayName()}
}

func knobsForm(k SandboxKnobs) components.Form {
	return components.NewForm(map[string]string{"latencyMs": strconv.Itoa(k.LatencyMs), "tokenTtlSeconds": strconv.Itoa(k.TokenTTLSeconds)})
}

// failForm is the failure form's defaults: one 429 with a reset in a minute.
func failForm() components.Form {
	return components.NewForm(map[string]string{"status": "429", "times": "1", "resetInSeconds": "60"})
}

func (h *Handler) renderSandbox(c echo.Context, n app.Network, status int, ctl *inspector.Controls) error {
	d, err := h.sandboxData(c, n, ctl)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	shell := h.shell(c, areaSandbox, "Sandbox · "+n.DisplayName())
	shell.Scripts = append(shell.Scripts, assetURL("js/sandbox.js"))
	return render(c, status, inspector.Page(shell, d), inspector.Content(d))
}

// sandboxLive serves GET /sandbox-inspector/:network/live?v=: 204 while the page is current, else
// the poller and each live region out of band.
func (h *Handler) sandboxLive(c echo.Context) error {
	n, err := sandboxNetwork(c)
	if err != nil {
		return err
	}
	d, err := h.sandboxData(c, n, nil)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if v := c.QueryParam("v"); v != "" && withQuery(string(sandboxURL(n, suffixLive)), "v", v) == d.Poll {
		return c.NoContent(http.StatusNoContent)
	}
	return render(c, http.StatusOK, inspector.Live(d), nil)
}

// formInt reads a whole number field between lo and hi; "" is def. It records the error in f.
func formInt(f *components.Form, name, label string, def, lo, hi int) int {
	s := strings.TrimSpace(f.Value(name))
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		f.Errors[name] = fmt.Sprintf("%s is a whole number from %d to %d", label, lo, hi)
		if f.Focus == "" {
			f.Focus = name
		}
	}
	return v
}

// sandboxFail serves POST /sandbox-inspector/:network/fail.
func (h *Handler) sandboxFail(c echo.Context) error {
	n, err := sandboxNetwork(c)
	if err != nil {
		return err
	}
	f := components.NewForm(formValues(c, "status", "code", "message", "times", "path", "resetInSeconds"))
	fail := SandboxFailure{Code: strings.TrimSpace(f.Value("code")), Message: strings.TrimSpace(f.Value("message")), Path: strings.TrimSpace(f.Value("path"))}
	fail.Status = formInt(&f, "status", "Status", 0, 400, 599)
	if f.Value("status") == "" {
		f.Errors["status"] = "Choose a status"
	}
	fail.Times = formInt(&f, "times", "Times", 1, 1, 1000)
	fail.ResetInSeconds = formInt(&f, "resetInSeconds", "Reset", 0, 0, 86400)
	if !f.Invalid() {
		if err := h.sandbox.Inject(n, fail); err != nil {
			f.Message = err.Error()
		}
	}
	if f.Invalid() {
		if f.Message == "" {
			f.Message = "The failure was not injected: fix the fields below."
		}
		return h.sandboxFormAnswer(c, n, nil, &f)
	}
	what := "the next call"
	if fail.Times > 1 {
		what = "the next " + strconv.Itoa(fail.Times) + " calls"
	}
	if fail.Path != "" {
		what += " to paths containing " + fail.Path
	}
	msg := fmt.Sprintf("Injected: %s on %s answer %d.", what, n.DisplayName(), fail.Status)
	if !isHTMX(c) {
		return flashRedirect(c, msg, string(sandboxURL(n, "")))
	}
	ff := failForm()
	ff.Saved = msg
	return h.sandboxFormAnswer(c, n, nil, &ff)
}

// sandboxKnobs serves POST /sandbox-inspector/:network/knobs.
func (h *Handler) sandboxKnobs(c echo.Context) error {
	n, err := sandboxNetwork(c)
	if err != nil {
		return err
	}
	f := components.NewForm(formValues(c, "latencyMs", "tokenTtlSeconds"))
	k := SandboxKnobs{LatencyMs: formInt(&f, "latencyMs", "Latency", 0, 0, 60000),
		TokenTTLSeconds: formInt(&f, "tokenTtlSeconds", "Token lifetime", 0, 0, 31536000)}
	if !f.Invalid() {
		if err := h.sandbox.SetKnobs(n, k); err != nil {
			f.Message = err.Error()
		}
	}
	if f.Invalid() {
		if f.Message == "" {
			f.Message = "The knobs were not saved: fix the fields below."
		}
		return h.sandboxFormAnswer(c, n, &f, nil)
	}
	msg := "Knobs saved: " + strconv.Itoa(k.LatencyMs) + " ms latency, "
	if k.TokenTTLSeconds > 0 {
		msg += "tokens live " + strconv.Itoa(k.TokenTTLSeconds) + " s."
	} else {
		msg += "tokens live as long as usual."
	}
	if !isHTMX(c) {
		return flashRedirect(c, msg, string(sandboxURL(n, "")))
	}
	kf := knobsForm(k)
	kf.Saved = msg
	return h.sandboxFormAnswer(c, n, &kf, nil)
}

// sandboxFormAnswer answers a knobs or failure form: to htmx the form again (with its errors, or
// saved) and the live regions told to refresh; otherwise the page with the form (422 when refused).
func (h *Handler) sandboxFormAnswer(c echo.Context, n app.Network, knobs, fail *components.Form) error {
	if isHTMX(c) {
		ctl := sandboxControls(n, components.NewForm(nil), components.NewForm(nil))
		if knobs != nil {
			ctl.Knobs = *knobs
			if !knobs.Invalid() {
				hxTrigger(c, eventSandbox)
			}
			return render(c, http.StatusOK, inspector.KnobsForm(ctl), nil)
		}
		ctl.Fail = *fail
		if !fail.Invalid() {
			hxTrigger(c, eventSandbox)
		}
		return render(c, http.StatusOK, inspector.FailForm(ctl), nil)
	}
	st, err := h.sandbox.Inspect(n, 0)
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound, "No such network").SetInternal(err)
	}
	ctl := sandboxControls(n, knobsForm(st.Knobs), failForm())
	status := http.StatusOK
	if knobs != nil {
		ctl.Knobs = *knobs
		if knobs.Invalid() {
			status = http.StatusUnprocessableEntity
		}
	}
	if fail != nil {
		ctl.Fail = *fail
		if fail.Invalid() {
			status = http.StatusUnprocessableEntity
		}
	}
	return h.renderSandbox(c, n, status, &ctl)
}

// sandboxOp is one of the buttons: expire, revoke, clear failures, reset.
type sandboxOp int

const (
	sandboxExpire sandboxOp = iota
	sandboxRevoke
	sandboxClearFailures
	sandboxReset
)

// sandboxAction serves the buttons' POSTs: a flash, and the live regions refresh.
func (h *Handler) sandboxAction(op sandboxOp) echo.HandlerFunc {
	return func(c echo.Context) error {
		n, err := sandboxNetwork(c)
		if err != nil {
			return err
		}
		var msg string
		switch op {
		case sandboxExpire:
			err, msg = h.sandbox.ExpireTokens(n), "Every "+n.DisplayName()+" access token expired: Crier’s next call refreshes."
		case sandboxRevoke:
			err, msg = h.sandbox.RevokeTokens(n), "Every "+n.DisplayName()+" token revoked: connected accounts must reconnect."
		case sandboxClearFailures:
			err, msg = h.sandbox.ClearFailures(n), "Queued failures on "+n.DisplayName()+" cleared."
		case sandboxReset:
			err, msg = h.sandbox.Reset(n), "The "+n.DisplayName()+" sandbox was reset."
		}
		if err != nil {
			return echo.NewHTTPError(http.StatusNotFound, "No such network").SetInternal(err)
		}
		if isHTMX(c) {
			return dialogDone(c, msg, eventSandbox)
		}
		return flashRedirect(c, msg, string(sandboxURL(n, "")))
	}
}
