package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// validateTestContract exercises every mapping of Validate. Its global security requirement must
// not matter: authentication is not the validator's job.
const validateTestContract = `
openapi: 3.0.3
info: {title: validate test, version: "1"}
security:
  - apiKey: []
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: x-api-key}
  schemas:
    Email:
      type: object
      additionalProperties: false
      required: [kind, address]
      properties:
        kind: {type: string, enum: [email]}
        address: {type: string, format: email}
    Sms:
      type: object
      additionalProperties: false
      required: [kind, phone]
      properties:
        kind: {type: string, enum: [sms]}
        phone: {type: string, pattern: '^\+[0-9]{6,15}$'}
paths:
  /api/v1/post:
    post:
      operationId: createPost
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [name]
              properties:
                name: {type: string, minLength: 3, maxLength: 80}
                email: {type: string, format: email}
                website: {type: string, format: uri}
                status: {type: string, enum: [DRAFT, SCHEDULED]}
                priority: {type: integer, minimum: 1, maximum: 10}
                note: {type: string, nullable: true}
                title: {type: string}
                publishAt: {type: string, format: date-time}
                step: {type: number, multipleOf: 5}
                ratio: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true}
                slug: {type: string, pattern: '^[a-z0-9-]+$'}
                code: {type: string, minLength: 6, maxLength: 6}
                target:
                  oneOf:
                    - {type: string, format: uuid}
                    - {type: integer, minimum: 1}
                label:
                  anyOf:
                    - {type: string, maxLength: 3}
                    - {type: boolean}
                meta:
                  type: object
                  minProperties: 1
                  maxProperties: 2
                  additionalProperties: {type: string}
                notify:
                  oneOf:
                    - $ref: '#/components/schemas/Email'
                    - $ref: '#/components/schemas/Sms'
                  discriminator:
                    propertyName: kind
                    mapping:
                      email: '#/components/schemas/Email'
                      sms: '#/components/schemas/Sms'
                data:
                  type: object
                  additionalProperties: false
                  properties:
                    TWITTER:
                      type: object
                      additionalProperties: false
                      properties:
                        poll:
                          type: object
                          additionalProperties: false
                          required: [options, durationMinutes]
                          properties:
                            options:
                              type: array
                              minItems: 2
                              maxItems: 4
                              items: {type: string, minLength: 1, maxLength: 25}
                            durationMinutes: {type: integer, minimum: 5, maximum: 10080}
      responses:
        "200": {description: ok}
  /api/v1/posts:
    get:
      operationId: listPosts
      parameters:
        - {name: teamId, in: query, required: true, schema: {type: string, format: uuid}}
        - {name: offset, in: query, schema: {type: integer, minimum: 0}}
        - {name: limit, in: query, schema: {type: integer, minimum: 0, maximum: 100}}
        - {name: status, in: query, schema: {type: string, enum: [DRAFT, SCHEDULED]}}
        - name: ids
          in: query
          style: form
          explode: true
          schema: {type: array, maxItems: 3, items: {type: string, format: uuid}}
        - {name: draft, in: query, schema: {type: boolean}}
        - {name: nums, in: query, schema: {type: array, items: {type: integer}}}
      responses:
        "200": {description: ok}
  /api/v1/post/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
    get:
      operationId: getPost
      responses:
        "200": {description: ok}
    delete:
      operationId: deletePost
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [reason]
              properties:
                reason: {type: string, enum: [spam, duplicate]}
                hard: {type: boolean}
      responses:
        "204": {description: deleted}
  /api/v1/upload:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              additionalProperties: false
              required: [file, teamId]
              properties:
                file: {type: string, format: binary}
                teamId: {type: string, format: uuid}
                alt: {type: string, maxLength: 10}
                count: {type: integer, minimum: 1}
      responses:
        "200": {description: ok}
`

const (
	uuid1 = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
	uuid2 = "0b9f1a0e-4c43-4d8e-9a34-2b7c0d1e5f60"
)

var testValidator = sync.OnceValues(func() (*Validator, error) {
	doc, err := openapi3.NewLoader().LoadFromData([]byte(validateTestContract))
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	return NewValidator(doc)
})

func newTestValidator(t *testing.T) *Validator {
	t.Helper()
	v, err := testValidator()
	require.NoError(t, err)
	return v
}

func issue(code, message string, path ...any) app.Issue {
	if path == nil {
		path = []any{}
	}
	return app.Issue{Code: code, Message: message, Path: path}
}

// absent removes a key in postBody.
var absent = &struct{}{}

