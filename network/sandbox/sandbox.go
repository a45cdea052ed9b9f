// Package sandbox simulates the subset of each network's real API that Crier calls, mounted under
// /sandbox/<network>/ when SANDBOX=1: the same paths, payloads, status codes and error shapes as the
// real one, so the adapters run unchanged with only their base URLs moved. It is how `make run`
// works offline and how every adapter is tested.
//
// Each network has an OAuth consent page (a form; GET with approve=1 appended approves at once and
// redirects, for scripts and tests), a token endpoint issuing expiring access tokens with refresh
// tokens, and the profile and channel endpoints. The sandbox keeps its state in memory: users and
// their channels, codes and tokens, and every call it received. Control endpoints (under
// /sandbox/<network>/_sandbox/) show that state and turn the knobs: injected failures (any status,
// the network's own error code and message, 429s with a reset time in the network's own headers),
// latency, token lifetime, and expiring or revoking every token at once.
//
//	GET  /sandbox/                                 every network's state (JSON)
//	GET  /sandbox/<net>/_sandbox                   one network's state: users, calls, knobs
//	POST /sandbox/<net>/_sandbox/fail              {"status":429,"code":"…","message":"…","resetInSeconds":60,"times":1,"path":"/2/users/me"}
//	POST /sandbox/<net>/_sandbox/knobs             {"latencyMs":200,"tokenTtlSeconds":60}
//	POST /sandbox/<net>/_sandbox/expire-tokens     every access token expires now (refresh still works)
//	POST /sandbox/<net>/_sandbox/revoke-tokens     access and refresh tokens stop working (reconnect needed)
//	POST /sandbox/<net>/_sandbox/reset             forget everything
//
// Every twin is written the same way: <net>.go builds the network's dialect (<net>Dialect: OAuth
// settings, token and error shapes, the auth and profile endpoints) and <net>_publish.go registers
// the publishing endpoints (<net>Publish); each endpoint is a named handler, <net><Action>(q *req),
// its helpers prefixed with the network's name. What every twin shares is here (state, routing),
// in oauth.go (consent and tokens), control.go (the _sandbox endpoints), held.go (what Crier made
// there) and helpers.go (reading requests, sniffing media, ids). Mastodon's few endpoints fit in
// mastodon.go; Instagram Login is instagram_login.go.
package sandbox

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/crier/crier/app"
)

// ClientID and ClientSecret are the credentials of Crier's app at every sandbox network.
func ClientID(seg string) string     { return "sandbox-" + seg + "-client" }
func ClientSecret(seg string) string { return "sandbox-" + seg + "-secret" }

// Segment is a network's path segment under /sandbox/ ("x", "facebook", "google_business").
func Segment(n app.Network) string {
	if n == app.Twitter {
		return "x"
	}
	return strings.ToLower(string(n))
}

// Sandbox is the simulator of every network.
type Sandbox struct {
	mu   sync.Mutex
	nets map[string]*Net
	Now  func() time.Time
}

// New builds a sandbox with every simulated network.
func New() *Sandbox {
	s := &Sandbox{nets: map[string]*Net{}, Now: time.Now}
	for _, d := range dialects() {
		s.nets[d.seg] = &Net{d: d, sb: s}
		s.nets[d.seg].reset()
	}
	return s
}

// Net is one simulated network's state.
type Net struct {
	d        *dialect
	sb       *Sandbox
	users    map[string]*User // by login
	codes    map[string]*grant
	access   map[string]*issued
	refresh  map[string]*issued
	calls    []Call
	knobs    Knobs
	failures []*Failure
	apps     map[string]string // client id → secret of apps registered at runtime (Mastodon)
	held     []*Held           // what Crier made there (held.go)
	heldIndex
}

// User is a simulated account; Channels are its pages/boards/channels.
type User struct {
	ID       string    `json:"id"`
	Login    string    `json:"login"`
	Name     string    `json:"name"`
	Bio      string    `json:"bio"`
	Avatar   string    `json:"avatar"`
	Email    string    `json:"email"`
	Channels []Channel `json:"channels"`
}

// Channel is a simulated channel of a user.
type Channel struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	Avatar   string `json:"avatar"`
	Token    string `json:"-"`
	// The Instagram professional account linked to a page (the Instagram twin only).
	IGID       string `json:"igId,omitempty"`
	IGUsername string `json:"igUsername,omitempty"`
}

type grant struct {
	user        *User
	redirectURI string
	challenge   string
	scope       string
	expires     time.Time
}

type issued struct {
	user    *User
	scope   string
	expires time.Time
	revoked bool
	token   string
}

