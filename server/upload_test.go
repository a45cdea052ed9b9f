package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
	"github.com/crier/crier/storage/storagetest"
)

type uploadAnswer struct {
	ID             string   `json:"id"`
	TeamID         *string  `json:"teamId"`
	OrganizationID string   `json:"organizationId"`
	Type           string   `json:"type"`
	Mime           string   `json:"mime"`
	Ext            string   `json:"ext"`
	Path           string   `json:"path"`
	URL            string   `json:"url"`
	ThumbnailURL   *string  `json:"thumbnailUrl"`
	IconURL        *string  `json:"iconUrl"`
	ExternalLink   *string  `json:"externalLink"`
	Width          *float64 `json:"width"`
	Height         *float64 `json:"height"`
	FileSize       float64  `json:"fileSize"`
	VideoLength    *float64 `json:"videoLength"`
	Posts          *[]any   `json:"posts"`
}

// postFile sends POST /upload as a multipart form: the file part with a meaningless name and the
// given Content-Type ("" for application/octet-stream), and teamId when set.
func postFile(t testing.TB, srv *servertest.Server, key, teamID, contentType string, data []byte) (*http.Response, []byte) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if teamID != "" {
		require.NoError(t, w.WriteField("teamId", teamID))
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="blob"`)
	h.Set("Content-Type", contentType)
	part, err := w.CreatePart(h)
	require.NoError(t, err)
	_, _ = part.Write(data)
	require.NoError(t, w.Close())
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/upload", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("x-api-key", key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func rawDo(t *testing.T, method, u string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	require.NoError(t, err)
	req.ContentLength = int64(len(body))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func decodeUpload(t testing.TB, b []byte) uploadAnswer {
	t.Helper()
	var u uploadAnswer
	require.NoError(t, json.Unmarshal(b, &u), string(b))
	return u
}

// Real PNG, JPEG, GIF, MP4, MOV and PDF files through POST /upload: metadata from the bytes,
// previews for images, signed URLs that answer the same bytes, and every list filter.
func TestUploadRealSamplesAndList(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	tn := newTenant(t, srv)
	samples := []struct {
		name, mime, typ string
		data            []byte
		w, h            float64
		length          float64
	}{
		{"png", "image/png", "image", mediatest.PNG(300, 200), 300, 200, 0},
		{"jpeg", "image/jpeg", "image", mediatest.JPEG(640, 480), 640, 480, 0},
		{"gif", "image/gif", "image", mediatest.GIF(50, 70), 50, 70, 0},
		{"mp4", "video/mp4", "video", mediatest.Fixture(t, "sample.mp4"), 320, 240, 2.5},
		{"mov", "video/quicktime", "video", mediatest.Fixture(t, "sample.mov"), 160, 90, 1.5},
		{"pdf", "application/pdf", "document", mediatest.Fixture(t, "sample.pdf"), 0, 0, 0},
	}
	ids := map[string]uploadAnswer{}
	for _, s := range samples {
		team := ""
		if s.typ == "image" {
			team = tn.ids["team"]
		}
		res, b := postFile(t, srv, tn.key, team, "", s.data)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", s.name, b)
		u := decodeUpload(t, b)
		ids[s.name] = u
		require.Equal(t, s.typ, u.Type, s.name)
		require.Equal(t, s.mime, u.Mime, s.name)
		require.EqualValues(t, len(s.data), u.FileSize, s.name)
		if s.w > 0 {
			require.NotNil(t, u.Width, s.name)
			require.Equal(t, s.w, *u.Width, s.name)
			require.Equal(t, s.h, *u.Height, s.name)
		} else {
			require.Nil(t, u.Width, s.name)
		}
		if s.typ == "video" {
			require.InDelta(t, s.length, *u.VideoLength, 0.05, s.name)
		}
		if s.typ == "image" {
			require.NotNil(t, u.ThumbnailURL, s.name)
			require.NotNil(t, u.IconURL, s.name)
			res, thumb := rawDo(t, http.MethodGet, *u.ThumbnailURL, nil)
			require.Equal(t, http.StatusOK, res.StatusCode)
			require.Equal(t, []byte{0xFF, 0xD8, 0xFF}, thumb[:3], "thumbnails are JPEG")
			require.Equal(t, tn.ids["team"], *u.TeamID)
		}
		res, got := rawDo(t, http.MethodGet, u.URL, nil)
		require.Equal(t, http.StatusOK, res.StatusCode, s.name)
		require.Equal(t, s.data, got, "%s: the signed URL answers the stored bytes", s.name)
	}

	list := func(query string) []uploadAnswer {
		t.Helper()
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/upload"+query, "", "x-api-key", tn.key)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", query, b)
		var out []uploadAnswer
		require.NoError(t, json.Unmarshal(b, &out), string(b))
		return out
	}
	require.Len(t, list(""), 6)
	require.NotNil(t, list("")[0].Posts, "includePosts defaults to true")
	require.Empty(t, *list("")[0].Posts, "no post uses an upload yet")
	require.Nil(t, list("?includePosts=false")[0].Posts)
	require.Len(t, list("?type=video"), 2)
	require.Len(t, list("?types=image&types=document"), 4)
	require.Len(t, list("?teamId="+tn.ids["team"]), 3)
	require.Len(t, list("?status=UNUSED"), 6)
	require.Len(t, list("?status=USED"), 0)
	require.Len(t, list("?ids="+ids["gif"].ID+"&ids="+ids["pdf"].ID), 2)
	byURL := list("?urls=" + url.QueryEscape(ids["mov"].URL))
	require.Len(t, byURL, 1)
	require.Equal(t, ids["mov"].ID, byURL[0].ID)
	require.Len(t, list("?urls="+url.QueryEscape("https://elsewhere.example/x.png")), 0)
	require.Len(t, list("?limit=2&offset=5"), 1)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/upload?type=audio", "", "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/upload/"+ids["mp4"].ID, "", "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	got := decodeUpload(t, b)
	require.Equal(t, ids["mp4"].ID, got.ID)
	require.NotNil(t, got.Posts)

	// Usage counts real uploads.
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", tn.key)
	require.JSONEq(t, `{"used":6,"limit":200,"remaining":194}`, string(b))

	// Delete one, then many; deleted uploads and their bytes are gone.
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/upload/"+ids["png"].ID, "", "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, ids["png"].ID, decodeUpload(t, b).ID)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/upload/"+ids["png"].ID, "", "x-api-key", tn.key)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = rawDo(t, http.MethodGet, ids["png"].URL, nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "the file left storage")
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/upload", `{"ids":[]}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, _ = do(t, http.MethodDelete, srv.URL+"/api/v1/upload", `{"ids":["`+ids["gif"].ID+`","00000000-0000-0000-0000-000000000000"]}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "all or nothing")
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/upload", `{"ids":["`+ids["gif"].ID+`","`+ids["pdf"].ID+`"]}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var deleted []uploadAnswer
	require.NoError(t, json.Unmarshal(b, &deleted))
	require.Len(t, deleted, 2)
	require.Len(t, list(""), 3)
	// Deleting does not give the month's quota back.
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", tn.key)
	require.JSONEq(t, `{"used":6,"limit":200,"remaining":194}`, string(b))
	// Each change is in the audit log.
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/audit-log?limit=50", "", "x-api-key", tn.key)
	require.Equal(t, 6, strings.Count(string(b), `"upload.created"`), string(b))
	require.Equal(t, 3, strings.Count(string(b), `"upload.deleted"`))
}

// Bytes that do not match the declared type, and types that are not allowed, are 400 with an issue.
func TestUploadTypeMismatchIs400(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	tn := newTenant(t, srv)

	res, b := postFile(t, srv, tn.key, "", "image/png", mediatest.JPEG(20, 20))
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, "custom", e.Issues[0].Code)
	require.Contains(t, e.Issues[0].Message, "image/jpeg")

	for _, data := range [][]byte{[]byte("<html><script>alert(1)</script></html>"), []byte("RIFF\x10\x00\x00\x00WEBPVP8 \x00\x00")} {
		res, b = postFile(t, srv, tn.key, "", "", data)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
		e = decodeError(t, b)
		require.Equal(t, []any{"file"}, e.Issues[0].Path)
		require.Contains(t, e.Message, "Unsupported file type")
	}

	// A signed-URL upload whose bytes are a GIF although image/png was declared: refused at
	// finalize, its bytes deleted, and the path closed.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"x.png","mimeType":"image/png","fileSize":100}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var in struct{ URL, Path string }
	require.NoError(t, json.Unmarshal(b, &in))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "nothing PUT yet: %s", b)
	res, _ = rawDo(t, http.MethodPut, in.URL, mediatest.GIF(10, 10))
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	e = decodeError(t, b)
	require.Equal(t, []any{"mimeType"}, e.Issues[0].Path)
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	_, err := srv.Service.Storage().Size(context.Background(), in.Path)
	require.Error(t, err, "the refused bytes were deleted")

	// The declared type must be allowed, and the size within the type's limit.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"x.webp","mimeType":"image/webp"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"x.png","mimeType":"image/png","fileSize":21000000}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, "too_big", decodeError(t, b).Issues[0].Code)

	// The happy path of init → PUT → finalize, and finalize again answers the same upload.
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"x.jpg","mimeType":"image/jpg"}`, "x-api-key", tn.key)
	require.NoError(t, json.Unmarshal(b, &in))
	res, _ = rawDo(t, http.MethodPut, in.URL, mediatest.JPEG(64, 48))
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	u := decodeUpload(t, b)
	require.Equal(t, 64.0, *u.Width)
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/finalize", `{"path":"`+in.Path+`"}`, "x-api-key", tn.key)
	require.Equal(t, u.ID, decodeUpload(t, b).ID)
}

// from-url fetches over a real HTTP server on 127.0.0.1: allowed with ALLOW_PRIVATE_URLS, refused
// without it.
func TestUploadFromURLPrivateAddresses(t *testing.T) {
	t.Parallel()
	png := mediatest.PNG(120, 80)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/pic", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain") // servers lie: the bytes decide
		_, _ = w.Write(png)
	}))
	defer origin.Close()

	allowed := servertest.Start(t) // servertest sets ALLOW_PRIVATE_URLS=1
	tn := newTenant(t, allowed)
	res, b := do(t, http.MethodPost, allowed.URL+"/api/v1/upload/from-url", `{"url":"`+origin.URL+`/redirect"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	u := decodeUpload(t, b)
	require.Equal(t, "image/png", u.Mime)
	require.Equal(t, 120.0, *u.Width)
	require.Equal(t, origin.URL+"/redirect", *u.ExternalLink)

	refused := servertest.Start(t, servertest.Options{Env: map[string]string{"ALLOW_PRIVATE_URLS": "0"}})
	tn = newTenant(t, refused)
	for _, target := range []string{origin.URL + "/pic", strings.Replace(origin.URL, "127.0.0.1", "localhost", 1) + "/pic",
		"http://169.254.169.254/latest/meta-data/", "file:///etc/passwd", "ftp://127.0.0.1/x"} {
		res, b = do(t, http.MethodPost, refused.URL+"/api/v1/upload/from-url", `{"url":"`+target+`"}`, "x-api-key", tn.key)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "%s: %s", target, b)
		require.Equal(t, []any{"url"}, decodeError(t, b).Issues[0].Path, target)
	}
	_, b = do(t, http.MethodGet, refused.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", tn.key)
	require.Contains(t, string(b), `"used":0`)
}

