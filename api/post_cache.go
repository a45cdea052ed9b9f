package api

import (
	"container/list"
	"hash/maphash"
	"sync"
	"time"
)

// postCache keeps the JSON of posts' records as GET post and each item of GET post list write
// them, by post id, each with the version it was read at (store/post_version.go). It lives here,
// beside the encoder whose bytes it keeps (the service returns records, not their JSON), and the
// service answers the versions: an entry is answered only after a read of the post's current
// version equals the entry's, never on trust, and is filled only from the service's plain reads
// (never a write's answer, read inside its transaction). The version covers every row the record
// shows; what it does not come from rows is the uploads' presigned URLs, signed for
// storage.MaxPresignTTL (7 days) when read: an entry is kept at most postCacheMaxAge, so a URL it
// answers was signed at most that long before. Nothing in a record depends on the principal
// beyond its organization, which the version read is scoped by (and hashes).
type postCache struct {
	budget int // bytes per shard; 0: the cache keeps nothing
	seed   maphash.Seed
	now    func() time.Time
	shards [postCacheShards]postShard
}

const (
	postCacheShards = 16
	postCacheMaxAge = 5 * time.Minute
	postEntryCost   = 128 // an entry's overhead beyond its JSON: the id, the list element, the map slot
)

type postShard struct {
	mu    sync.Mutex
	byID  map[string]*list.Element
	lru   list.List // of *postEntry, most recently used first
	bytes int
}

type postEntry struct {
	id      string
	version int64
	at      time.Time
	json    []byte // GET post's answer (the record and a newline); never written to once kept: answers share it
}

// newPostCache answers a cache of at most bytes of records (config.PostCacheMB).
func newPostCache(now func() time.Time, bytes int) *postCache {
	c := &postCache{budget: bytes / postCacheShards, seed: maphash.MakeSeed(), now: now}
	for i := range c.shards {
		c.shards[i].byID = map[string]*list.Element{}
	}
	return c
}

func (c *postCache) shard(id string) *postShard {
	return &c.shards[maphash.String(c.seed, id)%postCacheShards]
}

// has answers whether an entry for id is kept, whatever its version.
func (c *postCache) has(id string) bool {
	s := c.shard(id)
	s.mu.Lock()
	_, ok := s.byID[id]
	s.mu.Unlock()
	return ok
}

// current answers id's kept answer when it is at the version version answers (a narrow
// statement, sent only when an entry is kept); nil when the caller must read the record (none
// kept, changed, or gone: the read answers why).
func (c *postCache) current(id string, version func() (int64, bool, error)) ([]byte, error) {
	if !c.has(id) {
		return nil, nil
	}
	v, ok, err := version()
	if err != nil || !ok {
		return nil, err
	}
	return c.get(id, v), nil
}

// get answers id's GET post answer (its record and a newline) when kept at version and young
// enough; nil otherwise.
func (c *postCache) get(id string, version int64) []byte {
	s := c.shard(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.byID[id]
	if !ok {
		return nil
	}
	e := el.Value.(*postEntry)
	if e.version != version || c.now().Sub(e.at) > postCacheMaxAge {
		return nil
	}
	s.lru.MoveToFront(el)
	return e.json
}

// put keeps a copy of json (a record, without GET's trailing newline) as id's at version, read
// from at on (the time before the read, whose URLs were signed after it).
func (c *postCache) put(id string, version int64, at time.Time, json []byte) {
	cost := len(json) + 1 + len(id) + postEntryCost
	budget := c.budget
	if cost > budget {
		return
	}
	e := &postEntry{id: id, version: version, at: at, json: append(append(make([]byte, 0, len(json)+1), json...), '\n')}
	s := c.shard(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.byID[id]; ok {
		old := el.Value.(*postEntry)
		s.bytes -= len(old.json) + len(old.id) + postEntryCost
		el.Value = e
		s.lru.MoveToFront(el)
	} else {
		s.byID[id] = s.lru.PushFront(e)
	}
	s.bytes += cost
	for s.bytes > budget {
		el := s.lru.Back()
		old := el.Value.(*postEntry)
		s.lru.Remove(el)
		delete(s.byID, old.id)
		s.bytes -= len(old.json) + len(old.id) + postEntryCost
	}
}

// forget drops id's entry: a post this process just wrote is read next with its version in the
// read's round trip, not after a version read that would only find the entry stale. (Only a saving:
// an entry is never answered without its version checked.)
func (c *postCache) forget(id string) {
	s := c.shard(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.byID[id]; ok {
		old := el.Value.(*postEntry)
		s.lru.Remove(el)
		delete(s.byID, id)
		s.bytes -= len(old.json) + len(old.id) + postEntryCost
	}
}
