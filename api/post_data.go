package api

import (
	"encoding/json"
	"sync"

	"github.com/crier/crier/app"
)

// dataJSON answers the JSON of a post's data in the answer (the contract's PostData) from data as
// stored: what decoding it into the networks' payloads (as the record's Data), then converting
// those into the contract's types (toPost) and encoding them writes. That is a function of the
// stored bytes alone, and most of a post list's CPU (issue 15), so its results are kept, by
// stored bytes, in a bounded table shared by every answer: a post is converted once, not per read.
func dataJSON(stored []byte) ([]byte, error) {
	dataMemo.RLock()
	b, ok := dataMemo.m[string(stored)]
	dataMemo.RUnlock()
	if ok {
		return b, nil
	}
	var d app.PostData
	_ = json.Unmarshal(stored, &d) // as the record's Data is read: what decodes is kept
	out, err := toPost(app.Post{Data: d})
	if err != nil {
		return nil, err
	}
	if b, err = json.Marshal(out.Data); err != nil {
		return nil, err
	}
	if len(stored)+len(b) > dataMemoMaxEntry { // a rare big post is converted per read, not kept
		return b, nil
	}
	dataMemo.Lock()
	if dataMemo.bytes+len(stored)+len(b) > dataMemoMaxBytes { // full: start over (simpler than eviction, and rare)
		clear(dataMemo.m)
		dataMemo.bytes = 0
	}
	if _, ok := dataMemo.m[string(stored)]; !ok {
		dataMemo.m[string(stored)] = b
		dataMemo.bytes += len(stored) + len(b)
	}
	dataMemo.Unlock()
	return b, nil
}

// The table is bounded by bytes, not entries: a post's data is a few hundred bytes to a few KB,
// but its texts may be long, and posts are written by users.
const (
	dataMemoMaxBytes = 8 << 20
	dataMemoMaxEntry = 64 << 10
)

var dataMemo = struct {
	sync.RWMutex
	m     map[string][]byte
	bytes int // keys and values held
}{m: map[string][]byte{}}
