package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
)

// Uploads keep their file names (the dashboard shows them), while the API's Upload record stays the
// spec's: no name field in any answer.
func TestUploadNamesStayOutOfTheAPI(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	tn := newTenant(t, srv)
	nameOf := func(id string) *string {
		var name *string
		require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT name FROM uploads WHERE id = $1`, id).Scan(&name))
		return name
	}

	// POST /upload: the file part's name.
	res, b := postFile(t, srv, tn.key, "", "image/png", mediatest.PNG(8, 8))
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var rec map[string]any
	require.NoError(t, json.Unmarshal(b, &rec))
	for k := range rec { // the spec's fields only
		require.Contains(t, []string{"id", "teamId", "organizationId", "iconUrl", "thumbnailUrl", "url", "externalLink", "iconPath",
			"thumbnailPath", "path", "type", "width", "height", "fileSize", "videoLength", "mime", "ext", "createdAt", "updatedAt"}, k)
	}
	require.Equal(t, "blob", *nameOf(rec["id"].(string)))

	// init → PUT → finalize: init's fileName.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"Spring hero.jpg","mimeType":"image/jpeg"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var in struct{ URL, Path string }
	require.NoError(t, json.Unmarshal(b, &in))
	res, _ = rawDo(t, http.MethodPut, in.URL, mediatest.JPEG(16, 16))
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NotContains(t, string(b), "Spring hero")
	require.Equal(t, "Spring hero.jpg", *nameOf(decodeUpload(t, b).ID))

	// A fileName is at most 255 characters: 400 beyond, on init and multipart init.
	long := strings.Repeat("n", 256)
	for _, path := range []string{"/api/v1/upload/init", "/api/v1/upload/multipart/init"} {
		res, b = do(t, http.MethodPost, srv.URL+path, `{"fileName":"`+long+`","mimeType":"image/png","fileSize":100}`, "x-api-key", tn.key)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
		e := decodeError(t, b)
		require.Equal(t, []any{"fileName"}, e.Issues[0].Path)
		require.Equal(t, "too_big", e.Issues[0].Code)
	}
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"`+long[:255]+`","mimeType":"image/png","fileSize":100}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}
