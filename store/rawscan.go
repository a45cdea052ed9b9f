package store

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// rawRow decodes the rows of the read path's statements from their wire bytes (rows.RawValues),
// column after column. pgx plans a scan for every column of every statement it reads — allocating,
// by reflection — which cost more than the decoding itself (issue 15). The binary forms of the
// few types these statements select are decoded here as pgx decodes them; any other type or
// form, or NULL where the destination takes none, goes to pgx's own scan (same value, same error).
type rawRow struct {
	rows pgx.Rows
	fds  []pgconn.FieldDescription
	vals [][]byte
	col  int // the next column
	err  error
	// seen holds the short strings decoded so far: the rows of a read repeat the same
	// organization, team, account, status, kind and network, which were an allocation a row.
	seen    map[string]string
	decoded int // strings decoded before seen was made
}

// newRawRow reads rows; rows that failed before any answer (a canceled context, an argument that
// did not encode) have no field descriptions to ask for: next answers false, Err their error.
func newRawRow(rows pgx.Rows) *rawRow {
	if rows.Err() != nil {
		return &rawRow{rows: rows}
	}
	return &rawRow{rows: rows, fds: rows.FieldDescriptions()}
}

// next moves to the next row; false at the end or after an error (err, then rows.Err()).
func (r *rawRow) next() bool {
	if r.err != nil {
		return false
	}
	if r.col != len(r.fds) && r.vals != nil {
		r.err = fmt.Errorf("store: %d columns decoded, the statement returns %d", r.col, len(r.fds))
		return false
	}
	if !r.rows.Next() {
		return false
	}
	r.vals, r.col = r.rows.RawValues(), 0
	return true
}

// Err answers the first error: decoding's, else the rows'.
func (r *rawRow) Err() error {
	if r.err != nil {
		r.rows.Close()
		return r.err
	}
	return r.rows.Err()
}

// take answers the next column's bytes and description.
func (r *rawRow) take() ([]byte, *pgconn.FieldDescription) {
	i := r.col
	r.col++
	if i >= len(r.fds) {
		if r.err == nil {
			r.err = fmt.Errorf("store: column %d decoded, the statement returns %d", i+1, len(r.fds))
		}
		return nil, &pgconn.FieldDescription{}
	}
	return r.vals[i], &r.fds[i]
}

// pgx scans the column just taken with pgx's own plan.
func (r *rawRow) pgx(dst any) {
	i := r.col - 1
	if r.err != nil || i >= len(r.fds) {
		return
	}
	fd := &r.fds[i]
	if err := r.rows.Conn().TypeMap().Scan(fd.DataTypeOID, fd.Format, r.vals[i], dst); err != nil {
		r.err = pgx.ScanArgError{ColumnIndex: i, FieldName: fd.Name, Err: err}
	}
}

// pgxInto is r.pgx into a variable of its own, copied to dst: pgx's scan takes an interface, so
// whatever it is given escapes to the heap — a fresh variable on this rare path, not every
// caller's destination on every call (a row's every local was an allocation).
func pgxInto[T any](r *rawRow, dst *T) {
	var v T
	r.pgx(&v)
	*dst = v
}

func (r *rawRow) skip() { r.take() }

