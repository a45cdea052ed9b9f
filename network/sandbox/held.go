package sandbox

import (
	"slices"
	"time"

	"github.com/crier/crier/app"
)

// What a simulated network holds because Crier made it: posts, uploaded media, comments, messages.
// Twins record them through keep as they accept them (with the network's own id), so tests count
// what was "published" where — the never-twice test counts posts per target here — and the
// dashboard's sandbox page shows them.

// Held kinds.
const (
	KindPost    = "post"
	KindMedia   = "media"
	KindComment = "comment"
	KindMessage = "message"
)

// Held is one thing a simulated network holds.
type Held struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`      // the network's id for it
	User    string `json:"user"`    // the login of the account that made it
	Channel string `json:"channel"` // page, board, subreddit, channel … ("" for the account itself)
	Text    string `json:"text,omitempty"`
	// Media are the ids (or URLs) of the media attached.
	Media []string `json:"media,omitempty"`
	// Parent is the post or comment replied to, or the first post of a thread.
	Parent    string         `json:"parent,omitempty"`
	URL       string         `json:"url,omitempty"` // the permalink
	Data      map[string]any `json:"data,omitempty"`
	At        time.Time      `json:"at"`
	DeletedAt *time.Time     `json:"deletedAt,omitempty"`
}

// keep records h (At set now) and answers the stored copy. Callers hold the sandbox lock (every
// route handler does).
func (n *Net) keep(h Held) *Held {
	h.At = n.sb.Now().UTC()
	p := &h
	n.held = append(n.held, p)
	if n.byID == nil {
		n.byID, n.byUser, n.byChannel = map[string][]*Held{}, map[string][]*Held{}, map[string][]*Held{}
	}
	n.byID[h.ID] = append(n.byID[h.ID], p)
	n.byUser[h.User] = append(n.byUser[h.User], p)
	n.byChannel[h.Channel] = append(n.byChannel[h.Channel], p)
	return p
}

// heldIndex is what a network holds by the fields its twins look things up by (held in keep's
// order, oldest first): a call's lookup reads the few of its id, user or channel rather than
// everything the network holds (a 10,000-post burst made that quadratic). A held thing's ID, User
// and Channel do not change once kept.
type heldIndex struct {
	byID, byUser, byChannel map[string][]*Held
}

// find answers a held thing by kind and id (deleted ones too), or nil.
func (n *Net) find(kind, id string) *Held {
	for _, h := range n.byID[id] {
		if h.Kind == kind && h.ID == id {
			return h
		}
	}
	return nil
}

// heldBy answers the live things of a kind made by a user, oldest first.
func (n *Net) heldBy(kind, login string) []*Held {
	var out []*Held
	for _, h := range n.byUser[login] {
		if h.Kind == kind && h.User == login && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

// remove marks a held thing deleted (it stays listed, with DeletedAt).
func (n *Net) remove(h *Held) {
	t := n.sb.Now().UTC()
	h.DeletedAt = &t
}

// Held answers copies of what a network holds of one kind ("" for every kind), deleted ones too.
func (s *Sandbox) Held(network app.Network, kind string) []Held {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.nets[Segment(network)]
	if !ok {
		return nil
	}
	var out []Held
	for _, h := range n.held {
		if kind == "" || h.Kind == kind {
			out = append(out, *h)
		}
	}
	return out
}

// live answers a live held thing of one of kinds by id, or nil.
func (n *Net) live(id string, kinds ...string) *Held {
	for _, h := range n.byID[id] {
		if h.ID == id && h.DeletedAt == nil && slices.Contains(kinds, h.Kind) {
			return h
		}
	}
	return nil
}

// heldIn answers the live held things of a kind (any user) in a channel, oldest first.
func (n *Net) heldIn(kind, channel string) []*Held {
	var out []*Held
	for _, h := range n.byChannel[channel] {
		if h.Kind == kind && h.Channel == channel && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

// heldWith answers held things of a kind whose Data[key] equals v.
func (n *Net) heldWith(kind, key, v string) *Held {
	for _, h := range n.held {
		if h.Kind == kind && h.Data != nil && h.Data[key] == v {
			return h
		}
	}
	return nil
}
