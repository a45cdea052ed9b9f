package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// pgUUID reads an id as PostgreSQL does: the same uuid when PostgreSQL takes the text, refused
// when PostgreSQL refuses it (the reads by ids send it as text then, for PostgreSQL's own error).
func TestPgUUIDAsPostgreSQLReadsIt(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	const id = "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3"
	plain := strings.ReplaceAll(id, "-", "")
	for _, s := range []string{id, strings.ToUpper(id), "{" + id + "}", plain, "{" + plain + "}", plain[:4] + "-" + plain[4:],
		plain[:4] + "-" + plain[4:8] + "-" + plain[8:], "{" + id, id + "}", "-" + plain, plain + "-", plain[:3] + "-" + plain[3:],
		id[:35], id + "0", " " + id, id + " ", "nope", "", "{}", "g" + id[1:], id[:8] + "--" + id[9:], plain[:30] + "-" + plain[30:]} {
		var want string
		pgErr := pool.QueryRow(context.Background(), "SELECT $1::text::uuid::text", s).Scan(&want)
		u, ok := store.PgUUID(s)
		switch {
		case pgErr != nil && ok:
			t.Errorf("%q: PostgreSQL refuses it (%v), pgUUID reads %x", s, pgErr, u.Bytes)
		case pgErr == nil && !ok:
			t.Errorf("%q: PostgreSQL reads %s, pgUUID refuses it", s, want)
		case pgErr == nil:
			b := u.Bytes
			if got := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]); got != want {
				t.Errorf("%q: pgUUID reads %s, PostgreSQL %s", s, got, want)
			}
		}
	}
}

// uuidArray sends ids that parse in binary (pgx encodes a []string into uuid[] only as text,
// after a failed binary attempt), the same uuids PostgreSQL reads from their text; an id that does
// not parse sends the array as text (PostgreSQL's own error), and nil stays NULL.
func TestUUIDArrayAsPostgreSQLReadsIt(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	m := pgtype.NewMap()
	const id = "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3"
	ids := []string{id, strings.ToUpper(id), "{" + strings.ReplaceAll(id, "-", "") + "}"}
	if _, err := m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, store.UUIDArray(ids), nil); err != nil {
		t.Fatalf("not binary: %v", err)
	}
	var got, want []string
	if err := pool.QueryRow(ctx, "SELECT $1::uuid[]::text[]", store.UUIDArray(ids)).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT $1::text[]::uuid[]::text[]", ids).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sent %v, PostgreSQL reads %v", got, want)
	}
	bad := []string{id, "nope"}
	if a, ok := store.UUIDArray(bad).([]string); !ok || fmt.Sprint(a) != fmt.Sprint(bad) {
		t.Fatalf("a bad id: %#v, want the ids as they were", store.UUIDArray(bad))
	}
	var isNull bool
	if err := pool.QueryRow(ctx, "SELECT $1::uuid[] IS NULL", store.UUIDArray(nil)).Scan(&isNull); err != nil || !isNull {
		t.Fatalf("nil: null %v, %v", isNull, err)
	}
	if err := pool.QueryRow(ctx, "SELECT $1::uuid[] IS NULL", store.UUIDArray([]string{})).Scan(&isNull); err != nil || isNull {
		t.Fatalf("empty: null %v, %v", isNull, err)
	}
}
