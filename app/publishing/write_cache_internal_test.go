package publishing

import (
	"testing"
	"time"

	"github.com/crier/crier/store"
)

// The write cache's entries are an organization's: the same post or team asked by another
// organization finds nothing. They live writeCacheTTL, and the maps stay within their bounds.
func TestWriteCacheKeys(t *testing.T) {
	c, now := newWriteCache(), time.Now()
	c.keepEdit("org-a", "post", &editEntry{at: now})
	c.keepCreate("org-a", "team", store.PostCreateReads{TeamLive: true, TeamVersion: "1"}, now)
	if c.edit("org-a", "post", now) == nil || c.create("org-a", "team", now) == nil {
		t.Fatal("an organization's own entries are not found")
	}
	if c.edit("org-b", "post", now) != nil || c.create("org-b", "team", now) != nil {
		t.Fatal("another organization found an organization's entry")
	}
	if later := now.Add(writeCacheTTL + time.Second); c.edit("org-a", "post", later) != nil || c.create("org-a", "team", later) != nil {
		t.Fatal("an entry outlived writeCacheTTL")
	}
	for i := range maxEdits + 10 {
		c.keepEdit("org-a", string(rune('a'+i%26))+time.Duration(i).String(), &editEntry{at: now})
	}
	if len(c.edits) > maxEdits {
		t.Fatalf("%d edits kept, at most %d", len(c.edits), maxEdits)
	}
}
