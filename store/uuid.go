package store

import (
	"strings"

	"github.com/jackc/pgx/v5/pgtype"
)

// pgUUID parses s as PostgreSQL's uuid_in does (string_to_uuid: an optional pair of braces, 32
// hex digits in either case, a hyphen allowed after each group of four), without allocating:
// pgtype.UUID's Scan went through hex.DecodeString, an allocation per id of every read by ids.
func pgUUID(s string) (u pgtype.UUID, ok bool) {
	braces := strings.HasPrefix(s, "{")
	if braces {
		s = s[1:]
	}
	for i := 0; i < 16; i++ {
		if len(s) < 2 {
			return u, false
		}
		hi, ok1 := unhex(s[0])
		lo, ok2 := unhex(s[1])
		if !ok1 || !ok2 {
			return u, false
		}
		u.Bytes[i] = hi<<4 | lo
		s = s[2:]
		if len(s) > 0 && s[0] == '-' && i%2 == 1 && i < 15 {
			s = s[1:]
		}
	}
	if braces {
		if !strings.HasPrefix(s, "}") {
			return u, false
		}
		s = s[1:]
	}
	u.Valid = s == ""
	return u, u.Valid
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// uuidArray is ids as a uuid[] parameter. pgx encodes a []string into uuid[] only as text, after
// failing at binary first (building the error's message, with the array printed, each call); ids
// parsed here go in binary at once. Any id that does not parse goes as before, for PostgreSQL's
// own answer to it; nil stays NULL.
func uuidArray(ids []string) any {
	if ids == nil {
		return pgtype.FlatArray[pgtype.UUID](nil)
	}
	out := make(pgtype.FlatArray[pgtype.UUID], len(ids))
	for i, id := range ids {
		var ok bool
		if out[i], ok = pgUUID(id); !ok {
			return ids
		}
	}
	return out
}
