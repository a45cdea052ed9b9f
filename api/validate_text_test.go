package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// Issue 14: a NUL character, invalid UTF-8 or a number beyond the safe integers answered 500.
func TestValidateTextAndRanges(t *testing.T) {
	t.Parallel()
	const list = "/api/v1/posts"
	q := func(query string) string { return list + "?teamId=" + uuid1 + "&" + query }
	nul := issue("invalid_string", "Must not contain the NUL character")
	at := func(is app.Issue, path ...any) app.Issue { is.Path = path; return is }
	file := formPart{name: "file", filename: "photo.png", content: "\x89PNG"}
	team := formPart{name: "teamId", content: uuid1}
	upload := func(name string, want []app.Issue, parts ...formPart) validateCase {
		body, ct := multipartBody(t, parts...)
		return validateCase{name: name, path: "/api/v1/upload", body: body, contentType: ct, want: want}
	}
	cases := []validateCase{
		{name: "NUL in a body string", body: postBody(t, map[string]any{"title": "a\x00b"}),
			want: []app.Issue{at(nul, "title")}, message: "Validation failed: title: Must not contain the NUL character"},
		{name: "NUL deep in a body", body: postBody(t, map[string]any{"meta": map[string]any{"k": "\x00"}}),
			want: []app.Issue{at(nul, "meta", "k")}},
		{name: "NUL in a body key", body: postBody(t, map[string]any{"meta": map[string]any{"k\x00": "v"}}),
			want: []app.Issue{at(nul, "meta", "k\x00")}},
		{name: "NUL in an array item", body: postBody(t, map[string]any{"data": poll([]any{"yes", "n\x00"}, 60)}),
			want: []app.Issue{at(nul, "data", "TWITTER", "poll", "options", 1)}},
		{name: "escaped backslash is no NUL", body: postBody(t, map[string]any{"title": `\u0000`})},
		{name: "a schema issue comes first", body: postBody(t, map[string]any{"title": "\x00", "name": "x"}),
			want: []app.Issue{issue("too_small", "String must contain at least 3 character(s)", "name")}},
		{name: "NUL in a query value", method: http.MethodGet, path: list, target: q("draft=true&nums=%00"),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "nums", 0)}},
		// Integer parameters that do not fit int64 were already refused by kin-openapi.
		{name: "integer offset beyond int range", method: http.MethodGet, path: list, target: q("offset=99999999999999999999"),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "offset")}},
		{name: "offset beyond float64", method: http.MethodGet, path: list, target: q("offset=1e999")},
		{name: "largest safe integer", method: http.MethodGet, path: list, target: q("offset=9007199254740991")},
		upload("NUL in a multipart field", []app.Issue{at(nul, "alt")}, file, team, formPart{name: "alt", content: "a\x00"}),
		// Go's multipart reader refuses a quoted file name with NUL; an encoded one gets through.
		upload("NUL in a quoted file name", []app.Issue{issue("custom", "Malformed multipart/form-data body: unreadable parts")},
			formPart{name: "file", filename: "a\x00.png", content: "x"}, team),
		{name: "NUL in an encoded file name", path: "/api/v1/upload", contentType: "multipart/form-data; boundary=b",
			body: "--b\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''a%00.png\r\n\r\nxyz\r\n" +
				"--b\r\nContent-Disposition: form-data; name=\"teamId\"\r\n\r\n" + uuid1 + "\r\n--b--\r\n",
			want: []app.Issue{at(nul, "file")}},
		upload("NUL in a file is fine", nil, formPart{name: "file", filename: "a.png", content: "\x00\x00"}, team),
	}
	v := newTestValidator(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.name == "offset beyond float64" {
				// kin-openapi's own answer, whatever it is, stays: only no 500.
				req := httptest.NewRequest(c.method, c.target, nil)
				err := v.Validate(context.Background(), req, c.method, c.path, nil)
				require.Equal(t, app.EInvalid, app.ErrorCode(err), "%v", err)
				return
			}
			runValidateCase(t, v, c)
		})
	}
}

