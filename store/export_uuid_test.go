package store

import "github.com/jackc/pgx/v5"

var (
	PgUUID    = pgUUID
	UUIDArray = uuidArray
)

// RawStrings decodes every column of rows' current row as a string, with one rawRow (as a read
// decodes its rows), for rawscan_intern_test.go.
func RawStrings(rows pgx.Rows) ([]string, error) {
	r := newRawRow(rows)
	r.vals = rows.RawValues()
	out := make([]string, len(r.vals))
	for i := range out {
		r.str(&out[i])
	}
	return out, r.err
}
