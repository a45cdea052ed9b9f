package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/crier/crier/app"
)

// Validator validates requests against the contract.
//
// It runs kin-openapi's openapi3filter.ValidateRequest on the operation the router already
// matched and turns every problem it reports into a zod-style app.Issue: the API promises the
// error body of the original (zod-validated) service, so codes, messages and paths follow zod v3.
// Messages are written here, never copied from kin-openapi, so they do not echo input values
// (except the received value of invalid_enum_value, which zod's phrasing includes).
//
// A Validator is safe for concurrent use.
type Validator struct {
	doc     *openapi3.T
	routes  map[string]*routers.Route // "METHOD /templated/path"
	options *openapi3filter.Options
}

var registerBodyDecoders sync.Once

// NewValidator prepares a validator for doc, which must have passed doc.Validate. Only OpenAPI
// 3.0 documents are accepted: the 3.1 validator of kin-openapi reports opaque errors, with values
// in their messages, that cannot be mapped to zod issues.
//
// It registers, process-wide, the openapi3filter body decoders for application/json (kin-openapi's,
// but rejecting data after the JSON value, as JSON.parse does) and multipart/form-data (one that
// skips over file parts instead of copying them into strings).
func NewValidator(doc *openapi3.T) (*Validator, error) {
	if doc == nil || doc.Paths == nil {
		return nil, errors.New("api: validator: the contract has no paths")
	}
	if doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("api: validator: the contract must be OpenAPI 3.0, not %s", doc.OpenAPI)
	}
	registerBodyDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder("application/json", decodeJSONBody)
		openapi3filter.RegisterBodyDecoder("multipart/form-data", decodeMultipartBody)
	})
	v := &Validator{doc: doc, routes: map[string]*routers.Route{}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			v.routes[method+" "+path] = newRoute(doc, path, item, method, op)
		}
	}
	v.options = &openapi3filter.Options{
		MultiError: true,
		// Authentication is the guard's job. The security requirements are also removed from the
		// routes (see newRoute), which keeps kin-openapi from buffering the body a second time.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		// Validation only checks: it does not write defaults into the query or the body.
		SkipSettingDefaults: true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.DisableSchemaErrorDetails(),
			openapi3.WithStringFormatValidators(stringFormats),
		},
	}
	return v, nil
}

// newRoute builds the route kin-openapi validates against, for an operation whose security
// requirements are dropped (an empty list means "no requirement").
func newRoute(doc *openapi3.T, path string, item *openapi3.PathItem, method string, op *openapi3.Operation) *routers.Route {
	unsecured := *op
	unsecured.Security = &openapi3.SecurityRequirements{}
	return &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: &unsecured}
}

// Validate checks r (its path params already extracted by the router, given in pathParams, keyed by
// the OpenAPI parameter name) against the operation at (method, openapiPath) — openapiPath is the
// contract's templated path like "/api/v1/post/{id}". It returns nil or an *app.Error with Code
// app.EInvalid whose Issues list every problem found, ordered by path. The request body stays
// readable by the handler afterwards: kin-openapi buffers it and puts it back in r.Body.
//
// An unknown operation, or a body that could not be read (such as one over Echo's body limit, whose
// *echo.HTTPError stays reachable with errors.As), gives an error that is not EInvalid.
func (v *Validator) Validate(ctx context.Context, r *http.Request, method, openapiPath string, pathParams map[string]string) error {
	route, err := v.route(method, openapiPath)
	if err != nil {
		return err
	}
	input := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: pathParams,
		Route:      route,
		Options:    v.options,
	}
	verr := openapi3filter.ValidateRequest(ctx, input)
	if verr == nil {
		return nil
	}
	m := &issueMapper{req: r, unrecognized: map[string]*unrecognized{}}
	m.request(verr)
	if m.fatal != nil {
		return m.fatal
	}
	if len(m.issues) == 0 {
		return fmt.Errorf("api: validate %s %s: no issue found in %T", method, openapiPath, verr)
	}
	issues := sortIssues(m.issues)
	return app.Invalid(summary(issues), issues...)
}

func (v *Validator) route(method, openapiPath string) (*routers.Route, error) {
	method = strings.ToUpper(method)
	if route, ok := v.routes[method+" "+openapiPath]; ok {
		return route, nil
	}
	// Not spelled as in the contract (say, another name for a path parameter).
	if item := v.doc.Paths.Find(openapiPath); item != nil {
		if op := item.GetOperation(method); op != nil {
			return newRoute(v.doc, openapiPath, item, method, op), nil
		}
	}
	return nil, fmt.Errorf("api: validate: the contract has no operation %s %s", method, openapiPath)
}

