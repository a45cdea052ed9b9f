package api

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"
)

// Every POST of the contract is decided: in idempotentOps or in notIdempotentOps with a reason,
// never both; neither list names an operation the contract lacks; a public operation (no
// organization to scope a key to) is never idempotent.
func TestIdempotencyCoversEveryPost(t *testing.T) {
	doc, err := LoadContract()
	require.NoError(t, err)
	seen := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		op := item.Post
		if op == nil {
			continue
		}
		id := op.OperationID
		seen[id] = true
		reason, excluded := notIdempotentOps[id]
		require.True(t, idempotentOps[id] != excluded, "POST %s (%s): put it in exactly one of idempotentOps and notIdempotentOps", path, id)
		if excluded {
			require.NotEmpty(t, reason, id)
		}
		if op.Security != nil && len(*op.Security) == 0 {
			require.False(t, idempotentOps[id], "%s is public: no organization to scope a key to", id)
		}
	}
	for id := range idempotentOps {
		require.True(t, seen[id], "idempotentOps names %s, which is not a POST of the contract", id)
	}
	for id := range notIdempotentOps {
		require.True(t, seen[id], "notIdempotentOps names %s, which is not a POST of the contract", id)
	}
	m := newIdempotency(doc, nil, nil)
	require.True(t, m.routes["POST /api/v1/post"])
	require.True(t, m.routes["POST /api/v1/webhook/:id/rotate-secret"])
	require.False(t, m.routes["POST /api/v1/post/:id/retry"])
	require.Len(t, m.routes, len(idempotentOps))
}

func fingerprintOf(t *testing.T, route, target, contentType string, body []byte) []byte {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	req.Header.Set(echo.HeaderContentType, contentType)
	c := echo.New().NewContext(req, httptest.NewRecorder())
	c.SetPath(route)
	fp, err := fingerprint(c)
	require.NoError(t, err)
	rest := new(bytes.Buffer)
	_, _ = rest.ReadFrom(c.Request().Body)
	require.Equal(t, string(body), rest.String(), "the handler reads the body as sent")
	return fp
}

// The same JSON written differently is the same request; another value, route or path is not.
func TestFingerprintJSON(t *testing.T) {
	a := fingerprintOf(t, "/api/v1/post", "/api/v1/post", "application/json", []byte(`{"a":1,"b":[1,2],"c":{"x":"y"}}`))
	b := fingerprintOf(t, "/api/v1/post", "/api/v1/post", "application/json", []byte(" {\"c\": {\"x\":\"y\"},\n \"b\":[1, 2], \"a\":1}"))
	require.Equal(t, a, b)
	require.NotEqual(t, a, fingerprintOf(t, "/api/v1/post", "/api/v1/post", "application/json", []byte(`{"a":1,"b":[2,1],"c":{"x":"y"}}`)))
	require.NotEqual(t, a, fingerprintOf(t, "/api/v1/post", "/api/v1/post", "application/json", []byte(`{"a":1.0,"b":[1,2],"c":{"x":"y"}}`)), "numbers as written")
	require.NotEqual(t, a, fingerprintOf(t, "/api/v1/comment", "/api/v1/comment", "application/json", []byte(`{"a":1,"b":[1,2],"c":{"x":"y"}}`)))
	x := fingerprintOf(t, "/api/v1/webhook/:id/rotate-secret", "/api/v1/webhook/1/rotate-secret", "", nil)
	require.NotEqual(t, x, fingerprintOf(t, "/api/v1/webhook/:id/rotate-secret", "/api/v1/webhook/2/rotate-secret", "", nil))
}

// Multipart bodies compare by their parts: another boundary is the same request, another byte of
// a file is not.
func TestFingerprintMultipart(t *testing.T) {
	form := func(boundary, file string) (string, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		require.NoError(t, w.SetBoundary(boundary))
		require.NoError(t, w.WriteField("teamId", "t1"))
		fw, err := w.CreateFormFile("file", "a.png")
		require.NoError(t, err)
		_, _ = fw.Write([]byte(file))
		require.NoError(t, w.Close())
		return w.FormDataContentType(), buf.Bytes()
	}
	ct1, b1 := form("boundary-one", "PNGDATA")
	ct2, b2 := form("boundary-two", "PNGDATA")
	ct3, b3 := form("boundary-one", "PNGDATB")
	require.NotEqual(t, b1, b2)
	fp1 := fingerprintOf(t, "/api/v1/upload", "/api/v1/upload", ct1, b1)
	require.Equal(t, fp1, fingerprintOf(t, "/api/v1/upload", "/api/v1/upload", ct2, b2))
	require.NotEqual(t, fp1, fingerprintOf(t, "/api/v1/upload", "/api/v1/upload", ct3, b3))
	require.True(t, strings.HasPrefix(ct1, "multipart/form-data"))
}
