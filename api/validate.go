package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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
	// pathOnly are the routes whose only inputs are plain string path parameters (GET post, team,
	// …): no body, no query, header or cookie parameter, no constraint on the strings.
	pathOnly map[*routers.Route]bool
	// passed are the routes taking path and query parameters only, with the inputs that passed
	// (validate_passed.go)
	passed map[*routers.Route]*passedInputs
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
	applyTextLimits(doc)
	v := &Validator{doc: doc, routes: map[string]*routers.Route{}, pathOnly: map[*routers.Route]bool{}, passed: map[*routers.Route]*passedInputs{}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			route := newRoute(doc, path, item, method, op)
			v.routes[method+" "+path] = route
			v.pathOnly[route] = takesPathStringsOnly(route)
			if takesPathAndQueryOnly(route) {
				v.passed[route] = &passedInputs{seen: map[string]struct{}{}}
			}
		}
	}
	v.options = &openapi3filter.Options{
		MultiError: true,
		// Authentication is the guard's job. The security requirements are also removed from the
		// routes (see newRoute), which keeps kin-openapi from buffering the body a second time.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		// Validation only checks: it does not write defaults into the query or the body.
		SkipSettingDefaults: true,
		// Validate takes the decoded body to look for NUL characters (see textIssues).
		KeepValidatedValue: true,
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
	return v.validate(ctx, r, route, pathParams)
}

// Route answers the route Validate checks (method, openapiPath) against, for ValidateRoute: a
// caller that knows its operation looks it up once, not per request.
func (v *Validator) Route(method, openapiPath string) (*routers.Route, error) {
	return v.route(method, openapiPath)
}

// ValidateRoute is Validate for a route that Route answered.
func (v *Validator) ValidateRoute(ctx context.Context, r *http.Request, route *routers.Route, pathParams map[string]string) error {
	return v.validate(ctx, r, route, pathParams)
}

func (v *Validator) validate(ctx context.Context, r *http.Request, route *routers.Route, pathParams map[string]string) error {
	if v.pathOnly[route] && r.URL.RawQuery == "" && plainPathValues(pathParams) {
		return nil // what kin-openapi and textIssues would find nothing in (TestPathOnlyShortcut)
	}
	passed := v.passed[route]
	if passed == nil {
		return v.validateFully(ctx, r, route, pathParams)
	}
	key := inputsKey(r.URL.RawQuery, pathParams)
	if passed.has(key) {
		return nil
	}
	err := v.validateFully(ctx, r, route, pathParams)
	if err == nil {
		passed.add(key)
	}
	return err
}

func (v *Validator) validateFully(ctx context.Context, r *http.Request, route *routers.Route, pathParams map[string]string) error {
	method, openapiPath := route.Method, route.Path
	input := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: pathParams,
		Route:      route,
		Options:    v.options,
	}
	verr := openapi3filter.ValidateRequest(ctx, input)
	if verr == nil {
		issues := textIssues(r, route, pathParams, takeValidatedValue(r))
		if len(issues) == 0 {
			return nil
		}
		issues = capIssues(sortIssues(issues))
		return app.Invalid(summary(issues), issues...)
	}
	m := &issueMapper{req: r, unrecognized: map[string]*unrecognized{}}
	m.request(verr)
	m.finishUnrecognized()
	if m.fatal != nil {
		return m.fatal
	}
	if len(m.issues) == 0 {
		return fmt.Errorf("api: validate %s %s: no issue found in %T", method, openapiPath, verr)
	}
	issues := capIssues(sortIssues(m.issues))
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

// takesPathStringsOnly answers whether the route's only inputs are path parameters of a plain string
// schema: no body, no other parameter, no format, pattern, length, enum or composition. A request
// to it without a query, whose path values are non-empty valid UTF-8 without NUL, has nothing the
// contract check could refuse (kin-openapi checks a path string's schema, textIssues its NULs and
// UTF-8), so validate answers it at once: about 3 % of GET post's CPU went to finding that.
func takesPathStringsOnly(route *routers.Route) bool {
	if route.Operation.RequestBody != nil {
		return false
	}
	params := parametersOf(route)
	for _, p := range params {
		if p.In != openapi3.ParameterInPath || p.Content != nil || p.Schema == nil || p.Schema.Value == nil {
			return false
		}
		s := p.Schema.Value
		if !s.Type.Is(openapi3.TypeString) || s.Format != "" || s.Pattern != "" || len(s.Enum) > 0 || s.MinLength != 0 ||
			s.MaxLength != nil || s.Not != nil || len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0 || s.Nullable || s.Extensions != nil && len(s.Extensions) > 0 {
			return false
		}
	}
	return len(params) > 0
}

// plainPathValues answers whether every path value is non-empty valid UTF-8 without NUL.
func plainPathValues(params map[string]string) bool {
	for _, v := range params {
		if v == "" || strings.IndexByte(v, 0) >= 0 || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}