// postBody is a valid createPost body with changes applied.
func postBody(t *testing.T, changes map[string]any) string {
	t.Helper()
	body := map[string]any{
		"name":      "Launch day",
		"email":     "ada@example.com",
		"website":   "https://example.com/launch",
		"status":    "DRAFT",
		"priority":  3,
		"note":      nil,
		"title":     "Hello",
		"publishAt": "2024-05-01T10:00:00Z",
		"step":      10,
		"ratio":     0.5,
		"slug":      "launch-day",
		"code":      "ABC123",
		"target":    7,
		"label":     "abc",
		"meta":      map[string]any{"k": "v"},
		"notify":    map[string]any{"kind": "email", "address": "ada@example.com"},
		"data": map[string]any{"TWITTER": map[string]any{"poll": map[string]any{
			"options": []any{"yes", "no"}, "durationMinutes": 60,
		}}},
	}
	for k, v := range changes {
		if v == absent {
			delete(body, k)
			continue
		}
		body[k] = v
	}
	data, err := json.Marshal(body)
	require.NoError(t, err)
	return string(data)
}

func poll(options []any, duration any) map[string]any {
	p := map[string]any{"options": options}
	if duration != nil {
		p["durationMinutes"] = duration
	}
	return map[string]any{"TWITTER": map[string]any{"poll": p}}
}

type validateCase struct {
	name        string
	method      string // default POST
	path        string // contract path; default /api/v1/post
	target      string // request URL; default path
	params      map[string]string
	contentType string // default application/json when body is set
	noCT        bool   // send no Content-Type
	body        string
	want        []app.Issue // nil: valid
	message     string      // app.Error message, when checked
}

func runValidateCase(t *testing.T, v *Validator, c validateCase) {
	t.Helper()
	method, path, target := c.method, c.path, c.target
	if method == "" {
		method = http.MethodPost
	}
	if path == "" {
		path = "/api/v1/post"
	}
	if target == "" {
		target = path
	}
	req := httptest.NewRequest(method, target, strings.NewReader(c.body))
	switch {
	case c.noCT:
	case c.contentType != "":
		req.Header.Set("Content-Type", c.contentType)
	case c.body != "":
		req.Header.Set("Content-Type", "application/json")
	}
	err := v.Validate(context.Background(), req, method, path, c.params)
	if c.want == nil {
		require.NoError(t, err)
	} else {
		var ae *app.Error
		require.ErrorAs(t, err, &ae)
		require.Equal(t, app.EInvalid, ae.Code)
		require.Equal(t, c.want, ae.Issues)
		if c.message != "" {
			require.Equal(t, c.message, ae.Message)
		}
	}
	// Whatever the outcome, the handler can still read the whole body.
	rest, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	require.Equal(t, c.body, string(rest))
}

