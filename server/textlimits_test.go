package server_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
)

// Issue 14, "Bad input": free text without a maximum in the contract gets a documented one (a 1 MB
// post title was accepted): 400 too_big at the field; just inside the limit passes the check.
func TestFreeTextHasALimit(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	auth := []string{"x-api-key", key}
	team := newTeam(t, srv, key, "Limits")
	post := func(title, text string) string {
		return `{"teamId":"` + team + `","title":"` + title + `","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"` + text + `"}}}`
	}
	for _, c := range []struct {
		name, path, body string
		at               []any
		msg              string
	}{
		{"1 MB title", "/api/v1/post", post(strings.Repeat("t", 1<<20), "hi"), []any{"title"}, "String must contain at most 1000 character(s)"},
		{"title", "/api/v1/post", post(strings.Repeat("t", 1001), "hi"), []any{"title"}, "String must contain at most 1000 character(s)"},
		{"post text", "/api/v1/post", post("T", strings.Repeat("x", 100_001)), []any{"data", "MASTODON", "text"}, "String must contain at most 100000 character(s)"},
		{"file name", "/api/v1/upload/init", `{"fileName":"` + strings.Repeat("f", 252) + `.png","mimeType":"image/png"}`, []any{"fileName"}, "String must contain at most 255 character(s)"},
		{"webhook url", "/api/v1/webhook", `{"url":"https://example.com/` + strings.Repeat("u", 2030) + `","events":["team.created"]}`, []any{"url"}, "String must contain at most 2048 character(s)"},
	} {
		res, b := do(t, http.MethodPost, srv.URL+c.path, c.body, auth...)
		e := requireBadRequest(t, res, b[:min(len(b), 4000)])
		require.Equal(t, "too_big", e.Issues[0].Code, c.name)
		require.Equal(t, c.at, e.Issues[0].Path, c.name)
		require.Equal(t, c.msg, e.Issues[0].Message, c.name)
	}

	// At the limit: no issue at the field.
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"`+strings.Repeat("f", 251)+`.png","mimeType":"image/png"}`, auth...)
	require.NotContains(t, string(b), `"path":["fileName"]`, res.Status)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post", post(strings.Repeat("t", 1000), "hi"), auth...)
	require.NotContains(t, string(b), `"path":["title"]`, res.Status)
}

// A multipart upload's file name is bounded too: 400 too_big at the file's field; 255 passes.
func TestUploadFileNameHasALimit(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Uploads")
	upload := func(name string) (*http.Response, []byte) {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		require.NoError(t, w.WriteField("teamId", team))
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
		h.Set("Content-Type", "image/png")
		part, err := w.CreatePart(h)
		require.NoError(t, err)
		_, err = part.Write(mediatest.PNG(8, 8))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return do(t, http.MethodPost, srv.URL+"/api/v1/upload", body.String(), "x-api-key", key, "Content-Type", w.FormDataContentType())
	}
	res, b := upload(strings.Repeat("n", 252) + ".png")
	e := requireBadRequest(t, res, b, "file")
	require.Equal(t, "too_big", e.Issues[0].Code)
	require.Equal(t, "File name must contain at most 255 character(s)", e.Issues[0].Message)
	res, b = upload(strings.Repeat("n", 251) + ".png")
	require.Less(t, res.StatusCode, 300, string(b))
}
