package store_test

import (
	"context"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/store"
	"github.com/crier/crier/store/storetest"
)

// The read path's own decoding of columns (rawscan.go) answers what pgx's scan answers — the
// same value, or an error where pgx errs — for every type it decodes, NULLs, edges and forms
// it leaves to pgx included.
func TestRawScanMatchesPgx(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `CREATE TYPE raw_mood AS ENUM ('ok', 'sad')`)
	require.NoError(t, err)
	dests := map[string]func() any{
		"string": func() any { return new(string) }, "*string": func() any { return new(*string) },
		"time": func() any { return new(time.Time) }, "*time": func() any { return new(*time.Time) },
		"bool": func() any { return new(bool) }, "pgBool": func() any { return new(pgtype.Bool) },
		"int32": func() any { return new(int32) }, "int64": func() any { return new(int64) },
		"pgInt4": func() any { return new(pgtype.Int4) }, "pgFloat8": func() any { return new(pgtype.Float8) },
		"bytes": func() any { return new([]byte) }, "strings": func() any { return new([]string) },
		"uuids": func() any { return new([]string) }, "times": func() any { return new([]time.Time) },
	}
	for _, c := range []struct{ expr, dest string }{
		{`'7b0a3c62-8a8e-4c3b-9b1e-0123456789ab'::uuid`, "string"}, {`'7B0A3C62-8A8E-4C3B-9B1E-0123456789AB'::uuid`, "*string"},
		{`NULL::uuid`, "*string"}, {`NULL::uuid`, "string"}, {`'Tab	é <b>'::text`, "string"}, {`''::text`, "*string"},
		{`'v'::varchar(3)`, "string"}, {`'c'::char(3)`, "string"}, {`'ok'::raw_mood`, "string"}, {`'sad'::raw_mood`, "*string"},
		{`NULL::text`, "*string"}, {`NULL::text`, "string"}, {`42::int4`, "string"},
		{`'2026-11-28 05:40:01.123456+05:30'::timestamptz`, "time"}, {`'1969-12-31 23:59:59.999999+00'::timestamptz`, "time"},
		{`'1900-01-01 00:00:00.000001+00'::timestamptz`, "*time"}, {`'2000-01-01 00:00:00+00'::timestamptz`, "time"},
		{`'99999-12-31 00:00:00+00'::timestamptz`, "time"}, {`'4713-11-24 00:00:00+00 BC'::timestamptz`, "time"},
		{`'infinity'::timestamptz`, "time"}, {`'-infinity'::timestamptz`, "*time"}, {`NULL::timestamptz`, "*time"},
		{`NULL::timestamptz`, "time"}, {`'2026-11-28 05:40:01'::timestamp`, "time"}, {`'2026-11-28'::date`, "*time"},
		{`true`, "bool"}, {`false`, "bool"}, {`NULL::bool`, "bool"}, {`true`, "pgBool"}, {`false`, "pgBool"}, {`NULL::bool`, "pgBool"},
		{`(-2147483648)::int4`, "int32"}, {`2147483647::int4`, "int32"}, {`7::int2`, "int32"}, {`NULL::int4`, "int32"},
		{`(-9223372036854775808)::int8`, "int64"}, {`12::int4`, "int64"}, {`NULL::int8`, "int64"},
		{`(-5)::int4`, "pgInt4"}, {`NULL::int4`, "pgInt4"}, {`3::int2`, "pgInt4"},
		{`1.5e-300::float8`, "pgFloat8"}, {`'NaN'::float8`, "pgFloat8"}, {`'-Infinity'::float8`, "pgFloat8"}, {`NULL::float8`, "pgFloat8"},
		{`2.5::float4`, "pgFloat8"}, {`3::numeric`, "pgFloat8"},
		{`'{"a": [1, "é", null], "b": {}}'::jsonb`, "bytes"}, {`'{"b":1,  "a":2}'::json`, "bytes"}, {`'[]'::jsonb`, "bytes"},
		{`'null'::jsonb`, "bytes"}, {`NULL::jsonb`, "bytes"}, {`'\x0102'::bytea`, "bytes"}, {`'text'::text`, "bytes"},
		{`'{TWITTER,MASTODON}'::text[]`, "strings"}, {`'{}'::text[]`, "strings"}, {`'{"a b","é",""}'::text[]`, "strings"},
		{`'{a,NULL}'::text[]`, "strings"}, {`'{{a,b},{c,d}}'::text[]`, "strings"}, {`'[0:1]={a,b}'::text[]`, "strings"},
		{`NULL::text[]`, "strings"}, {`'{x}'::varchar[]`, "strings"}, {`'{ok,sad}'::raw_mood[]`, "strings"},
		{`'{7b0a3c62-8a8e-4c3b-9b1e-0123456789ab,00000000-0000-0000-0000-000000000000}'::uuid[]`, "uuids"}, {`'{}'::uuid[]`, "uuids"},
		{`NULL::uuid[]`, "uuids"}, {`'{7b0a3c62-8a8e-4c3b-9b1e-0123456789ab,NULL}'::uuid[]`, "uuids"},
		{`'{{7b0a3c62-8a8e-4c3b-9b1e-0123456789ab},{7b0a3c62-8a8e-4c3b-9b1e-0123456789ac}}'::uuid[]`, "uuids"}, {`'{a,b}'::text[]`, "uuids"},
		{`ARRAY['2026-11-28 05:40:01.123456+05:30'::timestamptz, '1969-12-31 23:59:59.999999+00']`, "times"}, {`'{}'::timestamptz[]`, "times"},
		{`NULL::timestamptz[]`, "times"}, {`ARRAY['infinity'::timestamptz]`, "times"}, {`ARRAY[now(), NULL]`, "times"},
		{`ARRAY[ARRAY[now()], ARRAY[now()]]`, "times"}, {`ARRAY['2026-11-28 05:40:01'::timestamp]`, "times"},
	} {
		rows, err := pool.Query(ctx, "SELECT "+c.expr)
		require.NoError(t, err, c.expr)
		require.True(t, rows.Next(), c.expr)
		want, got := dests[c.dest](), dests[c.dest]()
		rawDest := got
		if c.dest == "uuids" {
			rawDest = store.RawUUIDs{P: got.(*[]string)}
		}
		gotErr := store.RawScan(rows, rawDest) // first: pgx's scan closes the rows when it errs
		wantErr := rows.Scan(want)
		rows.Close()
		require.Equal(t, wantErr != nil, gotErr != nil, "%s into %s: pgx %v, raw %v", c.expr, c.dest, wantErr, gotErr)
		if wantErr != nil {
			continue
		}
		w, g := reflect.ValueOf(want).Elem().Interface(), reflect.ValueOf(got).Elem().Interface()
		if f, ok := w.(pgtype.Float8); ok && math.IsNaN(f.Float64) { // NaN equals nothing, itself included
			require.True(t, math.IsNaN(g.(pgtype.Float8).Float64) && g.(pgtype.Float8).Valid, c.expr)
			continue
		}
		require.Equal(t, w, g, "%s into %s", c.expr, c.dest)
	}
}
