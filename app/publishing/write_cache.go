package publishing

import (
	"errors"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// writeCache keeps, per process and for a short while, what a post's writes are checked against
// (issue 15: those reads were a round trip and three statements before each write): per post, its
// edit's reads as the last write left them; per team, a creation's. A write served from here
// carries the versions of all it used (store.WriteGuard, with the post's own PostSeen) and is
// one round trip; if any changed, nothing is written (store.ErrPostChanged) and the call is
// made again from the database. So an entry may be stale, never wrong, and no instance needs to
// tell another: a stale entry costs one round trip. Keys hold the organization: an entry serves
// only the organization that read it (the guard checks it too).
type writeCache struct {
	mu      sync.Mutex
	edits   map[cacheKey]*editEntry
	creates map[cacheKey]*createEntry
}

// cacheKey is an organization's post (edits) or team (creates).
type cacheKey struct{ org, id string }

// The bounds of the cache: entries live writeCacheTTL from their read or write, and each map
// keeps at most its max (an arbitrary entry leaves for a new one): a post's entry is a few KB.
const (
	writeCacheTTL = 30 * time.Second
	maxEdits      = 1024
	maxCreates    = 256
	maxUploads    = 64 // a team's entry's uploads
)

// errNotCached: the entry cannot serve this call (what it asks is not held, or its checks failed
// on what is held): the call is made from the database.
var errNotCached = errors.New("publishing: not served by the write cache")

// editEntry is a post's edit reads, as read or as its last write left them; read-only once kept.
type editEntry struct {
	reads store.PostEditReads
	links []store.PostUpload // the post's live upload links, as its last write answered them
	at    time.Time
}

// createEntry is what creating a post in a team checks; read-only once kept.
type createEntry struct {
	teamVersion     string
	accounts        []store.SocialAccount
	accountVersions []string
	uploads         map[string]versionedUpload // uploads read for the team's posts, by id
	at              time.Time
}

type versionedUpload struct {
	row     store.Upload
	version string
}

func newWriteCache() *writeCache {
	return &writeCache{edits: map[cacheKey]*editEntry{}, creates: map[cacheKey]*createEntry{}}
}

func (c *writeCache) edit(org, id string, now time.Time) *editEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.edits[cacheKey{org, id}]; e != nil && now.Sub(e.at) <= writeCacheTTL {
		return e
	}
	return nil
}

func (c *writeCache) create(org, team string, now time.Time) *createEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.creates[cacheKey{org, team}]; e != nil && now.Sub(e.at) <= writeCacheTTL {
		return e
	}
	return nil
}

// put keeps e at k in m, making room (an arbitrary entry leaves) when m holds max; c.mu held.
func put[E any](m map[cacheKey]E, k cacheKey, e E, max int) {
	if _, ok := m[k]; !ok && len(m) >= max {
		for old := range m {
			delete(m, old)
			break
		}
	}
	m[k] = e
}

func (c *writeCache) forgetEdit(org, id string) {
	c.mu.Lock()
	delete(c.edits, cacheKey{org, id})
	c.mu.Unlock()
}

func (c *writeCache) forgetCreate(org, team string) {
	c.mu.Lock()
	delete(c.creates, cacheKey{org, team})
	c.mu.Unlock()
}

func (c *writeCache) keepEdit(org, id string, e *editEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	put(c.edits, cacheKey{org, id}, e, maxEdits)
}

