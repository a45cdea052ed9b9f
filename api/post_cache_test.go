package api

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The cache answers an entry only at its version and while young, keeps within its bytes by
// dropping the least recently used, and is safe to share.
func TestPostCacheBounds(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	c := newPostCache(func() time.Time { return now }, postCacheShards*(3*(100+1+4+postEntryCost)))
	rec := bytes.Repeat([]byte("x"), 100)
	c.put("a", 1, now, rec)
	require.Equal(t, append(append([]byte(nil), rec...), '\n'), c.get("a", 1))
	require.Nil(t, c.get("a", 2), "another version")
	require.Nil(t, c.get("b", 1), "never kept")
	now = now.Add(postCacheMaxAge + time.Second)
	require.Nil(t, c.get("a", 1), "too old")
	c.forget("a")
	require.False(t, c.has("a"))

	// one shard holds three entries: a fourth drops the least recently used
	var ids []string
	for i := 0; len(ids) < 4; i++ {
		if id := fmt.Sprintf("%04d", i); c.shard(id) == c.shard("first") {
			ids = append(ids, id)
		}
	}
	for _, id := range ids[:3] {
		c.put(id, 1, now, rec)
	}
	require.NotNil(t, c.get(ids[0], 1)) // now the most recently used
	c.put(ids[3], 1, now, rec)
	require.Nil(t, c.get(ids[1], 1), "evicted")
	for _, id := range []string{ids[0], ids[2], ids[3]} {
		require.NotNil(t, c.get(id, 1), id)
	}
	s := c.shard(ids[0])
	require.LessOrEqual(t, s.bytes, c.budget)
	require.Len(t, s.byID, 3)

	off := newPostCache(func() time.Time { return now }, 0)
	off.put("a", 1, now, rec)
	require.False(t, off.has("a"), "a cache of 0 bytes keeps nothing")

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				id := fmt.Sprint((g * i) % 50)
				c.put(id, int64(i%3), now, rec)
				c.get(id, int64(i%3))
				c.has(id)
				if i%7 == 0 {
					c.forget(id)
				}
			}
		}()
	}
	wg.Wait()
	for i := range c.shards {
		require.LessOrEqual(t, c.shards[i].bytes, c.budget)
		require.Equal(t, len(c.shards[i].byID), c.shards[i].lru.Len())
	}
}
