package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/crier/crier/app"
)

// issueMapper turns kin-openapi's errors into zod issues.
type issueMapper struct {
	req    *http.Request
	issues []app.Issue
	// unrecognized collects the unknown keys of each object: zod reports them in one issue,
	// kin-openapi in one error per key.
	unrecognized map[string]*unrecognized
	fatal        error // a failure that is not the client's input
}

type unrecognized struct {
	issue  int // index in issues
	keys   map[string]struct{}
	listed bool // the keys of the object value are in keys
}

func (m *issueMapper) add(code, message string, path []any) {
	if path == nil {
		path = []any{}
	}
	m.issues = append(m.issues, app.Issue{Code: code, Message: message, Path: path})
}

func (m *issueMapper) fail(err error) {
	if m.fatal == nil {
		m.fatal = err
	}
}

// request maps what ValidateRequest returned.
func (m *issueMapper) request(err error) {
	switch e := err.(type) {
	case openapi3.MultiError:
		for _, err := range e {
			m.request(err)
		}
	case *openapi3filter.RequestError:
		switch {
		case e.Parameter != nil:
			m.parameter(e)
		case e.RequestBody != nil:
			m.body(e)
		default:
			m.fail(fmt.Errorf("api: validate request: %w", e))
		}
	default: // *openapi3filter.SecurityRequirementsError cannot happen: routes have no security.
		m.fail(fmt.Errorf("api: validate request: %w", err))
	}
}

func (m *issueMapper) parameter(e *openapi3filter.RequestError) {
	p := e.Parameter
	path := []any{p.Name}
	var schema *openapi3.Schema
	if p.Schema != nil {
		schema = p.Schema.Value
	}
	var pe *openapi3filter.ParseError
	switch {
	case errors.Is(e.Err, openapi3filter.ErrInvalidRequired):
		m.add(app.IssueInvalidType, "Required", path)
	case errors.Is(e.Err, openapi3filter.ErrInvalidEmptyValue):
		// Only values of other types than string can be empty ("?limit=").
		m.add(app.IssueInvalidType, fmt.Sprintf("Expected %s, received string", expectedType(schema)), path)
	case isSchemaError(e.Err):
		m.schema(e.Err, path, schema)
	case errors.As(e.Err, &pe):
		// A value that does not parse as its type: "?limit=abc", or an item of "?ids=1&ids=x".
		root := pe
		for {
			next, ok := root.Cause.(*openapi3filter.ParseError)
			if !ok {
				break
			}
			root = next
		}
		path = append(path, pe.Path()...)
		if typ, ok := strings.CutPrefix(root.Reason, "an invalid "); ok {
			m.add(app.IssueInvalidType, fmt.Sprintf("Expected %s, received string", zodTypeName(typ)), path)
			return
		}
		m.add(app.IssueCustom, "Invalid input", path)
	default:
		// Values the decoder gave up on, such as a oneOf parameter that matches no branch.
		m.add(app.IssueCustom, "Invalid input", path)
	}
}

func isSchemaError(err error) bool {
	switch err.(type) {
	case *openapi3.SchemaError, openapi3.MultiError:
		return true
	}
	return false
}

// kin-openapi gives request body errors no type of their own: they are told apart by Reason.
const (
	reasonReadingFailed = "reading failed"
	reasonInvalidCT     = "header Content-Type has unexpected value"
)

func (m *issueMapper) body(e *openapi3filter.RequestError) {
	var pe *openapi3filter.ParseError
	switch {
	case e.Reason == reasonReadingFailed:
		// Typically Echo's body limit (413): keep its *echo.HTTPError reachable.
		m.fail(fmt.Errorf("api: read request body: %w", e.Err))
	case errors.Is(e.Err, openapi3filter.ErrInvalidRequired):
		m.add(app.IssueInvalidType, "Required", []any{})
	case e.Err == nil && strings.HasPrefix(e.Reason, reasonInvalidCT):
		m.add(app.IssueCustom, contentTypeMessage(e.RequestBody), []any{})
	case isSchemaError(e.Err):
		var schema *openapi3.Schema
		if mt := e.RequestBody.Content.Get(m.req.Header.Get("Content-Type")); mt != nil && mt.Schema != nil {
			schema = mt.Schema.Value
		}
		m.schema(e.Err, []any{}, schema)
	case errors.As(e.Err, &pe):
		var le *limitError
		if errors.As(pe.RootCause(), &le) {
			m.add(app.IssueCustom, le.msg, []any{})
			return
		}
		if pe.Kind == openapi3filter.KindUnsupportedFormat {
			m.add(app.IssueCustom, contentTypeMessage(e.RequestBody), []any{})
			return
		}
		m.add(app.IssueCustom, malformedMessage(m.req, pe), []any{})
	case e.Err != nil:
		m.add(app.IssueCustom, "Malformed request body", []any{})
	default:
		m.fail(fmt.Errorf("api: validate request body: %w", e))
	}
}

// contentTypeMessage says which content types the operation accepts.
func contentTypeMessage(body *openapi3.RequestBody) string {
	types := make([]string, 0, len(body.Content))
	for ct := range body.Content {
		types = append(types, ct)
	}
	slices.Sort(types)
	switch len(types) {
	case 0:
		return "Unsupported Content-Type"
	case 1:
		return "Unsupported Content-Type: expected " + types[0]
	}
	return "Unsupported Content-Type: expected one of " + strings.Join(types, ", ")
}

func malformedMessage(r *http.Request, pe *openapi3filter.ParseError) string {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case mediaType == "multipart/form-data":
		reason := pe.Reason
		if reason == "" {
			reason = "invalid body"
		}
		return "Malformed multipart/form-data body: " + reason
	case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
		return "Malformed JSON: " + jsonReason(pe.RootCause())
	}
	return "Malformed request body"
}

var errTrailingJSON = errors.New("unexpected data after the JSON value")

// jsonReason describes a JSON syntax error without quoting the input.
func jsonReason(err error) string {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, errTrailingJSON):
		return errTrailingJSON.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of input"
	case errors.As(err, &se):
		if strings.Contains(se.Error(), "unexpected end") {
			return "unexpected end of input"
		}
		return fmt.Sprintf("unexpected character at position %d", max(se.Offset-1, 0))
	}
	return "invalid JSON"
}
