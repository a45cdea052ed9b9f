package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// A read that decodes many strings decodes a short one it has decoded before (the rows'
// organization, status, network …) as the same string, not a new allocation — whether it came as
// a uuid or as text.
func TestRawRowDecodesRepeatedStringsOnce(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	const id = "7b0a3c62-8a8e-4c3b-9b1e-0123456789ab"
	long := strings.Repeat("x", 41)
	sql := "SELECT "
	for i := range 40 { // a read of many rows: decoded before the strings to share
		sql += "'c" + strconv.Itoa(i) + "'::text, "
	}
	rows, err := pool.Query(context.Background(), sql+`$1::uuid, $1::text, $1::uuid, 'DRAFT'::text, 'DRAFT'::text, $2::text, $2::text`, id, long)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	got, err := store.RawStrings(rows)
	if err != nil {
		t.Fatal(err)
	}
	got = got[40:]
	want := []string{id, id, id, "DRAFT", "DRAFT", long, long}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("column %d: %q, want %q", i+1, got[i], want[i])
		}
	}
	same := func(a, b int) bool { return unsafe.StringData(got[a]) == unsafe.StringData(got[b]) }
	if !same(0, 1) || !same(0, 2) || !same(3, 4) {
		t.Errorf("repeated strings decoded anew: %v", got)
	}
}
