package server_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/api"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
)

// requireBadRequest asserts the spec's 400 body with an issue at path (any issue when path is nil).
func requireBadRequest(t *testing.T, res *http.Response, b []byte, path ...any) errorBody {
	t.Helper()
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, http.StatusBadRequest, e.StatusCode)
	require.NotEmpty(t, e.Issues, string(b))
	for _, is := range e.Issues {
		require.NotNil(t, is.Path, string(b))
		require.NotEmpty(t, is.Message, string(b))
	}
	if path != nil {
		require.Equal(t, path, e.Issues[0].Path, string(b))
	}
	for _, leak := range []string{"float32", "float64", "offset=", "Unmarshal", "json:", "strconv", "overflows", "SQLSTATE"} {
		require.NotContains(t, string(b), leak)
	}
	return e
}

// Issue 14, "Bad input": NUL characters, %00 and %FF, offsets beyond int range and wrong-typed
// numbers answered 500 or exposed Go internals; each is a 400 in the spec's body now.
func TestBadInputIs400(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Bad input")
	post := func(title string) string {
		return `{"teamId":"` + team + `","title":"` + title + `","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{}}`
	}
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/post", post(`Ti\u0000tle`), "x-api-key", key)
	e := requireBadRequest(t, res, b, "title")
	require.Equal(t, "invalid_string", e.Issues[0].Code)
	require.Equal(t, "Must not contain the NUL character", e.Issues[0].Message)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Te\u0000am"}`, "x-api-key", key)
	requireBadRequest(t, res, b, "name")

	for _, id := range []string{"%00", "%FF", "a%00b"} {
		res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post/"+id, "", "x-api-key", key)
		requireBadRequest(t, res, b, "id")
		res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/team/"+id, `{"name":"Relaunch"}`, "x-api-key", key)
		requireBadRequest(t, res, b, "id")
	}
	for _, q := range []string{"q=%00", "q=%FF", "q=a%00"} {
		res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&"+q, "", "x-api-key", key)
		requireBadRequest(t, res, b, "q")
	}
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId=%00", "", "x-api-key", key)
	requireBadRequest(t, res, b, "teamId")

	for _, offset := range []string{"99999999999999999999", "-99999999999999999999", "1e39", "1e400"} {
		for _, list := range []string{"/api/v1/post?teamId=" + team + "&", "/api/v1/team?"} {
			res, b = do(t, http.MethodGet, srv.URL+list+"offset="+offset, "", "x-api-key", key)
			requireBadRequest(t, res, b, "offset")
			res, b = do(t, http.MethodGet, srv.URL+list+"limit="+offset, "", "x-api-key", key)
			requireBadRequest(t, res, b, "limit")
		}
	}
	// The largest safe integer still lists (nothing that far).
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&offset=9007199254740991", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	// Wrong-typed and out-of-range numbers in a body.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post", `{"teamId":"`+team+`","title":"T","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["TWITTER"],
		"data":{"TWITTER":{"text":"x","poll":{"options":["a","b"],"durationMinutes":"sixty"}}}}`, "x-api-key", key)
	requireBadRequest(t, res, b)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post", `{"teamId":"`+team+`","title":"T","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["TWITTER"],
		"data":{"TWITTER":{"text":"x","poll":{"options":["a","b"],"durationMinutes":1e39}}}}`, "x-api-key", key)
	requireStatusBelow500(t, res, b)
}

// A multipart file name with NUL (percent-encoded, as RFC 7578 allows) is a 400 at the file's field.
func TestNULInUploadFileNameIs400(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Uploads")
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	require.NoError(t, w.WriteField("teamId", team))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename*=UTF-8''a%00.png`)
	h.Set("Content-Type", "image/png")
	part, err := w.CreatePart(h)
	require.NoError(t, err)
	_, err = part.Write(mediatest.PNG(8, 8))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/upload", "", "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b)) // no body at all: already a 400
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/upload", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("x-api-key", key)
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(res.Body)
	require.NoError(t, err)
	e := requireBadRequest(t, res, buf.Bytes(), "file")
	require.Equal(t, "Must not contain the NUL character", e.Issues[0].Message)
}