// The same against the contract itself: team and post bodies, the post id, the list's query.
func TestValidateContractTextAndRanges(t *testing.T) {
	t.Parallel()
	doc, err := LoadContract()
	require.NoError(t, err)
	v, err := NewValidator(doc)
	require.NoError(t, err)
	nul := "Must not contain the NUL character"
	cases := []struct {
		name, method, path, target, body string
		params                           map[string]string
		want                             app.Issue
	}{
		{name: "team name", method: http.MethodPost, path: "/api/v1/team", target: "/api/v1/team",
			body: `{"name":"Te\u0000am"}`, want: issue("invalid_string", nul, "name")},
		{name: "post id NUL", method: http.MethodGet, path: "/api/v1/post/{id}", target: "/api/v1/post/%00",
			params: map[string]string{"id": "\x00"}, want: issue("invalid_string", nul, "id")},
		{name: "post id FF", method: http.MethodGet, path: "/api/v1/post/{id}", target: "/api/v1/post/%FF",
			params: map[string]string{"id": "\xff"}, want: issue("invalid_string", "Must be valid UTF-8 text", "id")},
		{name: "query NUL", method: http.MethodGet, path: "/api/v1/post", target: "/api/v1/post?teamId=%00",
			want: issue("invalid_string", nul, "teamId")},
		{name: "query FF", method: http.MethodGet, path: "/api/v1/post", target: "/api/v1/post?teamId=t&q=%FF",
			want: issue("invalid_string", "Must be valid UTF-8 text", "q")},
		{name: "offset", method: http.MethodGet, path: "/api/v1/post", target: "/api/v1/post?teamId=t&offset=99999999999999999999",
			want: issue("too_big", "Number must be less than or equal to 9007199254740991", "offset")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			err := v.Validate(context.Background(), req, c.method, c.path, c.params)
			var ae *app.Error
			require.ErrorAs(t, err, &ae)
			require.Equal(t, []app.Issue{c.want}, ae.Issues)
		})
	}
}

// Bind errors of the generated code and Echo's binder: plain words and an issue, no Go internals.
func TestBodyWordsBindErrors(t *testing.T) {
	t.Parallel()
	_, numErr := strconv.ParseFloat("1e999", 64)
	cases := []struct {
		name string
		err  error
		want app.Issue
	}{
		{"parameter out of range", echo.NewHTTPError(http.StatusBadRequest, "Invalid format for parameter offset: "+numErr.Error()).SetInternal(numErr),
			issue("too_big", "Number is out of range", "offset")},
		{"parameter overflow", echo.NewHTTPError(http.StatusBadRequest, "Invalid format for parameter page: value '1e39' overflows destination of type: float32"),
			issue("too_big", "Number is out of range", "page")},
		{"parameter other", echo.NewHTTPError(http.StatusBadRequest, "Invalid format for parameter id: error binding string parameter"),
			issue("custom", "Invalid input", "id")},
		{"body wrong type", echo.NewHTTPError(http.StatusBadRequest, "Unmarshal type error: expected=float32, got=string, field=poll.durationMinutes, offset=115").
			SetInternal(&json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[float32](), Offset: 115, Field: "poll.durationMinutes"}),
			issue("invalid_type", "Expected number, received string", "poll", "durationMinutes")},
		{"body number beyond type", echo.NewHTTPError(http.StatusBadRequest, "Unmarshal type error").
			SetInternal(&json.UnmarshalTypeError{Value: "number 1e39", Type: reflect.TypeFor[*float32](), Offset: 3, Field: "items.2.x"}),
			issue("too_big", "Number is out of range", "items", 2, "x")},
		{"other decoding failure", echo.NewHTTPError(http.StatusBadRequest, "json: unsupported value").SetInternal(errors.New("json: unsupported value")),
			issue("custom", "Invalid input")},
		{"no message", echo.NewHTTPError(http.StatusBadRequest, ""), issue("custom", "Invalid input")},
		{"a message of its own", echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(errors.New("multipart: NextPart: EOF")),
			issue("custom", "The form could not be read")},
		{"a refusal", echo.NewHTTPError(http.StatusBadRequest, "Validation failed: name: Required").
			SetInternal(app.Invalid("Validation failed: name: Required", issue("invalid_type", "Required", "name"))),
			issue("invalid_type", "Required", "name")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			status, body := Body(c.err, "r1")
			require.Equal(t, http.StatusBadRequest, status)
			require.Equal(t, []app.Issue{c.want}, body.Issues)
			for _, leak := range []string{"float32", "offset=", "Unmarshal", "json:", "strconv", "overflows"} {
				require.NotContains(t, body.Message, leak)
			}
			require.NotEmpty(t, body.Message)
		})
	}
}
