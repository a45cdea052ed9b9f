package api

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/crier/crier/app"
)

// schema maps the errors of a schema visit; path leads to the visited value, root is its schema.
func (m *issueMapper) schema(err error, path []any, root *openapi3.Schema) {
	switch e := err.(type) {
	case openapi3.MultiError:
		for _, err := range e {
			m.schema(err, path, root)
		}
	case *openapi3.SchemaError:
		m.schemaError(e, path, root)
	default:
		if errors.Is(err, openapi3.ErrSchemaInputNaN) || errors.Is(err, openapi3.ErrSchemaInputInf) {
			m.add(app.IssueCustom, "Number must be finite", path)
			return
		}
		// An unresolved $ref, a pattern Go cannot compile…: the contract's fault, not the client's.
		m.fail(fmt.Errorf("api: validate: %w", err))
	}
}

func (m *issueMapper) schemaError(e *openapi3.SchemaError, prefix []any, root *openapi3.Schema) {
	path := append(slices.Clone(prefix), typedPath(root, e.JSONPointer())...)
	s := e.Schema
	if s == nil {
		s = &openapi3.Schema{}
	}
	switch e.SchemaField {
	case "required":
		m.add(app.IssueInvalidType, "Required", path)
	case "type":
		switch {
		case e.Reason == "value must be an integer" && receivedType(e.Value) == "number":
			// A fraction; the same reason also tells a value that is no number at all.
			m.add(app.IssueInvalidType, "Expected integer, received float", path)
			return
		case e.Origin != nil: // a json.Number beyond float64, such as 1e400
			m.add(app.IssueCustom, "Number must be finite", path)
			return
		}
		m.add(app.IssueInvalidType, fmt.Sprintf("Expected %s, received %s", expectedType(s), receivedType(e.Value)), path)
	case "nullable":
		m.add(app.IssueInvalidType, fmt.Sprintf("Expected %s, received null", expectedType(s)), path)
	case "enum":
		options := joinValues(s.Enum, " | ")
		if !permitsValue(s, e.Value) {
			// zod's enums check the type first: z.enum(["A"]).parse(1) is an invalid_type.
			m.add(app.IssueInvalidType, fmt.Sprintf("Expected %s, received %s", options, receivedType(e.Value)), path)
			return
		}
		m.add(app.IssueInvalidEnumValue, fmt.Sprintf("Invalid enum value. Expected %s, received '%s'", options, received(e.Value)), path)
	case "minLength":
		m.add(app.IssueTooSmall, fmt.Sprintf("String must contain %s %d character(s)",
			atLeast(exact(s.MinLength, s.MaxLength)), s.MinLength), path)
	case "maxLength":
		m.add(app.IssueTooBig, fmt.Sprintf("String must contain %s %d character(s)",
			atMost(exact(s.MinLength, s.MaxLength)), *s.MaxLength), path)
	case "minItems":
		m.add(app.IssueTooSmall, fmt.Sprintf("Array must contain %s %d element(s)",
			atLeast(exact(s.MinItems, s.MaxItems)), s.MinItems), path)
	case "maxItems":
		m.add(app.IssueTooBig, fmt.Sprintf("Array must contain %s %d element(s)",
			atMost(exact(s.MinItems, s.MaxItems)), *s.MaxItems), path)
	case "minProperties":
		m.add(app.IssueTooSmall, fmt.Sprintf("Object must contain at least %d key(s)", s.MinProps), path)
	case "maxProperties":
		m.add(app.IssueTooBig, fmt.Sprintf("Object must contain at most %d key(s)", *s.MaxProps), path)
	case "minimum":
		m.add(app.IssueTooSmall, "Number must be greater than or equal to "+formatNumber(*s.Min), path)
	case "exclusiveMinimum":
		m.add(app.IssueTooSmall, "Number must be greater than "+formatNumber(exclusiveBound(s.ExclusiveMin, s.Min)), path)
	case "maximum":
		m.add(app.IssueTooBig, "Number must be less than or equal to "+formatNumber(*s.Max), path)
	case "exclusiveMaximum":
		m.add(app.IssueTooBig, "Number must be less than "+formatNumber(exclusiveBound(s.ExclusiveMax, s.Max)), path)
	case "multipleOf":
		m.add(app.IssueNotMultipleOf, "Number must be a multiple of "+formatNumber(*s.MultipleOf), path)
	case "format":
		m.format(s, e.Value, path)
	case "pattern":
		m.add(app.IssueInvalidString, "Invalid", path)
	case "properties": // additionalProperties: false
		m.unrecognizedObject(path, s, e.Value)
	case "readOnly": // a readOnly property sent in a request: zod's input schema has no such key
		if n := len(path); n > 0 {
			m.unrecognizedKeys(path[:n-1], fmt.Sprint(path[n-1]))
		}
	case "discriminator":
		m.discriminator(s, path)
	case "oneOf":
		// z.discriminatedUnion reports the issues of the option the discriminator picked.
		if branches := originErrors(e); s.Discriminator != nil && len(branches) == 1 {
			m.schema(branches[0], prefix, root)
			return
		}
		m.add(app.IssueInvalidUnion, "Invalid input", path)
	case "anyOf":
		m.add(app.IssueInvalidUnion, "Invalid input", path)
	case "allOf":
		// z.intersection reports the issues of both sides.
		if branches := originErrors(e); len(branches) > 0 {
			for _, err := range branches {
				m.schema(err, prefix, root)
			}
			return
		}
		m.add(app.IssueCustom, "Invalid input", path)
	case "uniqueItems":
		m.add(app.IssueCustom, "Array must contain unique elements", path)
	default: // "not", "boolean" (the false schema)…
		m.add(app.IssueCustom, "Invalid input", path)
	}
}

