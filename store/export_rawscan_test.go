package store

import (
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// RawScan decodes the current row of rows into dst as the read path does (rawscan.go), each
// destination by its type, for rawscan_test.go.
func RawScan(rows pgx.Rows, dst ...any) error {
	r := newRawRow(rows)
	r.vals = rows.RawValues()
	for _, d := range dst {
		switch d := d.(type) {
		case *string:
			r.str(d)
		case **string:
			r.strPtr(d)
		case *time.Time:
			r.time(d)
		case **time.Time:
			r.timePtr(d)
		case *bool:
			r.boolean(d)
		case *pgtype.Bool:
			r.pgBool(d)
		case *int32:
			r.int32(d)
		case *int64:
			r.int64(d)
		case *pgtype.Int4:
			r.pgInt4(d)
		case *pgtype.Float8:
			r.pgFloat8(d)
		case *[]byte:
			r.json(d)
		case *[]string:
			r.strs(d)
		case RawUUIDs:
			r.uuids(d.P)
		case *[]time.Time:
			r.times(d)
		default:
			panic("RawScan: no decoder for this type")
		}
	}
	return r.err
}

// RawUUIDs has RawScan decode a uuid[] into P (a []string, which RawScan otherwise decodes as text[]).
type RawUUIDs struct{ P *[]string }

// ReadPostTargetsOfOrgSQL is the targets statement of ReadPosts, for explain_test.go.
var ReadPostTargetsOfOrgSQL = readPostTargetsOfOrg

// RawRowsErr reads rows to their end as the read path does and answers their error.
func RawRowsErr(rows pgx.Rows) error {
	r := newRawRow(rows)
	for r.next() {
	}
	return r.Err()
}