func TestValidateJSONBody(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 81)
	option26 := strings.Repeat("o", 26)
	opts := []any{"TWITTER", "poll", "options"}
	at := func(p ...any) []any { return append([]any{"data"}, p...) }
	cases := []validateCase{
		{name: "valid", body: postBody(t, nil)},
		{name: "valid minimal", body: `{"name":"abc"}`},
		{name: "valid with charset and offset date-time", contentType: "application/json; charset=utf-8",
			body: postBody(t, map[string]any{"publishAt": "2024-05-01T10:00:00.123+02:00", "target": uuid1, "label": true})},
		{name: "missing required", body: postBody(t, map[string]any{"name": absent}),
			want: []app.Issue{issue("invalid_type", "Required", "name")}, message: "Validation failed: name: Required"},
		{name: "wrong type", body: postBody(t, map[string]any{"name": 12}),
			want: []app.Issue{issue("invalid_type", "Expected string, received number", "name")}},
		{name: "wrong type object", body: postBody(t, map[string]any{"title": map[string]any{}}),
			want: []app.Issue{issue("invalid_type", "Expected string, received object", "title")}},
		{name: "null not nullable", body: postBody(t, map[string]any{"title": nil}),
			want: []app.Issue{issue("invalid_type", "Expected string, received null", "title")}},
		{name: "too short", body: postBody(t, map[string]any{"name": "ab"}),
			want: []app.Issue{issue("too_small", "String must contain at least 3 character(s)", "name")}},
		{name: "too long", body: postBody(t, map[string]any{"name": long}),
			want: []app.Issue{issue("too_big", "String must contain at most 80 character(s)", "name")}},
		{name: "exact length", body: postBody(t, map[string]any{"code": "ABC"}),
			want: []app.Issue{issue("too_small", "String must contain exactly 6 character(s)", "code")}},
		{name: "email", body: postBody(t, map[string]any{"email": "ada.example.com"}),
			want: []app.Issue{issue("invalid_string", "Invalid email", "email")}},
		{name: "url", body: postBody(t, map[string]any{"website": "example.com/launch"}),
			want: []app.Issue{issue("invalid_string", "Invalid url", "website")}},
		{name: "enum", body: postBody(t, map[string]any{"status": "PUBLISHED"}),
			want: []app.Issue{issue("invalid_enum_value", "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received 'PUBLISHED'", "status")}},
		{name: "enum wrong type", body: postBody(t, map[string]any{"status": 3}),
			want: []app.Issue{issue("invalid_type", "Expected 'DRAFT' | 'SCHEDULED', received number", "status")}},
		{name: "minimum", body: postBody(t, map[string]any{"priority": 0}),
			want: []app.Issue{issue("too_small", "Number must be greater than or equal to 1", "priority")}},
		{name: "maximum", body: postBody(t, map[string]any{"priority": 11}),
			want: []app.Issue{issue("too_big", "Number must be less than or equal to 10", "priority")}},
		{name: "not an integer", body: postBody(t, map[string]any{"priority": 2.5}),
			want: []app.Issue{issue("invalid_type", "Expected integer, received float", "priority")}},
		{name: "integer as string", body: postBody(t, map[string]any{"priority": "3"}),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "priority")}},
		{name: "exclusive minimum", body: postBody(t, map[string]any{"ratio": 0}),
			want: []app.Issue{issue("too_small", "Number must be greater than 0", "ratio")}},
		{name: "exclusive maximum", body: postBody(t, map[string]any{"ratio": 1}),
			want: []app.Issue{issue("too_big", "Number must be less than 1", "ratio")}},
		{name: "multipleOf", body: postBody(t, map[string]any{"step": 7}),
			want: []app.Issue{issue("not_multiple_of", "Number must be a multiple of 5", "step")}},
		{name: "date-time", body: postBody(t, map[string]any{"publishAt": "tomorrow at noon"}),
			want: []app.Issue{issue("invalid_string", "Invalid datetime", "publishAt")}},
		{name: "date-time that does not parse", body: postBody(t, map[string]any{"publishAt": "2024-02-30T10:00:00Z"}),
			want: []app.Issue{issue("invalid_string", "Invalid datetime", "publishAt")}},
		{name: "pattern", body: postBody(t, map[string]any{"slug": "Launch Day"}),
			want: []app.Issue{issue("invalid_string", "Invalid", "slug")}},
		{name: "oneOf", body: postBody(t, map[string]any{"target": "not-a-uuid"}),
			want: []app.Issue{issue("invalid_union", "Invalid input", "target")}},
		{name: "anyOf", body: postBody(t, map[string]any{"label": 12}),
			want: []app.Issue{issue("invalid_union", "Invalid input", "label")}},
		{name: "discriminator value", body: postBody(t, map[string]any{"notify": map[string]any{"kind": "fax"}}),
			want: []app.Issue{issue("invalid_union_discriminator", "Invalid discriminator value. Expected 'email' | 'sms'", "notify", "kind")}},
		{name: "discriminated option", body: postBody(t, map[string]any{"notify": map[string]any{"kind": "sms", "phone": "12", "extra": 1}}),
			want: []app.Issue{
				issue("unrecognized_keys", "Unrecognized key(s) in object: 'extra'", "notify"),
				issue("invalid_string", "Invalid", "notify", "phone"),
			}},
		{name: "minProperties", body: postBody(t, map[string]any{"meta": map[string]any{}}),
			want: []app.Issue{issue("too_small", "Object must contain at least 1 key(s)", "meta")}},
		{name: "maxProperties", body: postBody(t, map[string]any{"meta": map[string]any{"a": "1", "b": "2", "c": "3"}}),
			want: []app.Issue{issue("too_big", "Object must contain at most 2 key(s)", "meta")}},
		{name: "digit key stays a string", body: postBody(t, map[string]any{"meta": map[string]any{"1": 5}}),
			want: []app.Issue{issue("invalid_type", "Expected string, received number", "meta", "1")}},
		{name: "unrecognized keys, one issue per object", body: postBody(t, map[string]any{"foo": 1, "bar": true}),
			want: []app.Issue{issue("unrecognized_keys", "Unrecognized key(s) in object: 'bar', 'foo'")}},
		{name: "nested unrecognized key", body: postBody(t, map[string]any{"data": map[string]any{"TWITTER": map[string]any{"extra": 1}}}),
			want: []app.Issue{issue("unrecognized_keys", "Unrecognized key(s) in object: 'extra'", "data", "TWITTER")}},
		{name: "minItems", body: postBody(t, map[string]any{"data": poll([]any{"only"}, 60)}),
			want: []app.Issue{issue("too_small", "Array must contain at least 2 element(s)", at(opts...)...)}},
		{name: "maxItems", body: postBody(t, map[string]any{"data": poll([]any{"a", "b", "c", "d", "e"}, 60)}),
			want: []app.Issue{issue("too_big", "Array must contain at most 4 element(s)", at(opts...)...)}},
		{name: "index path", body: postBody(t, map[string]any{"data": poll([]any{"a", "b", option26}, 60)}),
			want:    []app.Issue{issue("too_big", "String must contain at most 25 character(s)", "data", "TWITTER", "poll", "options", 2)},
			message: "Validation failed: data.TWITTER.poll.options.2: String must contain at most 25 character(s)"},
		{name: "empty option", body: postBody(t, map[string]any{"data": poll([]any{"a", ""}, 60)}),
			want: []app.Issue{issue("too_small", "String must contain at least 1 character(s)", "data", "TWITTER", "poll", "options", 1)}},
		{name: "option of wrong type", body: postBody(t, map[string]any{"data": poll([]any{"a", 2}, 60)}),
			want: []app.Issue{issue("invalid_type", "Expected string, received number", "data", "TWITTER", "poll", "options", 1)}},
		{name: "duration too small", body: postBody(t, map[string]any{"data": poll([]any{"a", "b"}, 4)}),
			want: []app.Issue{issue("too_small", "Number must be greater than or equal to 5", "data", "TWITTER", "poll", "durationMinutes")}},
		{name: "duration too big", body: postBody(t, map[string]any{"data": poll([]any{"a", "b"}, 10081)}),
			want: []app.Issue{issue("too_big", "Number must be less than or equal to 10080", "data", "TWITTER", "poll", "durationMinutes")}},
		{name: "duration missing", body: postBody(t, map[string]any{"data": poll([]any{"a", "b"}, nil)}),
			want: []app.Issue{issue("invalid_type", "Required", "data", "TWITTER", "poll", "durationMinutes")}},
		{name: "every issue at once", body: postBody(t, map[string]any{
			"name": "ab", "email": "nope", "status": "NOPE", "foo": true, "priority": 2.5,
			"data": poll([]any{"a", option26, ""}, 1),
		}),
			want: []app.Issue{
				issue("unrecognized_keys", "Unrecognized key(s) in object: 'foo'"),
				issue("too_small", "Number must be greater than or equal to 5", "data", "TWITTER", "poll", "durationMinutes"),
				issue("too_big", "String must contain at most 25 character(s)", "data", "TWITTER", "poll", "options", 1),
				issue("too_small", "String must contain at least 1 character(s)", "data", "TWITTER", "poll", "options", 2),
				issue("invalid_string", "Invalid email", "email"),
				issue("too_small", "String must contain at least 3 character(s)", "name"),
				issue("invalid_type", "Expected integer, received float", "priority"),
				issue("invalid_enum_value", "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received 'NOPE'", "status"),
			},
			message: "Validation failed: Unrecognized key(s) in object: 'foo' (and 7 more)"},
		{name: "not an object", body: `[]`,
			want: []app.Issue{issue("invalid_type", "Expected object, received array")}},
		{name: "missing body", body: "",
			want: []app.Issue{issue("invalid_type", "Required")}, message: "Validation failed: Required"},
		{name: "truncated JSON", body: `{"name":`,
			want: []app.Issue{issue("custom", "Malformed JSON: unexpected end of input")}},
		{name: "bad character", body: `{"name":"abc",}`,
			want: []app.Issue{issue("custom", "Malformed JSON: unexpected character at position 14")}},
		{name: "data after the value", body: `{"name":"abc"} {}`,
			want: []app.Issue{issue("custom", "Malformed JSON: unexpected data after the JSON value")}},
		{name: "wrong content type", contentType: "text/plain", body: `{"name":"abc"}`,
			want: []app.Issue{issue("custom", "Unsupported Content-Type: expected application/json")}},
		{name: "no content type", noCT: true, body: `{"name":"abc"}`,
			want: []app.Issue{issue("custom", "Unsupported Content-Type: expected application/json")}},
	}
	v := newTestValidator(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runValidateCase(t, v, c)
		})
	}
}
