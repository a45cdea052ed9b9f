package app

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The key cache answers an x-api-key from memory: without it every API call paid a round trip (a
// four-table join) before its own work, plus a write for lastUsedAt. An entry lives KeyCacheTTL at
// most, and is dropped at once when what it resolves to changes: migration 009's triggers NOTIFY
// crier_auth with the organization on every instance. The cache is used only while this instance
// LISTENs (RunKeyCache); without the listener (or after losing it) every call reads the database,
// as before, so a missed notification can never keep a revoked key alive.
const (
	KeyCacheTTL     = 30 * time.Second
	keyTouchEvery   = time.Second // how often the batched lastUsedAt writes are flushed
	authNotifyTopic = "crier_auth"
	keyCacheMax     = 100_000 // entries; beyond it the cache is cleared (a flood of distinct keys)
)

type keyEntry struct {
	hash     []byte
	p        Principal
	expires  time.Time
	lastUsed *time.Time // what lastUsedAt is known to be (read at fill, or set by a queued touch)
}

type keyCache struct {
	mu      sync.Mutex
	live    bool                // the listener is subscribed: entries may be used
	gen     uint64              // bumped by every invalidation: a fill begun before it is not kept
	entries map[string]keyEntry // by prefix
	touched map[string]struct{} // key ids whose lastUsedAt awaits the next flush
}

func newKeyCache() *keyCache {
	return &keyCache{entries: map[string]keyEntry{}, touched: map[string]struct{}{}}
}

// get answers the live entry for prefix, and the generation to fill with when there is none.
func (c *keyCache) get(prefix string, now time.Time) (keyEntry, bool, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		return keyEntry{}, false, 0, false
	}
	e, ok := c.entries[prefix]
	if ok && now.Before(e.expires) {
		return e, true, c.gen, true
	}
	return keyEntry{}, false, c.gen, true
}

// put keeps an entry read at generation gen, unless an invalidation came in between.
func (c *keyCache) put(prefix string, e keyEntry, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || gen != c.gen {
		return
	}
	if len(c.entries) >= keyCacheMax {
		c.entries = map[string]keyEntry{}
	}
	c.entries[prefix] = e
}

// touch queues a lastUsedAt write for the key when the known value is a minute old or more.
func (c *keyCache) touch(prefix string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[prefix]
	if !ok || (e.lastUsed != nil && now.Sub(*e.lastUsed) <= time.Minute) {
		return
	}
	e.lastUsed = &now
	c.entries[prefix] = e
	c.touched[e.p.APIKeyID] = struct{}{}
}

// forgetOrg drops the entries of an organization ("*": all of them).
func (c *keyCache) forgetOrg(orgID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.entries {
		if orgID == "*" || e.p.OrganizationID == orgID {
			delete(c.entries, k)
		}
	}
}

func (c *keyCache) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live = live
	c.gen++
	c.entries = map[string]keyEntry{}
}

func (c *keyCache) takeTouched() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.touched) == 0 {
		return nil
	}
	ids := make([]string, 0, len(c.touched))
	for id := range c.touched {
		ids = append(ids, id)
	}
	c.touched = map[string]struct{}{}
	return ids
}

// RunKeyCache serves API keys from memory until ctx ends: it LISTENs for crier_auth on a
// connection of its own (reconnecting after a loss, with the cache off meanwhile) and flushes the
// queued lastUsedAt writes every second, and once more at the end.
func (s *Service) RunKeyCache(ctx context.Context, pool *pgxpool.Pool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(keyTouchEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				s.flushKeyTouches(fctx)
				cancel()
				return
			case <-t.C:
				s.flushKeyTouches(ctx)
			}
		}
	}()
	for ctx.Err() == nil {
		err := s.listenAuth(ctx, pool)
		s.keys.setLive(false)
		if ctx.Err() != nil {
			break
		}
		s.log.WarnContext(ctx, "app: key cache listener lost; keys are read from the database until it is back", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	wg.Wait()
}

func (s *Service) listenAuth(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+authNotifyTopic); err != nil {
		return err
	}
	s.keys.setLive(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		s.keys.forgetOrg(n.Payload)
	}
}

func (s *Service) flushKeyTouches(ctx context.Context) {
	ids := s.keys.takeTouched()
	if len(ids) == 0 {
		return
	}
	if err := s.q.TouchAPIKeys(ctx, ids); err != nil {
		s.log.WarnContext(ctx, "app: touch api keys", "err", err, "keys", len(ids))
	}
}