// A 5-part multipart upload through signed URLs, on the disk backend and on S3 (versitygw).
func TestMultipartUploadDisk(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"UPLOAD_PART_SIZE_MB": "5"}})
	testMultipart(t, srv)
}

func TestMultipartUploadS3(t *testing.T) {
	t.Parallel()
	s3 := storagetest.StartS3(t)
	srv := servertest.Start(t, servertest.Options{Env: map[string]string{"UPLOAD_PART_SIZE_MB": "5", "STORAGE_URL": s3.URL(),
		"AWS_ACCESS_KEY_ID": s3.AccessKey, "AWS_SECRET_ACCESS_KEY": s3.SecretKey}})
	testMultipart(t, srv)
}

func testMultipart(t *testing.T, srv *servertest.Server) {
	tn := newTenant(t, srv)
	const partSize = 5 << 20
	data := make([]byte, 4*partSize+123_457)
	_, _ = rand.Read(data)
	copy(data, "%PDF-1.7\n")
	// The PDF's skeleton at the end (media checks it): a cross-reference table that startxref points at.
	xref := len(data) - 200
	copy(data[xref:], fmt.Sprintf("xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 >>\nstartxref\n%d\n%%%%EOF\n", xref))
	data = data[:xref+len(fmt.Sprintf("xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 >>\nstartxref\n%d\n%%%%EOF\n", xref))]
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/init",
		fmt.Sprintf(`{"fileName":"big.pdf","mimeType":"application/pdf","fileSize":%d,"teamId":"%s"}`, len(data), tn.ids["team"]), "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var in struct {
		UploadID string `json:"uploadId"`
		Path     string `json:"path"`
		PartSize int    `json:"partSize"`
		Parts    []struct {
			PartNumber int    `json:"partNumber"`
			URL        string `json:"url"`
		} `json:"parts"`
	}
	require.NoError(t, json.Unmarshal(b, &in))
	require.Equal(t, partSize, in.PartSize)
	require.Len(t, in.Parts, 5)

	start := time.Now()
	var parts []string
	for i, p := range in.Parts {
		require.Equal(t, i+1, p.PartNumber)
		chunk := data[i*partSize : min((i+1)*partSize, len(data))]
		url := p.URL
		if i == 2 { // a part whose URL "expired": sign it again
			_, sb := do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/sign",
				fmt.Sprintf(`{"path":"%s","uploadId":"%s","partNumbers":[3]}`, in.Path, in.UploadID), "x-api-key", tn.key)
			var signed struct {
				Parts []struct {
					PartNumber int    `json:"partNumber"`
					URL        string `json:"url"`
				} `json:"parts"`
			}
			require.NoError(t, json.Unmarshal(sb, &signed), string(sb))
			require.Equal(t, 3, signed.Parts[0].PartNumber)
			url = signed.Parts[0].URL
		}
		res, pb := rawDo(t, http.MethodPut, url, chunk)
		require.Equal(t, http.StatusOK, res.StatusCode, string(pb))
		parts = append(parts, fmt.Sprintf(`{"partNumber":%d,"etag":%q}`, i+1, res.Header.Get("ETag")))
	}
	body := fmt.Sprintf(`{"path":"%s","uploadId":"%s","parts":[%s]}`, in.Path, in.UploadID, strings.Join(parts, ","))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/complete", body, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	u := decodeUpload(t, b)
	t.Logf("5 parts of %d bytes PUT and completed in %s", len(data), time.Since(start).Round(time.Millisecond))
	require.Equal(t, "document", u.Type)
	require.EqualValues(t, len(data), u.FileSize)
	require.Equal(t, tn.ids["team"], *u.TeamID)
	res, got := rawDo(t, http.MethodGet, u.URL, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, sha256.Sum256(data), sha256.Sum256(got), "the stored bytes match")
	// Completing again answers the same upload and does not count twice.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/complete", body, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Equal(t, u.ID, decodeUpload(t, b).ID)
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", tn.key)
	require.Contains(t, string(b), `"used":1`)

	// Abort: the parts go, and the upload cannot be completed any more.
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/init", `{"fileName":"v.mp4","mimeType":"video/mp4","fileSize":1000}`, "x-api-key", tn.key)
	require.NoError(t, json.Unmarshal(b, &in))
	require.Len(t, in.Parts, 1)
	res, _ = rawDo(t, http.MethodPut, in.Parts[0].URL, mediatest.Fixture(t, "sample.mp4"))
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/abort", fmt.Sprintf(`{"path":"%s","uploadId":"%s"}`, in.Path, in.UploadID), "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/complete",
		fmt.Sprintf(`{"path":"%s","uploadId":"%s","parts":[{"partNumber":1,"etag":"x"}]}`, in.Path, in.UploadID), "x-api-key", tn.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
}