// keepCreate keeps a team's creation reads; the uploads read join those kept while the team's
// accounts are the same.
func (c *writeCache) keepCreate(org, team string, r store.PostCreateReads, now time.Time) {
	if !r.TeamLive || r.TeamVersion == "" || len(r.AccountVersions) != len(r.Accounts) || len(r.UploadVersions) != len(r.Uploads) {
		return
	}
	e := &createEntry{teamVersion: r.TeamVersion, accounts: r.Accounts, accountVersions: r.AccountVersions,
		uploads: make(map[string]versionedUpload, len(r.Uploads)), at: now}
	for i, u := range r.Uploads {
		e.uploads[u.ID] = versionedUpload{u, r.UploadVersions[i]}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey{org, team}
	if old, ok := c.creates[k]; ok && old.teamVersion == e.teamVersion && slices.Equal(old.accountVersions, e.accountVersions) {
		for id, u := range old.uploads {
			if _, dup := e.uploads[id]; !dup && len(e.uploads) < maxUploads {
				e.uploads[id] = u
			}
		}
	}
	put(c.creates, k, e, maxCreates)
}

// editAfter is a post's edit reads as its write w left them: the post and the targets written at
// their new versions, the others as read, the links' live uploads (rows: all those known, live;
// nil when one's version is not known, so nothing is kept) and the team's accounts as read.
func editAfter(r store.PostEditReads, w store.PostWritten, rows map[string]store.Upload, now time.Time) *editEntry {
	if w.Version == "" || len(r.Seen.Targets) != len(r.Targets) || len(w.TargetVersions) != len(w.Targets) ||
		len(r.UploadVersions) != len(r.Uploads) || len(r.AccountVersions) != len(r.Accounts) {
		return nil
	}
	type versioned struct {
		t store.PublishTarget
		v string
	}
	byID := make(map[string]versioned, len(r.Targets)+len(w.Targets))
	for i, t := range r.Targets {
		byID[t.ID] = versioned{t, r.Seen.Targets[i]}
	}
	for i, t := range w.Targets {
		byID[t.ID] = versioned{t, w.TargetVersions[i]}
	}
	for _, id := range w.Removed {
		delete(byID, id)
	}
	targets := make([]versioned, 0, len(byID))
	for _, t := range byID {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool { // ReadPostEdit's order: kind, network
		a, b := targets[i].t, targets[j].t
		return a.Kind < b.Kind || a.Kind == b.Kind && a.Network < b.Network
	})
	out := store.PostEditReads{Post: []store.Post{w.Post}, Accounts: r.Accounts, AccountVersions: r.AccountVersions,
		ShowVerboseErrors: w.ShowVerboseErrors, Seen: store.PostSeen{ID: w.Post.ID, Version: w.Version, Targets: make([]string, 0, len(targets))},
		Targets: make([]store.PublishTarget, 0, len(targets))}
	for _, t := range targets {
		out.Targets, out.Seen.Targets = append(out.Targets, t.t), append(out.Seen.Targets, t.v)
	}
	read := make(map[string]int, len(r.Uploads))
	for i, u := range r.Uploads {
		read[u.ID] = i
	}
	for _, l := range w.Links {
		i, ok := read[l.UploadID]
		if _, live := rows[l.UploadID]; live && !ok {
			return nil // a live upload read apart, without its version
		} else if !ok {
			continue // not live: as a read would leave it out
		}
		out.Uploads, out.UploadVersions = append(out.Uploads, r.Uploads[i]), append(out.UploadVersions, r.UploadVersions[i])
	}
	return &editEntry{reads: out, links: w.Links, at: now}
}

// serves says whether e holds all an edit to in checks: not a SCHEDULED post's (its quota lock
// and jobs need a transaction, which begins with the post locked) nor uploads it does not hold.
func (e *editEntry) serves(in *postInput) bool {
	if in.status == app.PostScheduled {
		return false
	}
	for _, id := range app.RuleUploadIDs(&in.data) {
		if !slices.ContainsFunc(e.reads.Uploads, func(u store.Upload) bool { return u.ID == id }) {
			return false
		}
	}
	return true
}

// reads are a creation's reads as e kept them, for a draft (not a SCHEDULED post: its quota lock
// needs a transaction) whose uploads it holds: ok false otherwise. The reference key is left to
// its unique index (the write fails as the read's check would).
func (e *createEntry) reads(in *postInput, asked []string) (r store.PostCreateReads, ok bool) {
	if in.status == app.PostScheduled {
		return r, false
	}
	r = store.PostCreateReads{TeamLive: true, TeamVersion: e.teamVersion, Accounts: e.accounts, AccountVersions: e.accountVersions}
	for _, id := range asked {
		u, ok := e.uploads[id]
		if !ok {
			return r, false
		}
		if !slices.ContainsFunc(r.Uploads, func(x store.Upload) bool { return x.ID == id }) {
			r.Uploads, r.UploadVersions = append(r.Uploads, u.row), append(r.UploadVersions, u.version)
		}
	}
	return r, true
}

// notCached is err, or errNotCached for a call served from an entry (e set).
func notCached[E any](e *E, err error) error {
	if e != nil {
		return errNotCached
	}
	return err
}

// keepsLinks says whether an edit linking ids leaves the post's links as e holds them: its write
// need not touch them (links change only with their post, whose version the write checks).
func (e *editEntry) keepsLinks(ids []string) bool {
	if len(ids) != len(e.links) {
		return false
	}
	for _, id := range ids {
		if !slices.ContainsFunc(e.links, func(l store.PostUpload) bool { return l.UploadID == id }) {
			return false
		}
	}
	return true
}

// writeGuard is what a write served from an entry checks besides the post and its targets: the
// team (at teamVersion, when set), its live accounts exactly at their versions and the uploads
// used at theirs.
func writeGuard(orgID, teamID, teamVersion string, accounts []string, uploads []store.Upload, uploadVersions []string) *store.WriteGuard {
	g := &store.WriteGuard{OrganizationID: orgID, TeamID: teamID, TeamVersion: teamVersion, Accounts: accounts, UploadVersions: uploadVersions,
		UploadIDs: make([]string, len(uploads))}
	if g.Accounts == nil {
		g.Accounts = []string{} // none: still checked (none added)
	}
	for i, u := range uploads {
		g.UploadIDs[i] = u.ID
	}
	return g
}