// originErrors returns the errors of the subschemas behind a oneOf or allOf error, whose paths
// kin-openapi keeps relative to the same root as the error's own.
func originErrors(e *openapi3.SchemaError) []error {
	var me openapi3.MultiError
	if e.Origin != nil && errors.As(e.Origin, &me) {
		return me
	}
	return nil
}

func (m *issueMapper) unrecognizedKeys(path []any, keys ...string) {
	if len(keys) == 0 {
		return
	}
	u := m.unrecognizedAt(path)
	for _, k := range keys {
		u.keys[k] = struct{}{}
	}
}

// unrecognizedAt returns the collection of unknown keys of the object at path, adding its issue
// (whose message finishUnrecognized writes) the first time.
func (m *issueMapper) unrecognizedAt(path []any) *unrecognized {
	id := fmt.Sprintf("%#v", path)
	u := m.unrecognized[id]
	if u == nil {
		m.add(app.IssueUnrecognizedKeys, "", path)
		u = &unrecognized{issue: len(m.issues) - 1, keys: map[string]struct{}{}}
		m.unrecognized[id] = u
	}
	return u
}

// unrecognizedObject collects the unknown keys of the object value at path. kin-openapi reports
// one error per unknown key, each with the whole object: the object is listed once, so that the
// work stays linear in its size.
func (m *issueMapper) unrecognizedObject(path []any, schema *openapi3.Schema, value any) {
	if u := m.unrecognized[fmt.Sprintf("%#v", path)]; u != nil && u.listed {
		return
	}
	keys := unknownKeys(schema, value)
	if len(keys) == 0 {
		return
	}
	u := m.unrecognizedAt(path)
	if u.listed {
		return
	}
	u.listed = true
	for _, k := range keys {
		u.keys[k] = struct{}{}
	}
}

// maxListedKeys bounds the keys an unrecognized_keys message names; the rest are counted.
const maxListedKeys = 100

// finishUnrecognized writes the message of each unrecognized_keys issue: its keys, sorted.
func (m *issueMapper) finishUnrecognized() {
	for _, u := range m.unrecognized {
		keys := make([]string, 0, len(u.keys))
		for k := range u.keys {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		more := 0
		if len(keys) > maxListedKeys {
			more, keys = len(keys)-maxListedKeys, keys[:maxListedKeys]
		}
		quoted := make([]any, len(keys))
		for i, k := range keys {
			quoted[i] = k
		}
		msg := "Unrecognized key(s) in object: " + joinValues(quoted, ", ")
		if more > 0 {
			msg += fmt.Sprintf(" (and %d more)", more)
		}
		m.issues[u.issue].Message = msg
	}
}

// unknownKeys lists the keys of the object value that schema does not declare.
func unknownKeys(schema *openapi3.Schema, value any) []string {
	obj, ok := value.(map[string]any)
	if !ok {
		return nil
	}
	var keys []string
	for k := range obj {
		if _, declared := schema.Properties[k]; !declared {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func (m *issueMapper) discriminator(s *openapi3.Schema, path []any) {
	d := s.Discriminator
	var options []any
	for v := range d.Mapping {
		options = append(options, v)
	}
	if len(options) == 0 {
		for _, ref := range s.OneOf {
			if i := strings.LastIndex(ref.Ref, "/"); i >= 0 {
				options = append(options, ref.Ref[i+1:])
			}
		}
	}
	slices.SortFunc(options, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	m.add("invalid_union_discriminator", "Invalid discriminator value. Expected "+joinValues(options, " | "),
		append(slices.Clone(path), d.PropertyName))
}

// format maps a failed "format": zod's invalid_string, named after its check.
func (m *issueMapper) format(s *openapi3.Schema, value any, path []any) {
	if _, isString := value.(string); !isString {
		// Integer formats are ranges: int32, int64.
		if lo, hi, ok := integerFormatRange(s.Format); ok {
			if f, ok := jsonNumberAsFloat(value); ok && f < lo {
				m.add(app.IssueTooSmall, "Number must be greater than or equal to "+formatNumber(lo), path)
				return
			}
			m.add(app.IssueTooBig, "Number must be less than or equal to "+formatNumber(hi), path)
			return
		}
		m.add(app.IssueCustom, "Invalid input", path)
		return
	}
	if name, ok := formatCheck[s.Format]; ok {
		m.add(app.IssueInvalidString, "Invalid "+name, path)
		return
	}
	m.add(app.IssueInvalidString, "Invalid", path)
}

func integerFormatRange(format string) (float64, float64, bool) {
	switch format {
	case "int32":
		return math.MinInt32, math.MaxInt32, true
	case "int64":
		return math.MinInt64, math.MaxInt64, true
	}
	return 0, 0, false
}
