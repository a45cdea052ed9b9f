package sandbox

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// What the dashboard's sandbox inspector reads and turns: copies of each network's state (never the
// live maps, nor whole tokens) and the same actions as the control endpoints under
// /sandbox/<net>/_sandbox/, as methods.

// MaxCalls is how many calls a network keeps (the oldest are dropped beyond it).
const MaxCalls = 5000

// ErrUnknownNetwork answers a network the sandbox does not simulate.
var ErrUnknownNetwork = errors.New("sandbox: unknown network")

// Summary counts one network's state, for a list of the 15.
type Summary struct {
	Network    app.Network
	Title      string
	Users      int
	Held       map[string]int // live (not deleted) things by kind (KindPost …)
	Calls      int
	Failed     int // calls answered 4xx or 5xx
	LastCall   time.Time
	Failures   int // injected failures pending
	LiveTokens int
}

// Inspection is a copy of one network's state.
type Inspection struct {
	Network app.Network
	Title   string
	// StatePath is the network's JSON state (GET).
	StatePath     string
	Users         []User // by login
	Held          []Held // newest first, deleted ones too
	Calls         []Call // newest first, at most the number asked
	KeptCalls     int    // calls kept in all (at most MaxCalls)
	Knobs         Knobs
	Failures      []Failure // pending, in the order they will match
	Tokens        []Token   // live access tokens, soonest to expire first
	RefreshTokens int
	DefaultTTL    time.Duration // the network's usual access-token lifetime
}

// Token is a live access token, shown by its last characters only.
type Token struct {
	User    string // login
	Scope   string
	Expires time.Time
	Hint    string // "…3fa9c1"
}

func (s *Sandbox) net(network app.Network) (*Net, error) {
	n, ok := s.nets[Segment(network)]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownNetwork, network)
	}
	return n, nil
}

// Summaries counts every network's state, in the order of app.Networks.
func (s *Sandbox) Summaries() []Summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	var out []Summary
	for _, network := range app.Networks {
		n, err := s.net(network)
		if err != nil {
			continue
		}
		sum := Summary{Network: network, Title: n.d.title, Users: len(n.users), Held: map[string]int{}, Calls: len(n.calls), Failures: len(n.failures)}
		for _, h := range n.held {
			if h.DeletedAt == nil {
				sum.Held[h.Kind]++
			}
		}
		for _, c := range n.calls {
			if c.Status >= 400 {
				sum.Failed++
			}
		}
		if len(n.calls) > 0 {
			sum.LastCall = n.calls[len(n.calls)-1].At
		}
		for _, t := range n.access {
			if !t.revoked && t.expires.After(now) {
				sum.LiveTokens++
			}
		}
		out = append(out, sum)
	}
	return out
}

// Inspect copies one network's state with its latest calls (at most calls of them).
func (s *Sandbox) Inspect(network app.Network, calls int) (Inspection, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.net(network)
	if err != nil {
		return Inspection{}, err
	}
	in := Inspection{Network: network, Title: n.d.title, StatePath: "/sandbox/" + n.d.seg + "/_sandbox", KeptCalls: len(n.calls),
		Knobs: n.knobs, RefreshTokens: len(n.refresh), DefaultTTL: n.d.accessTTL}
	for _, u := range n.users {
		c := *u
		c.Channels = append([]Channel(nil), u.Channels...)
		in.Users = append(in.Users, c)
	}
	sort.Slice(in.Users, func(i, j int) bool { return in.Users[i].Login < in.Users[j].Login })
	for i := len(n.held) - 1; i >= 0; i-- {
		h := *n.held[i]
		h.Media = append([]string(nil), h.Media...)
		if h.DeletedAt != nil {
			t := *h.DeletedAt
			h.DeletedAt = &t
		}
		in.Held = append(in.Held, h)
	}
	for i := len(n.calls) - 1; i >= 0 && len(in.Calls) < calls; i-- {
		in.Calls = append(in.Calls, n.calls[i])
	}
	for _, f := range n.failures {
		in.Failures = append(in.Failures, *f)
	}
	now := s.Now()
	for _, t := range n.access {
		if t.revoked || !t.expires.After(now) {
			continue
		}
		in.Tokens = append(in.Tokens, Token{User: t.user.Login, Scope: t.scope, Expires: t.expires, Hint: "…" + t.token[max(0, len(t.token)-6):]})
	}
	sort.Slice(in.Tokens, func(i, j int) bool { return in.Tokens[i].Expires.Before(in.Tokens[j].Expires) })
	return in, nil
}

// Inject queues a failure, as POST /sandbox/<net>/_sandbox/fail does: the next Times matching calls
// (1 when Times is 0) answer it.
func (s *Sandbox) Inject(network app.Network, f Failure) error {
	switch {
	case f.Status < 400 || f.Status > 599:
		return errors.New("sandbox: a failure's status is 400 to 599")
	case f.Times < 0 || f.ResetInSeconds < 0:
		return errors.New("sandbox: times and resetInSeconds cannot be negative")
	}
	if f.Times == 0 {
		f.Times = 1
	}
	f.Path = strings.TrimSpace(f.Path)
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.net(network)
	if err != nil {
		return err
	}
	n.failures = append(n.failures, &f)
	return nil
}

// ClearFailures drops every pending injected failure.
func (s *Sandbox) ClearFailures(network app.Network) error {
	return s.act(network, func(n *Net) { n.failures = nil })
}

// SetKnobs sets latency and token lifetime (0: the network's usual lifetime).
func (s *Sandbox) SetKnobs(network app.Network, k Knobs) error {
	if k.LatencyMs < 0 || k.TokenTTLSeconds < 0 {
		return errors.New("sandbox: knobs cannot be negative")
	}
	return s.act(network, func(n *Net) { n.knobs = k })
}

// ExpireTokens makes every access token expire now; refresh tokens still work.
func (s *Sandbox) ExpireTokens(network app.Network) error {
	return s.act(network, func(n *Net) {
		for _, t := range n.access {
			t.expires = n.sb.Now().Add(-time.Second)
		}
	})
}

// RevokeTokens stops every access and refresh token: accounts must reconnect.
func (s *Sandbox) RevokeTokens(network app.Network) error {
	return s.act(network, func(n *Net) {
		for _, t := range n.access {
			t.revoked = true
		}
		n.refresh = map[string]*issued{}
	})
}

// Reset forgets everything the network holds: users, tokens, calls, knobs, failures, holdings.
func (s *Sandbox) Reset(network app.Network) error {
	return s.act(network, func(n *Net) { n.reset() })
}

// Hold records h as if the network had accepted it (At set now unless given): for demos and tests
// of what reads holdings. Twins record through keep as they accept things.
func (s *Sandbox) Hold(network app.Network, h Held) (Held, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.net(network)
	if err != nil {
		return Held{}, err
	}
	at := h.At
	p := n.keep(h)
	if !at.IsZero() {
		p.At = at.UTC()
	}
	return *p, nil
}

func (s *Sandbox) act(network app.Network, f func(n *Net)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.net(network)
	if err != nil {
		return err
	}
	f(n)
	return nil
}
