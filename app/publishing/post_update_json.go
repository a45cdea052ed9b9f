package publishing

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// sameJSON says a stored jsonb document (its text, as PostgreSQL writes it) is the same as the
// JSON b, or answers false (which only costs the target a comparison in the write's statement,
// which stays the rule). b is rewritten in jsonb's text form (jsonbText) and compared byte for
// byte: decoding both into maps and comparing them was most of an edit's allocations.
func sameJSON(stored, b []byte) bool {
	if bytes.Equal(stored, b) {
		return true
	}
	c, ok := jsonbText(b)
	return ok && bytes.Equal(stored, c)
}

// jsonbText writes the JSON document b as PostgreSQL's jsonb writes its text: object keys
// deduplicated (the last kept) and sorted by length, then bytes; ", " and ": " between items; strings
// escaped as escape_json does; numbers as written. false when b is not valid JSON or holds what
// it cannot vouch for (a number with an exponent or a negative zero, which jsonb respells). A NUL,
// which jsonb refuses, is written escaped, which no stored text holds.
func jsonbText(b []byte) ([]byte, bool) {
	p := jsonbWriter{in: b}
	out, ok := p.value(make([]byte, 0, len(b)+len(b)/8))
	p.space()
	return out, ok && p.i == len(b)
}

type jsonbWriter struct {
	in []byte
	i  int
}

func (p *jsonbWriter) space() {
	for p.i < len(p.in) && (p.in[p.i] == ' ' || p.in[p.i] == '\t' || p.in[p.i] == '\n' || p.in[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonbWriter) value(out []byte) ([]byte, bool) {
	p.space()
	if p.i >= len(p.in) {
		return out, false
	}
	switch c := p.in[p.i]; {
	case c == '{':
		return p.object(out)
	case c == '[':
		p.i++
		out = append(out, '[')
		p.space()
		if p.i < len(p.in) && p.in[p.i] == ']' {
			p.i++
			return append(out, ']'), true
		}
		for {
			var ok bool
			if out, ok = p.value(out); !ok {
				return out, false
			}
			p.space()
			if p.i >= len(p.in) {
				return out, false
			}
			switch p.in[p.i] {
			case ',':
				p.i++
				out = append(out, ", "...)
			case ']':
				p.i++
				return append(out, ']'), true
			default:
				return out, false
			}
		}
	case c == '"':
		s, ok := p.str()
		return appendJSONBString(out, s), ok
	case c == 't':
		return p.literal(out, "true")
	case c == 'f':
		return p.literal(out, "false")
	case c == 'n':
		return p.literal(out, "null")
	default:
		return p.number(out)
	}
}

func (p *jsonbWriter) literal(out []byte, lit string) ([]byte, bool) {
	if !bytes.HasPrefix(p.in[p.i:], []byte(lit)) {
		return out, false
	}
	p.i += len(lit)
	return append(out, lit...), true
}

// number copies a number in JSON's grammar, refusing an exponent and a negative zero.
func (p *jsonbWriter) number(out []byte) ([]byte, bool) {
	start := p.i
	if p.i < len(p.in) && p.in[p.i] == '-' {
		p.i++
	}
	digits, nonZero := 0, false
	for p.i < len(p.in) && p.in[p.i] >= '0' && p.in[p.i] <= '9' {
		if digits == 1 && p.in[p.i-1] == '0' {
			return out, false // a leading zero
		}
		nonZero = nonZero || p.in[p.i] != '0'
		p.i++
		digits++
	}
	if digits == 0 {
		return out, false
	}
	if p.i < len(p.in) && p.in[p.i] == '.' {
		p.i++
		frac := 0
		for p.i < len(p.in) && p.in[p.i] >= '0' && p.in[p.i] <= '9' {
			nonZero = nonZero || p.in[p.i] != '0'
			p.i++
			frac++
		}
		if frac == 0 {
			return out, false
		}
	}
	if p.i < len(p.in) && (p.in[p.i] == 'e' || p.in[p.i] == 'E') || p.in[start] == '-' && !nonZero {
		return out, false
	}
	return append(out, p.in[start:p.i]...), true
}

// str reads a string's value (its escapes undone).
func (p *jsonbWriter) str() (string, bool) {
	start := p.i
	p.i++
	escaped := false
	for p.i < len(p.in) {
		switch c := p.in[p.i]; {
		case c == '"':
			p.i++
			raw := p.in[start:p.i]
			if !escaped {
				s := string(raw[1 : len(raw)-1])
				return s, utf8.ValidString(s)
			}
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			escaped = true
			p.i += 2
		case c < ' ':
			return "", false
		default:
			p.i++
		}
	}
	return "", false
}

func (p *jsonbWriter) object(out []byte) ([]byte, bool) {
	p.i++
	type member struct {
		key string
		val []byte
	}
	var members []member
	p.space()
	if p.i < len(p.in) && p.in[p.i] == '}' {
		p.i++
		return append(out, "{}"...), true
	}
	for {
		p.space()
		if p.i >= len(p.in) || p.in[p.i] != '"' {
			return out, false
		}
		key, ok := p.str()
		if !ok {
			return out, false
		}
		p.space()
		if p.i >= len(p.in) || p.in[p.i] != ':' {
			return out, false
		}
		p.i++
		val, ok := p.value(nil)
		if !ok {
			return out, false
		}
		members = append(members, member{key, val})
		p.space()
		if p.i >= len(p.in) {
			return out, false
		}
		if p.in[p.i] == '}' {
			p.i++
			break
		}
		if p.in[p.i] != ',' {
			return out, false
		}
		p.i++
	}
	// jsonb keeps the last of duplicate keys, and orders keys by length, then bytes.
	slices.SortStableFunc(members, func(a, b member) int {
		if len(a.key) != len(b.key) {
			return len(a.key) - len(b.key)
		}
		return strings.Compare(a.key, b.key)
	})
	out = append(out, '{')
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		if len(out) > 0 && out[len(out)-1] != '{' {
			out = append(out, ", "...)
		}
		out = appendJSONBString(out, m.key)
		out = append(out, ": "...)
		out = append(out, m.val...)
	}
	return append(out, '}'), true
}

// appendJSONBString writes s as escape_json does (PostgreSQL's jsonb output). A NUL cannot be in
// a jsonb string: it is written escaped, and so never matches a stored one.
func appendJSONBString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\b':
			out = append(out, `\b`...)
		case '\f':
			out = append(out, `\f`...)
		case '\n':
			out = append(out, `\n`...)
		case '\r':
			out = append(out, `\r`...)
		case '\t':
			out = append(out, `\t`...)
		case '"':
			out = append(out, `\"`...)
		case '\\':
			out = append(out, `\\`...)
		default:
			if c < ' ' {
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				out = append(out, c)
			}
		}
	}
	return append(out, '"')
}
