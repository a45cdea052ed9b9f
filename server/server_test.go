package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

type errorBody struct {
	StatusCode int         `json:"statusCode"`
	Message    string      `json:"message"`
	Issues     []app.Issue `json:"issues"`
}

func do(t testing.TB, method, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

func decodeError(t *testing.T, b []byte) errorBody {
	t.Helper()
	var e errorBody
	require.NoError(t, json.Unmarshal(b, &e), string(b))
	require.NotEmpty(t, e.Message)
	return e
}

func TestHealthListsFifteenPlatforms(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	for _, path := range []string{"/api/v1", "/api/v1/"} {
		res, b := do(t, http.MethodGet, srv.URL+path, "")
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		var h struct {
			Status    string `json:"status"`
			CreatedAt string `json:"createdAt"`
			Note      string `json:"note"`
			Platforms map[string]struct {
				Status string `json:"status"`
				Note   string `json:"note"`
			} `json:"platforms"`
		}
		require.NoError(t, json.Unmarshal(b, &h))
		require.Equal(t, "operational", h.Status)
		require.NotEmpty(t, h.CreatedAt)
		require.NotEmpty(t, h.Note)
		require.Len(t, h.Platforms, 15)
		for _, n := range app.Networks {
			require.Equal(t, "operational", h.Platforms[string(n)].Status, n)
		}
	}
}

func TestHealthShowsAnnouncedIncident(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	_, err := srv.Service.SetPlatformStatus(context.Background(), app.SetPlatformStatusParams{Network: app.Bluesky, Status: app.StatusDegraded, Note: "Slow media uploads"})
	require.NoError(t, err)
	_, b := do(t, http.MethodGet, srv.URL+"/api/v1", "")
	require.Contains(t, string(b), `"BLUESKY":{"note":"Slow media uploads","status":"degraded"}`)
}

func TestMissingOrInvalidKeyIs401(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	for _, tc := range []struct{ path, key string }{{"/api/v1/team", ""}, {"/api/v1/team/", ""}, {"/api/v1/team", "not-a-key"}} {
		res, b := do(t, http.MethodPost, srv.URL+tc.path, "", "x-api-key", tc.key)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, tc)
		e := decodeError(t, b)
		require.Equal(t, 401, e.StatusCode)
		require.Equal(t, "application/json", strings.Split(res.Header.Get("Content-Type"), ";")[0])
	}
}

func TestUnknownAPIRouteIs404InErrorBody(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	for _, tc := range []struct{ method, path string }{{"GET", "/api/v1/nope"}, {"POST", "/api/v1/team/x/y/z"}, {"PUT", "/api/v1/team"}} {
		res, b := do(t, tc.method, srv.URL+tc.path, "")
		require.Equal(t, http.StatusNotFound, res.StatusCode, tc)
		require.Equal(t, 404, decodeError(t, b).StatusCode)
	}
}

func TestContractIsServedAndComplete(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/openapi.json", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	doc, err := openapi3.NewLoader().LoadFromData(b)
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()))
	require.Equal(t, "3", doc.OpenAPI[:1])
	ops := 0
	for _, item := range doc.Paths.Map() {
		ops += len(item.Operations())
	}
	require.Equal(t, 263, ops) // the spec's 260 and the 3 designed notification operations
}

func TestMalformedJSONIs400WithIssue(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", `{"email": "a@b.c",`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	require.Len(t, e.Issues, 1)
	require.Equal(t, "custom", e.Issues[0].Code)
	require.Contains(t, e.Issues[0].Message, "Malformed JSON")
}

func TestContractValidationIssues(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"not-an-email","password":"short","extra":1}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	e := decodeError(t, b)
	got := map[string]string{}
	for _, is := range e.Issues {
		path, _ := json.Marshal(is.Path)
		got[string(path)] = is.Code
	}
	require.Equal(t, map[string]string{
		`[]`:            "unrecognized_keys",
		`["email"]`:     "invalid_string",
		`["firstName"]`: "invalid_type",
		`["password"]`:  "too_small",
	}, got)
}

// An operation whose capability has not landed answers 501 honestly, after auth and validation.
func TestNotYetImplementedIs501(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/analytics/post/force", `{"postId":"p1"}`, "x-api-key", key)
	require.Equal(t, http.StatusNotImplemented, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, 501, e.StatusCode)
	require.Contains(t, e.Message, "POST /api/v1/analytics/post/force")
}

func TestPanicIs500WithoutStack(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	srv.Echo.GET("/api/v1/test-panic", func(echo.Context) error { panic("boom: secret detail") })
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/test-panic", "")
	require.Equal(t, http.StatusInternalServerError, res.StatusCode)
	e := decodeError(t, b)
	require.NotContains(t, string(b), "boom")
	require.NotContains(t, string(b), "goroutine")
	reqID := res.Header.Get("X-Request-Id")
	require.NotEmpty(t, reqID)
	require.Contains(t, e.Message, reqID)
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	res, _ := do(t, http.MethodGet, srv.URL+"/login", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'self'")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "strict-origin-when-cross-origin", res.Header.Get("Referrer-Policy"))
	require.NotEmpty(t, res.Header.Get("X-Request-Id"))
}

func TestUnknownPageIsHTML404(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	res, b := do(t, http.MethodGet, srv.URL+"/no-such-page", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, string(b), "<html")
}