// FREE allows 200 uploads a month: the 201st is 403, and usage says so.
func TestUploadMonthlyQuota(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	tn := newTenant(t, srv)
	var orgID string
	require.NoError(t, srv.Pool.QueryRow(context.Background(), "SELECT organization_id FROM teams WHERE id = $1", tn.ids["team"]).Scan(&orgID))
	_, err := srv.Pool.Exec(context.Background(), `INSERT INTO uploads (organization_id, type, mime, ext, path, file_size)
		SELECT $1::uuid, 'image', 'image/png', 'png', $1::text || '/seed' || g || '.png', 10 FROM generate_series(1, 199) g`, orgID)
	require.NoError(t, err)
	res, b := postFile(t, srv, tn.key, "", "", mediatest.PNG(8, 8))
	require.Equal(t, http.StatusOK, res.StatusCode, "the 200th: %s", b)
	res, b = postFile(t, srv, tn.key, "", "", mediatest.PNG(8, 8))
	require.Equal(t, http.StatusForbidden, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "200 uploads a month")
	res, _ = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/init", `{"fileName":"v.mp4","mimeType":"video/mp4","fileSize":1000}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/uploads", "", "x-api-key", tn.key)
	require.JSONEq(t, `{"used":200,"limit":200,"remaining":0}`, string(b))
}