// requireStatusBelow500 asserts an answer that is no server error, in the spec's body when it is
// an error.
func requireStatusBelow500(t *testing.T, res *http.Response, b []byte) {
	t.Helper()
	require.True(t, res.StatusCode < 500 || res.StatusCode == http.StatusNotImplemented, "%d %s", res.StatusCode, b)
	if res.StatusCode >= 400 {
		e := decodeError(t, b)
		require.Equal(t, res.StatusCode, e.StatusCode, string(b))
		if res.StatusCode == http.StatusBadRequest {
			require.NotEmpty(t, e.Issues, string(b))
		}
	}
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// Every operation of the contract with a JSON body, sent a body whose every top-level string
// property holds NUL, never answers 500. Derived from the contract: new operations are covered.
func TestNULInEveryJSONBodyIsNever500(t *testing.T) {
	t.Parallel()
	doc, err := api.LoadContract()
	require.NoError(t, err)
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Everywhere")
	start := time.Now()
	paths := doc.Paths.InMatchingOrder()
	slices.Sort(paths)
	n := 0
	for _, path := range paths {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			mt := op.RequestBody.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
				continue
			}
			body := map[string]any{}
			for name, s := range topLevelProperties(mt.Schema.Value) {
				if s.Type.Permits(openapi3.TypeString) {
					body[name] = "a\x00b"
				}
			}
			if len(body) == 0 {
				continue
			}
			data, err := json.Marshal(body)
			require.NoError(t, err)
			target := pathParam.ReplaceAllString(path, team)
			res, b := do(t, method, srv.URL+target, string(data), "x-api-key", key)
			require.True(t, res.StatusCode < 500 || res.StatusCode == http.StatusNotImplemented,
				"%s %s: %d %s", method, path, res.StatusCode, b)
			e := decodeError(t, b)
			require.Equal(t, res.StatusCode, e.StatusCode, "%s %s: %s", method, path, b)
			if res.StatusCode == http.StatusBadRequest {
				require.NotEmpty(t, e.Issues, "%s %s: %s", method, path, b)
			}
			n++
		}
	}
	require.Greater(t, n, 50)
	t.Logf("%d operations in %s", n, time.Since(start))
}

// topLevelProperties are a body schema's properties, allOf/oneOf/anyOf branches included.
func topLevelProperties(s *openapi3.Schema) map[string]*openapi3.Schema {
	props := map[string]*openapi3.Schema{}
	var walk func(*openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		for name, ref := range s.Properties {
			if ref != nil && ref.Value != nil && !strings.Contains(name, "\x00") {
				props[name] = ref.Value
			}
		}
		for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, ref := range refs {
				if ref != nil && ref.Value != nil {
					walk(ref.Value)
				}
			}
		}
	}
	walk(s)
	return props
}

// Every operation of the contract, its path parameters %00 or %FF, or each of its query
// parameters %00 or %FF (the others valid or absent), never answers 500.
func TestBadBytesInEveryParameterAreNever500(t *testing.T) {
	t.Parallel()
	doc, err := api.LoadContract()
	require.NoError(t, err)
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Parameters")
	paths := doc.Paths.InMatchingOrder()
	slices.Sort(paths)
	n := 0
	for _, path := range paths {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			var query []string
			for _, ref := range append(slices.Clone(op.Parameters), item.Parameters...) {
				if ref.Value != nil && ref.Value.In == openapi3.ParameterInQuery {
					query = append(query, ref.Value.Name)
				}
			}
			var targets []string
			for _, bad := range []string{"%00", "%FF"} {
				if pathParam.MatchString(path) {
					targets = append(targets, pathParam.ReplaceAllString(path, "x"+bad))
				}
				for _, q := range query {
					targets = append(targets, pathParam.ReplaceAllString(path, team)+"?teamId="+team+"&"+q+"="+bad)
				}
			}
			for _, target := range targets {
				res, b := do(t, method, srv.URL+target, "", "x-api-key", key)
				require.True(t, res.StatusCode < 500 || res.StatusCode == http.StatusNotImplemented,
					"%s %s: %d %s", method, target, res.StatusCode, b)
				if method != http.MethodHead && res.StatusCode >= 400 {
					e := decodeError(t, b)
					require.Equal(t, res.StatusCode, e.StatusCode, "%s %s: %s", method, target, b)
				}
				n++
			}
		}
	}
	require.Greater(t, n, 100)
}

// Issue 14, "Bad input": 5,000 unknown keys in a login body kept both cores busy for minutes.
// Validation is linear and bounded now: answered 400 at once, without a login.
func TestBadInputManyKeysIsFast(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	var b strings.Builder
	b.WriteString(`{"email":"a@example.com","password":"secret-password"`)
	for i := range 5000 {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	start := time.Now()
	res, body := do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", b.String())
	require.Less(t, time.Since(start), 2*time.Second)
	e := requireBadRequest(t, res, body)
	require.Equal(t, "unrecognized_keys", e.Issues[0].Code)
}