// summary is the app.Error message: the first issue, and how many follow.
func summary(issues []app.Issue) string {
	first := issues[0]
	msg := "Validation failed: "
	if len(first.Path) > 0 {
		msg += dottedPath(first.Path) + ": "
	}
	msg += first.Message
	if n := len(issues) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

func dottedPath(path []any) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, ".")
}

// sortIssues orders issues by path (indexes numerically, before keys), then code and message,
// dropping duplicates.
func sortIssues(issues []app.Issue) []app.Issue {
	slices.SortStableFunc(issues, func(a, b app.Issue) int {
		if c := comparePaths(a.Path, b.Path); c != 0 {
			return c
		}
		if c := strings.Compare(a.Code, b.Code); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.CompactFunc(issues, func(a, b app.Issue) bool {
		return a.Code == b.Code && a.Message == b.Message && comparePaths(a.Path, b.Path) == 0
	})
}

func comparePaths(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ai, aInt := a[i].(int)
		bi, bInt := b[i].(int)
		switch {
		case aInt && bInt:
			if c := cmp.Compare(ai, bi); c != 0 {
				return c
			}
		case aInt:
			return -1
		case bInt:
			return 1
		default:
			if c := strings.Compare(fmt.Sprint(a[i]), fmt.Sprint(b[i])); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}

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
	issue int // index in issues
	keys  []string
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
		m.unrecognizedKeys(path, unknownKeys(s, e.Value)...)
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
	id := fmt.Sprintf("%#v", path)
	u := m.unrecognized[id]
	if u == nil {
		m.add(app.IssueUnrecognizedKeys, "", path)
		u = &unrecognized{issue: len(m.issues) - 1}
		m.unrecognized[id] = u
	}
	for _, k := range keys {
		if !slices.Contains(u.keys, k) {
			u.keys = append(u.keys, k)
		}
	}
	slices.Sort(u.keys)
	quoted := make([]any, len(u.keys))
	for i, k := range u.keys {
		quoted[i] = k
	}
	m.issues[u.issue].Message = "Unrecognized key(s) in object: " + joinValues(quoted, ", ")
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

// formatCheck names zod's string check for each OpenAPI format, as in "Invalid email".
var formatCheck = map[string]string{
	"email":     "email",
	"uri":       "url",
	"url":       "url",
	"uuid":      "uuid",
	"date-time": "datetime",
	"date":      "date",
	"time":      "time",
	"ipv4":      "ip",
	"ipv6":      "ip",
	"ip":        "ip",
	"byte":      "base64",
	"cuid":      "cuid",
	"cuid2":     "cuid2",
	"ulid":      "ulid",
}

// zod v3's checks. kin-openapi validates only byte, date and date-time by default.
var (
	emailRE = regexp.MustCompile(`(?i)^[A-Z0-9_'+\-.]*[A-Z0-9_+\-]@([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$`)
	uuidRE  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	// RFC 3339 with an upper-case T and Z, as kin-openapi's own date-time format.
	dateTimeRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)
	dateRE     = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	timeRE     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]+)?)?$`)
	cuidRE     = regexp.MustCompile(`(?i)^c[^\s-]{8,}$`)
	cuid2RE    = regexp.MustCompile(`^[0-9a-z]+$`)
	ulidRE     = regexp.MustCompile(`(?i)^[0-9A-HJKMNP-TV-Z]{26}$`)

	jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

var errFormat = errors.New("invalid format")

func check(ok bool) error {
	if ok {
		return nil
	}
	return errFormat
}

func regexpFormat(re *regexp.Regexp) openapi3.StringFormatValidator {
	return openapi3.NewCallbackValidator(func(s string) error { return check(re.MatchString(s)) })
}

var stringFormats = map[string]openapi3.StringFormatValidator{
	"email": openapi3.NewCallbackValidator(func(s string) error {
		return check(!strings.HasPrefix(s, ".") && !strings.Contains(s, "..") && emailRE.MatchString(s))
	}),
	"uri":  openapi3.NewCallbackValidator(validURL),
	"url":  openapi3.NewCallbackValidator(validURL),
	"uuid": regexpFormat(uuidRE),
	"date-time": openapi3.NewCallbackValidator(func(s string) error {
		if !dateTimeRE.MatchString(s) {
			return errFormat
		}
		_, err := time.Parse(time.RFC3339Nano, s) // rejects 2024-02-30 and 25:00
		return check(err == nil)
	}),
	"date": openapi3.NewCallbackValidator(func(s string) error {
		if !dateRE.MatchString(s) {
			return errFormat
		}
		_, err := time.Parse(time.DateOnly, s)
		return check(err == nil)
	}),
	"time": regexpFormat(timeRE),
	"ipv4": openapi3.NewCallbackValidator(func(s string) error {
		a, err := netip.ParseAddr(s)
		return check(err == nil && a.Is4())
	}),
	"ipv6": openapi3.NewCallbackValidator(func(s string) error {
		a, err := netip.ParseAddr(s)
		return check(err == nil && a.Is6())
	}),
	"ip": openapi3.NewCallbackValidator(func(s string) error {
		_, err := netip.ParseAddr(s)
		return check(err == nil)
	}),
	"cuid":  regexpFormat(cuidRE),
	"cuid2": regexpFormat(cuid2RE),
	"ulid":  regexpFormat(ulidRE),
}

// validURL approximates zod's url check, `new URL(s)`: an absolute URL.
func validURL(s string) error {
	u, err := url.Parse(s)
	return check(err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != ""))
}

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

// decodeJSONBody is openapi3filter.JSONBodyDecoder that also rejects data after the JSON value.
func decodeJSONBody(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: errTrailingJSON}
	}
	return value, nil
}

// decodeMultipartBody decodes a multipart/form-data body into the object its schema describes.
// Unlike openapi3filter.MultipartBodyDecoder it does not copy file parts (format: binary, or parts
// with a file name that the schema does not declare) into strings: it reads past them and puts a
// one-byte placeholder in their place, "" for an empty file: size limits on files are the
// handler's, minLength/maxLength on a binary part mean nothing here. Undeclared parts are kept,
// so that additionalProperties: false reports them as unrecognized keys, and text fields that do
// not parse as their type stay strings, so that they are reported as invalid_type.
func decodeMultipartBody(body io.Reader, header http.Header, schema *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	_, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Reason: "missing boundary", Cause: err}
	}
	var s *openapi3.Schema
	if schema != nil {
		s = schema.Value
	}
	malformed := func(err error) error {
		return &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Reason: "unreadable parts", Cause: err}
	}
	obj := map[string]any{}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, malformed(err)
		}
		name := part.FormName()
		if name == "" {
			continue // NextPart skips what is left of it
		}
		prop := propertyOf(s, name)
		item, many := prop, prop != nil && isArraySchema(prop)
		if many {
			item = itemsOf(prop)
		}
		var value any
		if isBinarySchema(item) || (item == nil && part.FileName() != "") {
			n, err := io.Copy(io.Discard, part)
			if err != nil {
				return nil, malformed(err)
			}
			value = ""
			if n > 0 {
				value = binaryPlaceholder
			}
		} else {
			data, err := io.ReadAll(part)
			if err != nil {
				return nil, malformed(err)
			}
			value = formValue(string(data), item, part.Header.Get("Content-Type"))
		}
		if many {
			list, _ := obj[name].([]any)
			obj[name] = append(list, value)
		} else if _, seen := obj[name]; !seen {
			obj[name] = value
		}
	}
	return obj, nil
}

// binaryPlaceholder stands for the content of a non-empty file part.
const binaryPlaceholder = "\x00"

func isBinarySchema(s *openapi3.Schema) bool {
	return s != nil && s.Type.Permits(openapi3.TypeString) && s.Format == "binary"
}

// formValue gives a text part the type its schema declares, when it parses as such.
func formValue(raw string, s *openapi3.Schema, contentType string) any {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") ||
		(s != nil && (s.Type.Is(openapi3.TypeObject) || s.Type.Is(openapi3.TypeArray))) {
		var v any
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err == nil {
			return v
		}
		return raw
	}
	if s == nil {
		return raw
	}
	for _, t := range s.Type.Slice() {
		switch t {
		case openapi3.TypeInteger, openapi3.TypeNumber:
			if jsonNumberRE.MatchString(raw) {
				return json.Number(raw)
			}
		case openapi3.TypeBoolean:
			if b, err := strconv.ParseBool(raw); err == nil {
				return b
			}
		case openapi3.TypeString:
			return raw
		}
	}
	return raw
}