// The cleanup job removes unused uploads past the retention (and their bytes) and abandoned
// signed-URL uploads, and keeps the rest.
func TestUploadCleanupJob(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	tn := newTenant(t, srv)
	ctx := context.Background()
	res, b := postFile(t, srv, tn.key, "", "", mediatest.GIF(10, 10))
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	old := decodeUpload(t, b)
	_, b = postFile(t, srv, tn.key, "", "", mediatest.GIF(12, 12))
	fresh := decodeUpload(t, b)
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/init", `{"fileName":"v.mp4","mimeType":"video/mp4","fileSize":1000}`, "x-api-key", tn.key)
	var mp struct {
		Path  string `json:"path"`
		Parts []struct {
			URL string `json:"url"`
		} `json:"parts"`
	}
	require.NoError(t, json.Unmarshal(b, &mp))
	res, _ = rawDo(t, http.MethodPut, mp.Parts[0].URL, []byte("part"))
	require.Equal(t, http.StatusOK, res.StatusCode)

	_, err := srv.Pool.Exec(ctx, "UPDATE uploads SET created_at = now() - interval '91 days' WHERE id = $1", old.ID)
	require.NoError(t, err)
	_, err = srv.Pool.Exec(ctx, "UPDATE upload_sessions SET created_at = now() - interval '3 days' WHERE path = $1", mp.Path)
	require.NoError(t, err)

	done, err := srv.Service.CleanupUploads(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, done.Expired)
	require.Equal(t, 1, done.Purged)
	require.Equal(t, 1, done.Abandoned)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/upload/"+old.ID, "", "x-api-key", tn.key)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = rawDo(t, http.MethodGet, old.URL, nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/upload/"+fresh.ID, "", "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, _ = rawDo(t, http.MethodPut, mp.Parts[0].URL, []byte("part"))
	require.Equal(t, http.StatusNotFound, res.StatusCode, "the abandoned multipart upload is gone")

	// A second run finds nothing left to do.
	again, err := srv.Service.CleanupUploads(ctx)
	require.NoError(t, err)
	require.Zero(t, again)
}