func (r *rawRow) str(dst *string) {
	v, fd := r.take()
	if s, ok := r.decodeString(v, fd); ok {
		*dst = s
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) strPtr(dst **string) {
	v, fd := r.take()
	if v == nil {
		*dst = nil
	} else if s, ok := r.decodeString(v, fd); ok {
		*dst = &s
	} else {
		pgxInto(r, dst)
	}
}

// decodeString is decodeString, answering a short string decoded before as the same string.
func (r *rawRow) decodeString(v []byte, fd *pgconn.FieldDescription) (string, bool) {
	var buf [36]byte
	b, ok := stringBytes(v, fd, &buf)
	if !ok || len(b) > 40 {
		return string(b), ok
	}
	if r.seen == nil { // a read of a row or two has little to share: no map until it decodes many
		if r.decoded++; r.decoded < internAfter {
			return string(b), true
		}
		r.seen = map[string]string{}
	}
	if s, ok := r.seen[string(b)]; ok {
		return s, true
	}
	s := string(b)
	r.seen[s] = s
	return s, true
}

// internAfter is how many strings a read decodes before it keeps them (GET post's statements
// decode about 20: a map cost them more bytes than it saved).
const internAfter = 32

// decodeString decodes text-like columns (any type in text form) and uuids, as pgx's scans into a string.
func decodeString(v []byte, fd *pgconn.FieldDescription) (string, bool) {
	var buf [36]byte
	b, ok := stringBytes(v, fd, &buf)
	return string(b), ok
}

// stringBytes answers the bytes of decodeString's string: v's own, or a uuid's text in buf.
func stringBytes(v []byte, fd *pgconn.FieldDescription, buf *[36]byte) ([]byte, bool) {
	switch {
	case v == nil:
		return nil, false
	case fd.Format == pgtype.TextFormatCode, fd.DataTypeOID == pgtype.TextOID, fd.DataTypeOID == pgtype.VarcharOID:
		return v, true
	case fd.DataTypeOID == pgtype.UUIDOID && len(v) == 16:
		hex.Encode(buf[0:8], v[:4])
		buf[8] = '-'
		hex.Encode(buf[9:13], v[4:6])
		buf[13] = '-'
		hex.Encode(buf[14:18], v[6:8])
		buf[18] = '-'
		hex.Encode(buf[19:23], v[8:10])
		buf[23] = '-'
		hex.Encode(buf[24:], v[10:])
		return buf[:], true
	}
	return nil, false
}

// The microseconds from the Unix epoch to PostgreSQL's (2000-01-01), and the range of time pgx
// decodes (beyond it, and for ±infinity, pgx's scan answers its error).
const y2kMicros = 946684800 * 1_000_000

var (
	minTime = time.Date(-4713, 11, 24, 0, 0, 0, 0, time.UTC)
	endTime = time.Date(294277, 1, 1, 0, 0, 0, 0, time.UTC)
)

func decodeTime(v []byte, fd *pgconn.FieldDescription) (time.Time, bool) {
	if len(v) != 8 || fd.Format != pgtype.BinaryFormatCode || fd.DataTypeOID != pgtype.TimestamptzOID {
		return time.Time{}, false
	}
	us := int64(binary.BigEndian.Uint64(v))
	if us == math.MaxInt64 || us == math.MinInt64 { // ±infinity
		return time.Time{}, false
	}
	t := time.Unix(y2kMicros/1_000_000+us/1_000_000, (y2kMicros%1_000_000*1_000)+(us%1_000_000*1_000)) // as pgx: in time.Local
	if t.Before(minTime) || !t.Before(endTime) {
		return time.Time{}, false
	}
	return t, true
}

func (r *rawRow) time(dst *time.Time) {
	v, fd := r.take()
	if t, ok := decodeTime(v, fd); ok {
		*dst = t
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) timePtr(dst **time.Time) {
	v, fd := r.take()
	if v == nil {
		*dst = nil
	} else if t, ok := decodeTime(v, fd); ok {
		*dst = &t
	} else {
		pgxInto(r, dst)
	}
}

func binaryOf(v []byte, fd *pgconn.FieldDescription, oid uint32, n int) bool {
	return len(v) == n && fd.Format == pgtype.BinaryFormatCode && fd.DataTypeOID == oid
}

func (r *rawRow) boolean(dst *bool) {
	v, fd := r.take()
	if binaryOf(v, fd, pgtype.BoolOID, 1) {
		*dst = v[0] == 1
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) pgBool(dst *pgtype.Bool) {
	v, fd := r.take()
	if v == nil {
		*dst = pgtype.Bool{}
	} else if binaryOf(v, fd, pgtype.BoolOID, 1) {
		*dst = pgtype.Bool{Bool: v[0] == 1, Valid: true}
	} else {
		pgxInto(r, dst)
	}
}

func (r *rawRow) int32(dst *int32) {
	v, fd := r.take()
	if binaryOf(v, fd, pgtype.Int4OID, 4) {
		*dst = int32(binary.BigEndian.Uint32(v))
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) int64(dst *int64) {
	v, fd := r.take()
	if binaryOf(v, fd, pgtype.Int8OID, 8) {
		*dst = int64(binary.BigEndian.Uint64(v))
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) pgInt4(dst *pgtype.Int4) {
	v, fd := r.take()
	if v == nil {
		*dst = pgtype.Int4{}
	} else if binaryOf(v, fd, pgtype.Int4OID, 4) {
		*dst = pgtype.Int4{Int32: int32(binary.BigEndian.Uint32(v)), Valid: true}
	} else {
		pgxInto(r, dst)
	}
}

func (r *rawRow) pgFloat8(dst *pgtype.Float8) {
	v, fd := r.take()
	if v == nil {
		*dst = pgtype.Float8{}
	} else if binaryOf(v, fd, pgtype.Float8OID, 8) {
		*dst = pgtype.Float8{Float64: math.Float64frombits(binary.BigEndian.Uint64(v)), Valid: true}
	} else {
		pgxInto(r, dst)
	}
}

// json decodes a json or jsonb column into a copy of its text (nil for NULL), as pgx does into a []byte.
func (r *rawRow) json(dst *[]byte) {
	v, fd := r.take()
	switch {
	case v == nil:
		*dst = nil
	case fd.Format == pgtype.BinaryFormatCode && fd.DataTypeOID == pgtype.JSONBOID && len(v) > 0 && v[0] == 1:
		*dst = append([]byte(nil), v[1:]...)
	case fd.DataTypeOID == pgtype.JSONOID || fd.DataTypeOID == pgtype.JSONBOID && fd.Format == pgtype.TextFormatCode:
		*dst = append(make([]byte, 0, len(v)), v...)
	default:
		pgxInto(r, dst)
	}
}

// strs decodes a one-dimensional text[] without NULLs in binary form; anything else goes to pgx.
func (r *rawRow) strs(dst *[]string) {
	v, fd := r.take()
	if v == nil {
		*dst = nil
		return
	}
	if fd.Format == pgtype.BinaryFormatCode && fd.DataTypeOID == pgtype.TextArrayOID && len(v) >= 20 &&
		binary.BigEndian.Uint32(v) == 1 && binary.BigEndian.Uint32(v[4:]) == 0 && binary.BigEndian.Uint32(v[8:]) == pgtype.TextOID {
		n := int(int32(binary.BigEndian.Uint32(v[12:])))
		rest := v[20:]
		out := make([]string, 0, max(n, 0))
		for range n {
			if len(rest) < 4 {
				break
			}
			l := int(int32(binary.BigEndian.Uint32(rest)))
			if l < 0 || len(rest) < 4+l {
				break
			}
			out, rest = append(out, string(rest[4:4+l])), rest[4+l:]
		}
		if len(out) == n && len(rest) == 0 && n > 0 {
			*dst = out
			return
		}
	}
	pgxInto(r, dst)
}

// arrayElems answers the elements of a one-dimensional array without NULLs in binary form whose
// elements are elemOID, each size bytes; false for anything else.
func arrayElems(v []byte, fd *pgconn.FieldDescription, oid, elemOID uint32, size int) ([]byte, int, bool) {
	if fd.Format != pgtype.BinaryFormatCode || fd.DataTypeOID != oid || len(v) < 20 ||
		binary.BigEndian.Uint32(v) != 1 || binary.BigEndian.Uint32(v[4:]) != 0 || binary.BigEndian.Uint32(v[8:]) != elemOID {
		return nil, 0, false
	}
	n := int(int32(binary.BigEndian.Uint32(v[12:])))
	rest := v[20:]
	if n <= 0 || len(rest) != n*(4+size) {
		return nil, 0, false
	}
	for i := range n {
		if int32(binary.BigEndian.Uint32(rest[i*(4+size):])) != int32(size) {
			return nil, 0, false
		}
	}
	return rest, n, true
}

// uuids decodes a uuid[] as pgx does into a []string (NULL: nil); anything but a one-dimensional
// array of uuids without NULLs in binary form goes to pgx.
func (r *rawRow) uuids(dst *[]string) {
	v, fd := r.take()
	if v == nil {
		*dst = nil
		return
	}
	if rest, n, ok := arrayElems(v, fd, pgtype.UUIDArrayOID, pgtype.UUIDOID, 16); ok {
		out := make([]string, n)
		uuidFd := pgconn.FieldDescription{DataTypeOID: pgtype.UUIDOID, Format: pgtype.BinaryFormatCode}
		for i := range out {
			out[i], _ = decodeString(rest[i*20+4:i*20+20], &uuidFd)
		}
		*dst = out
		return
	}
	pgxInto(r, dst)
}

// times decodes a timestamptz[] as pgx does into a []time.Time (NULL: nil); anything but a
// one-dimensional array of finite times without NULLs in binary form goes to pgx.
func (r *rawRow) times(dst *[]time.Time) {
	v, fd := r.take()
	if v == nil {
		*dst = nil
		return
	}
	if rest, n, ok := arrayElems(v, fd, pgtype.TimestamptzArrayOID, pgtype.TimestamptzOID, 8); ok {
		out := make([]time.Time, n)
		tsFd := pgconn.FieldDescription{DataTypeOID: pgtype.TimestamptzOID, Format: pgtype.BinaryFormatCode}
		for i := range out {
			if out[i], ok = decodeTime(rest[i*12+4:i*12+12], &tsFd); !ok {
				pgxInto(r, dst)
				return
			}
		}
		*dst = out
		return
	}
	pgxInto(r, dst)
}

func (r *rawRow) skipN(n int) { r.col += n }

// account decodes a social account's columns from username to updated_at (the order of the
// read queries), the account being there (its messaging status and times not NULL).
func (r *rawRow) account(a *SocialAccount) {
	r.strPtr(&a.Username)
	r.strPtr(&a.DisplayName)
	r.strPtr(&a.Bio)
	r.strPtr(&a.AvatarUrl)
	r.strPtr(&a.ExternalID)
	r.strPtr(&a.ProviderPageID)
	r.strPtr(&a.UserUsername)
	r.strPtr(&a.UserDisplayName)
	r.strPtr(&a.UserEmail)
	r.strPtr(&a.UserID)
	r.json(&a.Channels)
	r.strPtr(&a.MastodonServerID)
	r.strPtr(&a.InstagramConnectionMethod)
	r.strPtr(&a.TwitterSubType)
	r.pgBool(&a.IsTiktokBusinessAccount)
	r.timePtr(&a.DisconnectedCheckTryAt)
	r.timePtr(&a.DeleteOn)
	r.str(&a.MessagingStatus)
	r.timePtr(&a.MessagingStatusUpdatedAt)
	r.strPtr(&a.MessagingLastError)
	r.timePtr(&a.ReconnectRequiredAt)
	r.strPtr(&a.LastError)
	r.time(&a.CreatedAt)
	r.time(&a.UpdatedAt)
}

// accountColumns is how many columns account decodes.
const accountColumns = 24

// uploadFile decodes an upload's file columns, mime to updated_at, in the order of the uploads
// table (both the full row and a record's projection select them so).
func (r *rawRow) uploadFile(u *Upload) {
	r.str(&u.Mime)
	r.str(&u.Ext)
	r.str(&u.Path)
	r.strPtr(&u.ThumbnailPath)
	r.strPtr(&u.IconPath)
	r.strPtr(&u.ExternalLink)
	r.pgInt4(&u.Width)
	r.pgInt4(&u.Height)
	r.int64(&u.FileSize)
	r.pgFloat8(&u.VideoLength)
	r.time(&u.CreatedAt)
	r.time(&u.UpdatedAt)
}

// raw answers column i's bytes (nil for NULL or past the row's end).
func (r *rawRow) raw(i int) []byte {
	if i >= len(r.vals) {
		return nil
	}
	return r.vals[i]
}

// isString answers whether column i decodes to s (a NULL never does).
func (r *rawRow) isString(i int, s string) bool {
	if i >= len(r.vals) {
		return false
	}
	got, ok := decodeString(r.vals[i], &r.fds[i])
	return ok && got == s
}
