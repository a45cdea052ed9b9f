package api

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/crier/crier/app"
)

// Checks the schema cannot express, run once kin-openapi found nothing wrong (so that answers to
// input it already rejects stay as they were):
//
//   - no string of a request body, and no path or query value, holds the NUL character, which
//     PostgreSQL refuses in text;
//   - path and query values are valid UTF-8 (a percent-escaped %FF decodes to a lone byte);
//   - numeric path and query values stay within JavaScript's safe integers, the range every
//     handler can convert to an int (offset=99999999999999999999 would wrap around).
const (
	msgNUL         = "Must not contain the NUL character"
	msgInvalidUTF8 = "Must be valid UTF-8 text"
	maxSafeInteger = 1<<53 - 1
)

// textIssues reports the problems above in r's parameters and in body, the decoded value
// kin-openapi validated (nil when there is none).
func textIssues(r *http.Request, route *routers.Route, pathParams map[string]string, body any) []app.Issue {
	var issues []app.Issue
	add := func(code, msg string, path []any) {
		issues = append(issues, app.Issue{Code: code, Message: msg, Path: path})
	}
	var query map[string][]string
	for _, p := range parametersOf(route) {
		var values []string
		switch p.In {
		case openapi3.ParameterInPath:
			v, ok := pathParams[p.Name]
			if !ok {
				continue
			}
			values = []string{v}
		case openapi3.ParameterInQuery:
			if query == nil {
				query = r.URL.Query()
			}
			values = query[p.Name]
		default:
			continue
		}
		var schema *openapi3.Schema
		if p.Schema != nil {
			schema = p.Schema.Value
		}
		many := isArraySchema(schema)
		if many {
			schema = itemsOf(schema)
		}
		numeric := schema != nil && (schema.Type.Permits(openapi3.TypeNumber) || schema.Type.Permits(openapi3.TypeInteger))
		for i, v := range values {
			path := []any{p.Name}
			if many {
				path = append(path, i)
			}
			switch {
			case strings.IndexByte(v, 0) >= 0:
				add(app.IssueInvalidString, msgNUL, path)
			case !utf8.ValidString(v):
				add(app.IssueInvalidString, msgInvalidUTF8, path)
			case numeric:
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				switch {
				case err != nil && !isRangeError(err):
				case f > maxSafeInteger:
					add(app.IssueTooBig, "Number must be less than or equal to "+strconv.Itoa(maxSafeInteger), path)
				case f < -maxSafeInteger:
					add(app.IssueTooSmall, "Number must be greater than or equal to "+strconv.Itoa(-maxSafeInteger), path)
				}
			}
		}
	}
	walkNUL(body, []any{}, add)
	return issues
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parametersOf lists the operation's parameters, then its path item's that it does not override.
func parametersOf(route *routers.Route) []*openapi3.Parameter {
	var params []*openapi3.Parameter
	seen := map[string]bool{}
	for _, list := range []openapi3.Parameters{route.Operation.Parameters, route.PathItem.Parameters} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || seen[ref.Value.In+" "+ref.Value.Name] {
				continue
			}
			seen[ref.Value.In+" "+ref.Value.Name] = true
			params = append(params, ref.Value)
		}
	}
	return params
}

// walkNUL reports every string of a decoded body (values and object keys) holding NUL.
func walkNUL(v any, path []any, add func(code, msg string, path []any)) {
	switch v := v.(type) {
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			add(app.IssueInvalidString, msgNUL, slices.Clone(path))
		}
		if v == longFileName {
			add(app.IssueTooBig, msgLongFileName, slices.Clone(path))
		}
	case []any:
		for i, item := range v {
			walkNUL(item, append(path, i), add)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if strings.IndexByte(k, 0) >= 0 {
				add(app.IssueInvalidString, msgNUL, append(slices.Clone(path), k))
				continue
			}
			walkNUL(v[k], append(path, k), add)
		}
	}
}

// takeValidatedValue returns the body value kin-openapi validated (Options.KeepValidatedValue) and
// hides it from the handler again, which binds the body itself as it always has.
func takeValidatedValue(r *http.Request) any {
	vb, ok := r.Body.(interface{ ValidatedValue() any })
	if !ok {
		return nil
	}
	r.Body = struct{ io.ReadCloser }{r.Body}
	return vb.ValidatedValue()
}
