package store

import "testing"

// A page's target or link is hashed with the account's or upload's row it names whichever comes
// first (the statement sends the named rows first; a row that comes before waits): the version
// equals the one of the same rows joined in SQL (ReadPostVersion's, a read's), and a link to an
// upload the record does not show is not hashed.
func TestVersionerJoinsNamedRowsInAnyOrder(t *testing.T) {
	id := func(b byte) []byte { u := make([]byte, 16); u[15] = b; return u }
	xid := func(b byte) []byte { return []byte{0, 0, 0, b} }
	post, target, account, upload := id(1), id(2), id(3), id(4)
	version := func(rows func(v *versioner)) int64 {
		v := newVersioner(1)
		v.post(post, "p", 1, 1, xid(1), false)
		rows(v)
		page, _ := v.versions()
		if len(page) != 1 {
			t.Fatalf("%d posts", len(page))
		}
		return page[0].Version
	}
	joined := version(func(v *versioner) {
		v.row(1, post, target, xid(2), xid(3))
		v.row(2, post, upload, xid(4), xid(5))
	})
	for name, rows := range map[string]func(v *versioner){
		"named first": func(v *versioner) {
			v.named(3, account, xid(3), false)
			v.named(4, upload, xid(5), true)
			v.pending(1, post, target, xid(2), account)
			v.pending(2, post, upload, xid(4), upload)
		},
		"named last": func(v *versioner) {
			v.pending(1, post, target, xid(2), account)
			v.pending(2, post, upload, xid(4), upload)
			v.named(4, upload, xid(5), true)
			v.named(3, account, xid(3), false)
		},
		"mixed": func(v *versioner) {
			v.named(3, account, xid(3), false)
			v.pending(2, post, upload, xid(4), upload)
			v.pending(1, post, target, xid(2), account)
			v.named(4, upload, xid(5), true)
		},
	} {
		if got := version(rows); got != joined {
			t.Errorf("%s: version %d, joined in SQL %d", name, got, joined)
		}
	}
	hidden := version(func(v *versioner) { v.row(1, post, target, xid(2), xid(3)) })
	for name, shown := range map[string]func(v *versioner){
		"named first": func(v *versioner) {
			v.named(4, upload, xid(5), false)
			v.pending(2, post, upload, xid(4), upload)
		},
		"named last": func(v *versioner) {
			v.pending(2, post, upload, xid(4), upload)
			v.named(4, upload, xid(5), false)
		},
	} {
		got := version(func(v *versioner) { v.row(1, post, target, xid(2), xid(3)); shown(v) })
		if got != hidden {
			t.Errorf("%s: a link to an upload not shown is hashed", name)
		}
	}
	if changed := version(func(v *versioner) {
		v.pending(1, post, target, xid(2), account)
		v.named(3, account, xid(9), false)
		v.row(2, post, upload, xid(4), xid(5))
	}); changed == joined {
		t.Error("the account's xmin changed, the version did not")
	}
}