// Call is one request the sandbox received.
type Call struct {
	At     time.Time `json:"at"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Query  string    `json:"query,omitempty"`
	Status int       `json:"status"`
}

// Knobs tune a network's behaviour.
type Knobs struct {
	LatencyMs int `json:"latencyMs"`
	// AnswerLatencyMs delays the answer after the call took effect: a client gone in that window
	// (a killed Crier) lost the answer of a post that exists, the case Publisher.Find reconciles.
	AnswerLatencyMs int `json:"answerLatencyMs,omitempty"`
	TokenTTLSeconds int `json:"tokenTtlSeconds"` // 0: the network's usual lifetime
}

// Failure is an injected error: the next Times matching calls (Path substring, "" for all API and
// token calls) answer Status with the network's error shape carrying Code and Message.
type Failure struct {
	Status         int    `json:"status"`
	Code           string `json:"code"`
	Message        string `json:"message"`
	ResetInSeconds int    `json:"resetInSeconds"`
	Times          int    `json:"times"`
	Path           string `json:"path"`
}

// apiError is what a dialect renders in its network's shape.
type apiError struct {
	Status  int
	Code    string
	Message string
	ResetAt time.Time
}

// req is an API request being handled.
type req struct {
	w    http.ResponseWriter
	r    *http.Request
	net  *Net
	path string
	user *User // the token's user (API routes)
	tok  *issued
}

func (q *req) json(status int, v any) {
	q.w.Header().Set("Content-Type", "application/json")
	q.w.WriteHeader(status)
	_ = json.NewEncoder(q.w).Encode(v)
}

func (q *req) fail(e apiError) { q.net.d.writeError(q, e) }

// dialect is what differs between networks.
type dialect struct {
	seg, title    string
	network       app.Network
	authorizePath string
	tokenPath     string
	pkce          bool
	basicAuth     bool // client credentials in Authorization: Basic (else in the form/query)
	rotate        bool // refresh tokens rotate
	noRefresh     bool // the network issues no refresh token
	accessTTL     time.Duration
	// bearer extracts the access token (default: Authorization: Bearer).
	bearer func(r *http.Request) string
	// writeToken answers a successful token call.
	writeToken func(q *req, access, refresh string, ttl time.Duration, scope string, u *User)
	// writeTokenError answers a failed token call (OAuth's {error, error_description} by default).
	writeTokenError func(q *req, status int, code, msg string)
	// writeError answers a failed API call in the network's shape (also rate-limit headers).
	writeError func(q *req, e apiError)
	// exchange handles extra grant types (Facebook's fb_exchange_token); nil if none.
	exchange func(q *req, form url.Values) bool
	// routes are the API endpoints: "GET /2/users/me" → handler.
	routes map[string]func(q *req)
	// unauthenticated are endpoints that check credentials themselves (Threads' token exchanges);
	// patterns are such endpoints with a {param} segment (Discord's bot routes).
	unauthenticated map[string]func(q *req)
	patterns        map[string]func(q *req)
	// approved adds to the consent redirect (Discord's guild_id).
	approved func(u *User, back url.Values)
	// newUser fills a fresh user's channels.
	newUser func(n *Net, u *User)
	// invalidToken is how the network answers a bad or expired token.
	invalidToken apiError
}

func (n *Net) reset() {
	n.users, n.codes, n.access, n.refresh = map[string]*User{}, map[string]*grant{}, map[string]*issued{}, map[string]*issued{}
	n.calls, n.failures, n.knobs, n.apps, n.held, n.heldIndex = nil, nil, Knobs{}, map[string]string{}, nil, heldIndex{}
}

func randID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// numericID is a stable numeric id from a login (networks like X and Facebook use numeric ids).
func numericID(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	n := uint64(0)
	for _, b := range sum[:7] {
		n = n<<8 | uint64(b)
	}
	return fmt.Sprint(n)
}

// ServeHTTP routes /sandbox/<net>/… to the network's simulator.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The consent form redirects to Crier's callback, then to the connect's redirectUrl.
	// The consent page is the simulator's, not Crier's: its few inline styles are allowed here.
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action *; frame-ancestors 'none'")
	rest := strings.TrimPrefix(r.URL.Path, "/sandbox")
	rest = strings.Trim(rest, "/")
	seg, path, _ := strings.Cut(rest, "/")
	path = "/" + strings.TrimRight(path, "/")
	if seg == "" {
		s.mu.Lock()
		out := map[string]any{}
		for k, n := range s.nets {
			out[k] = n.state()
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, out)
		return
	}
	s.mu.Lock()
	n, ok := s.nets[seg]
	if !ok {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	latency := time.Duration(n.knobs.LatencyMs) * time.Millisecond
	answerLatency := time.Duration(n.knobs.AnswerLatencyMs) * time.Millisecond
	s.mu.Unlock()
	if latency > 0 && !strings.HasPrefix(path, "/_sandbox") {
		select {
		case <-time.After(latency):
		case <-r.Context().Done():
			return
		}
	}
	out := w
	var held *heldAnswer
	if answerLatency > 0 && !strings.HasPrefix(path, "/_sandbox") {
		held = &heldAnswer{header: http.Header{}, status: http.StatusOK}
		out = held
	}
	s.mu.Lock()
	rec := &recorder{ResponseWriter: out, status: http.StatusOK}
	q := &req{w: rec, r: r, net: n, path: path}
	n.serve(q)
	if !strings.HasPrefix(path, "/_sandbox") {
		n.calls = append(n.calls, Call{At: s.Now().UTC(), Method: r.Method, Path: path, Query: redactQuery(r.URL.Query()), Status: rec.status})
		if len(n.calls) > MaxCalls { // keep the newest (inspect.go)
			n.calls = append(n.calls[:0], n.calls[len(n.calls)-MaxCalls:]...)
		}
	}
	s.mu.Unlock()
	if held != nil {
		select {
		case <-time.After(answerLatency):
			held.answer(w)
		case <-r.Context().Done():
		}
	}
}

// heldAnswer keeps an answer until AnswerLatencyMs has passed.
type heldAnswer struct {
	header http.Header
	status int
	body   []byte
}

func (h *heldAnswer) Header() http.Header         { return h.header }
func (h *heldAnswer) WriteHeader(s int)           { h.status = s }
func (h *heldAnswer) Write(b []byte) (int, error) { h.body = append(h.body, b...); return len(b), nil }
func (h *heldAnswer) answer(w http.ResponseWriter) {
	for k, v := range h.header {
		w.Header()[k] = v
	}
	w.WriteHeader(h.status)
	_, _ = w.Write(h.body)
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(s int) { r.status = s; r.ResponseWriter.WriteHeader(s) }

func redactQuery(v url.Values) string {
	c := url.Values{}
	for k, vs := range v {
		if k == "access_token" || k == "client_secret" || k == "code" || k == "fb_exchange_token" {
			c[k] = []string{"…"}
			continue
		}
		c[k] = vs
	}
	return c.Encode()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (n *Net) serve(q *req) {
	switch {
	case strings.HasPrefix(q.path, "/_sandbox"):
		n.control(q)
	case q.path == n.d.authorizePath:
		n.authorize(q)
	case q.path == n.d.tokenPath:
		if n.injected(q, true) {
			return
		}
		n.token(q)
	case n.d.unauthenticated[q.r.Method+" "+q.path] != nil:
		if n.injected(q, false) {
			return
		}
		n.d.unauthenticated[q.r.Method+" "+q.path](q)
	case matchPattern(n.d.patterns, q) != nil:
		if n.injected(q, false) {
			return
		}
		matchPattern(n.d.patterns, q)(q)
	default:
		h, ok := n.d.routes[q.r.Method+" "+q.path]
		if !ok {
			h = matchPattern(n.d.routes, q)
		}
		if h == nil {
			q.fail(apiError{Status: http.StatusNotFound, Code: "not_found", Message: "Sandbox " + n.d.title + " has no " + q.r.Method + " " + q.path})
			return
		}
		if n.injected(q, false) {
			return
		}
		tok := n.bearer(q.r)
		t, ok := n.access[tok]
		if !ok || t.revoked || !t.expires.After(n.sb.Now()) {
			q.fail(n.d.invalidToken)
			return
		}
		q.user, q.tok = t.user, t
		h(q)
	}
}

// matchPattern supports routes with {param} segments ("GET /{id}/accounts").
func matchPattern(routes map[string]func(*req), q *req) func(*req) {
	parts := strings.Split(q.path, "/")
	for k, h := range routes {
		m, p, _ := strings.Cut(k, " ")
		if m != q.r.Method || !strings.Contains(p, "{") {
			continue
		}
		pp := strings.Split(p, "/")
		if len(pp) != len(parts) {
			continue
		}
		ok := true
		for i := range pp {
			if !strings.HasPrefix(pp[i], "{") && pp[i] != parts[i] {
				ok = false
				break
			}
		}
		if ok {
			return h
		}
	}
	return nil
}

var (
	dialectsOnce sync.Once
	allDialects  []*dialect
)

func dialects() []*dialect {
	dialectsOnce.Do(func() {
		allDialects = []*dialect{xDialect(), facebookDialect(), instagramDialect(), linkedinDialect(), youtubeDialect(), redditDialect(), pinterestDialect(), tiktokDialect(), threadsDialect(), googleBusinessDialect(), slackDialect(), discordDialect(), snapchatDialect(), mastodonDialect(), blueskyDialect()}
	})
	return allDialects
}

// Networks lists the simulated networks.
func Networks() []app.Network {
	var out []app.Network
	for _, d := range dialects() {
		out = append(out, d.network)
	}
	return out
}
