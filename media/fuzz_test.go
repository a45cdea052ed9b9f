package media_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/crier/crier/media"
	"github.com/crier/crier/media/mediatest"
)

// FuzzSniffAndProbe: whatever the bytes, sniffing answers an allowed type or nothing, and probing
// what was sniffed answers metadata or ErrUnreadable, never a panic (make test runs it briefly;
// seeds in testdata/fuzz/FuzzSniffAndProbe).
func FuzzSniffAndProbe(f *testing.F) {
	f.Add(mediatest.PNG(4, 4))
	f.Add([]byte("%PDF-1.4\njunk"))
	f.Add([]byte("%PDF-1.4\nxref\nstartxref\n9\n%%EOF"))
	f.Add([]byte("GIF89a"))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	f.Add([]byte("\x00\x00\x00\x18ftypmp42"))
	f.Fuzz(func(t *testing.T, b []byte) {
		mime := media.Sniff(b)
		if mime == "" {
			return
		}
		if !media.IsAllowed(mime) {
			t.Fatalf("sniffed %q, not an allowed type", mime)
		}
		if _, err := media.Probe(mime, bytes.NewReader(b), int64(len(b))); err != nil && !errors.Is(err, media.ErrUnreadable) {
			t.Fatalf("probe %s: %v", mime, err)
		}
	})
}
