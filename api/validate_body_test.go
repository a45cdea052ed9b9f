package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

type formPart struct {
	name, filename, content string
}

func multipartBody(t *testing.T, parts ...formPart) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		var (
			pw  io.Writer
			err error
		)
		if p.filename != "" {
			pw, err = w.CreateFormFile(p.name, p.filename)
		} else {
			pw, err = w.CreateFormField(p.name)
		}
		require.NoError(t, err)
		_, err = io.WriteString(pw, p.content)
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return buf.String(), w.FormDataContentType()
}

func TestValidateMultipart(t *testing.T) {
	t.Parallel()
	file := formPart{name: "file", filename: "photo.png", content: "\x89PNG" + strings.Repeat("\x00\xff", 64<<10)}
	team := formPart{name: "teamId", content: uuid1}
	upload := func(name string, want []app.Issue, parts ...formPart) validateCase {
		body, ct := multipartBody(t, parts...)
		return validateCase{name: name, path: "/api/v1/upload", body: body, contentType: ct, want: want}
	}
	cases := []validateCase{
		upload("valid", nil, file, team, formPart{name: "alt", content: "a cat"}, formPart{name: "count", content: "2"}),
		upload("valid empty file", nil, formPart{name: "file", filename: "empty.txt"}, team),
		upload("missing file", []app.Issue{issue("invalid_type", "Required", "file")}, team),
		upload("missing everything", []app.Issue{
			issue("invalid_type", "Required", "file"),
			issue("invalid_type", "Required", "teamId"),
		}),
		upload("unknown part", []app.Issue{issue("unrecognized_keys", "Unrecognized key(s) in object: 'other', 'x'")},
			file, team, formPart{name: "x", content: "1"}, formPart{name: "other", filename: "a.bin", content: "zz"}),
		upload("field format", []app.Issue{issue("invalid_string", "Invalid uuid", "teamId")},
			file, formPart{name: "teamId", content: "team-1"}),
		upload("field too long", []app.Issue{issue("too_big", "String must contain at most 10 character(s)", "alt")},
			file, team, formPart{name: "alt", content: "a very long description"}),
		upload("field not a number", []app.Issue{issue("invalid_type", "Expected number, received string", "count")},
			file, team, formPart{name: "count", content: "NaN"}),
		upload("field too small", []app.Issue{issue("too_small", "Number must be greater than or equal to 1", "count")},
			file, team, formPart{name: "count", content: "0"}),
		{name: "no boundary", path: "/api/v1/upload", contentType: "multipart/form-data", body: "--x\r\n",
			want: []app.Issue{issue("custom", "Malformed multipart/form-data body: missing boundary")}},
		{name: "broken parts", path: "/api/v1/upload", contentType: "multipart/form-data; boundary=b",
			body: "--b\r\nContent-Disposition: form-data; name=\"teamId\"\r\n\r\n" + uuid1,
			want: []app.Issue{issue("custom", "Malformed multipart/form-data body: unreadable parts")}},
		{name: "JSON instead", path: "/api/v1/upload", body: `{"teamId":"` + uuid1 + `"}`,
			want: []app.Issue{issue("custom", "Unsupported Content-Type: expected multipart/form-data")}},
	}
	v := newTestValidator(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runValidateCase(t, v, c)
		})
	}
}

// The handler reads uploads as the generated strict server does, with MultipartReader.
func TestValidateMultipartStaysReadable(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	content := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	body, ct := multipartBody(t, formPart{name: "teamId", content: uuid1}, formPart{name: "file", filename: "big.bin", content: content})
	req := httptest.NewRequest(http.MethodPost, "/api/v1/upload", strings.NewReader(body))
	req.Header.Set("Content-Type", ct)
	require.NoError(t, v.Validate(context.Background(), req, http.MethodPost, "/api/v1/upload", nil))

	mr, err := req.MultipartReader()
	require.NoError(t, err)
	got := map[string]string{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(part)
		require.NoError(t, err)
		got[part.FormName()] = string(data)
	}
	require.Equal(t, map[string]string{"teamId": uuid1, "file": content}, got)
}

func TestValidateBodyStaysReadable(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	body := postBody(t, nil)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/post", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	require.NoError(t, v.Validate(context.Background(), req, http.MethodPost, "/api/v1/post", nil))

	var decoded map[string]any
	require.NoError(t, json.NewDecoder(req.Body).Decode(&decoded))
	require.Equal(t, "Launch day", decoded["name"])
	// Nothing was written into the body: defaults are not set.
	require.Nil(t, decoded["note"])
}

func TestValidateUnknownOperation(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/nope"},
		{http.MethodPatch, "/api/v1/post"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		err := v.Validate(context.Background(), req, c.method, c.path, nil)
		require.Error(t, err)
		require.NotEqual(t, app.EInvalid, app.ErrorCode(err))
	}
}

var errBrokenBody = errors.New("body limit exceeded")

type brokenReader struct{}

func (brokenReader) Read([]byte) (int, error) { return 0, errBrokenBody }

// A body that cannot be read (Echo's body limit) is not a validation issue: its error goes through.
func TestValidateUnreadableBody(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/post", io.NopCloser(brokenReader{}))
	req.Header.Set("Content-Type", "application/json")
	err := v.Validate(context.Background(), req, http.MethodPost, "/api/v1/post", nil)
	require.ErrorIs(t, err, errBrokenBody)
	require.NotEqual(t, app.EInvalid, app.ErrorCode(err))
}

// Messages are the mapping's own: kin-openapi's, which can quote the schema and the value, never
// show through, and values are not echoed (but for the enum's "received").
func TestValidateDoesNotLeakValues(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	const secret = "sk_live_supersecret"
	cases := []validateCase{
		{body: postBody(t, map[string]any{"name": secret + strings.Repeat("x", 80), "email": secret, "priority": secret})},
		{method: http.MethodGet, path: "/api/v1/posts", target: "/api/v1/posts?teamId=" + secret + "&limit=" + secret + "&ids=" + secret},
		{body: `{"name":"` + secret + `",` + secret + `}`},
	}
	for _, c := range cases {
		method, path, target := c.method, c.path, c.target
		if method == "" {
			method, path, target = http.MethodPost, "/api/v1/post", "/api/v1/post"
		}
		req := httptest.NewRequest(method, target, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		err := v.Validate(context.Background(), req, method, path, nil)
		var ae *app.Error
		require.ErrorAs(t, err, &ae)
		require.NotEmpty(t, ae.Issues)
		require.NotContains(t, err.Error(), secret)
		for _, is := range ae.Issues {
			require.NotContains(t, is.Message, secret)
			require.NotContains(t, is.Message, "Schema:")
			require.NotContains(t, is.Message, "doesn't match")
		}
	}
}

func TestNewValidatorRejectsOpenAPI31(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}}`))
	require.NoError(t, err)
	_, err = NewValidator(doc)
	require.Error(t, err)
}
