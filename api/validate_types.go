package api

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// typedPath turns a JSON pointer into a zod path: array indexes become numbers. It walks root to
// tell an index from an object key that happens to be made of digits.
func typedPath(root *openapi3.Schema, pointer []string) []any {
	path := make([]any, 0, len(pointer))
	cur := root
	for _, seg := range pointer {
		n, err := strconv.Atoi(seg)
		isIndex := err == nil && n >= 0
		if cur != nil {
			isIndex = isIndex && isArraySchema(cur)
		}
		if isIndex {
			path = append(path, n)
			cur = itemsOf(cur)
			continue
		}
		path = append(path, seg)
		cur = propertyOf(cur, seg)
	}
	return path
}

// subschemas are the schemas that also apply to a value: allOf, oneOf and anyOf.
func subschemas(s *openapi3.Schema) []*openapi3.Schema {
	var subs []*openapi3.Schema
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, ref := range refs {
			if ref != nil && ref.Value != nil {
				subs = append(subs, ref.Value)
			}
		}
	}
	return subs
}

func isArraySchema(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if s.Type.Is(openapi3.TypeArray) || s.Items != nil {
		return true
	}
	return slices.ContainsFunc(subschemas(s), isArraySchema)
}

func itemsOf(s *openapi3.Schema) *openapi3.Schema {
	if s == nil {
		return nil
	}
	if s.Items != nil {
		return s.Items.Value
	}
	for _, sub := range subschemas(s) {
		if items := itemsOf(sub); items != nil {
			return items
		}
	}
	return nil
}

func propertyOf(s *openapi3.Schema, key string) *openapi3.Schema {
	if s == nil {
		return nil
	}
	if p := s.Properties[key]; p != nil {
		return p.Value
	}
	for _, sub := range subschemas(s) {
		if p := propertyOf(sub, key); p != nil {
			return p
		}
	}
	if ap := s.AdditionalProperties.Schema; ap != nil {
		return ap.Value
	}
	return nil
}

// zodTypeName is zod's name for an OpenAPI type: zod has one number type.
func zodTypeName(t string) string {
	if t == openapi3.TypeInteger {
		return openapi3.TypeNumber
	}
	return t
}

// expectedType names the type schema expects, as zod's invalid_type does.
func expectedType(s *openapi3.Schema) string {
	if s == nil {
		return "value"
	}
	if len(s.Enum) > 0 {
		return joinValues(s.Enum, " | ")
	}
	var names []string
	for _, t := range s.Type.Slice() {
		if t == openapi3.TypeNull {
			continue
		}
		if n := zodTypeName(t); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	switch {
	case len(names) > 0:
		return strings.Join(names, " | ")
	case len(s.Properties) > 0:
		return openapi3.TypeObject
	case s.Items != nil:
		return openapi3.TypeArray
	}
	return "value"
}

// receivedType is zod's name for the type of a decoded JSON value.
func receivedType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		if f, ok := jsonNumberAsFloat(v); ok {
			if math.IsNaN(f) {
				return "nan"
			}
			return "number"
		}
	}
	return "unknown"
}

// permitsValue tells whether the type of v is one schema allows (its enum values' types when it
// declares none).
func permitsValue(s *openapi3.Schema, v any) bool {
	got := receivedType(v)
	if s.Type.IsEmpty() {
		return slices.ContainsFunc(s.Enum, func(e any) bool { return receivedType(e) == got })
	}
	switch got {
	case "number":
		return s.Type.Permits(openapi3.TypeNumber) || s.Type.Permits(openapi3.TypeInteger)
	case "null":
		return false
	}
	return s.Type.Permits(got)
}

func jsonNumberAsFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// joinValues is zod's joinValues: strings in single quotes.
func joinValues(values []any, sep string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		if s, ok := v.(string); ok {
			parts[i] = "'" + s + "'"
		} else {
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, sep)
}

// maxReceived bounds how much of a received value an issue message repeats.
const maxReceived = 64

func received(v any) string {
	s := fmt.Sprint(v)
	if r := []rune(s); len(r) > maxReceived {
		return string(r[:maxReceived]) + "…"
	}
	return s
}

// exact tells a length fixed by equal bounds, zod's .length(n), whose messages say "exactly".
func exact(lo uint64, hi *uint64) bool {
	return lo > 0 && hi != nil && *hi == lo
}

func atLeast(exact bool) string {
	if exact {
		return "exactly"
	}
	return "at least"
}

func atMost(exact bool) string {
	if exact {
		return "exactly"
	}
	return "at most"
}

// exclusiveBound is the bound of exclusiveMinimum/Maximum: OpenAPI 3.0's boolean modifies the
// inclusive bound beside it.
func exclusiveBound(b openapi3.ExclusiveBound, inclusive *float64) float64 {
	if b.Value != nil {
		return *b.Value
	}
	if inclusive != nil {
		return *inclusive
	}
	return 0
}

// formatNumber prints a number as JavaScript does for ordinary magnitudes: 5, 0.5, 10080.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
