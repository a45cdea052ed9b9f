package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/storage"
)

// setupMedia is setup with uploads configured as the server does: a disk storage in a temporary
// directory, whose signed URLs Crier serves under /files/.
func setupMedia(t *testing.T) *testBundle {
	t.Helper()
	b := setupService(t, func(o *app.Options) { o.Uploads = app.UploadOptions{PartSize: 5 << 20} }, nil)
	b.e.Any(storage.FilesPrefix+"*", echo.WrapHandler(b.svc.Storage().(*storage.Disk)))
	return b
}

// pngBytes is a w×h PNG; noisy pixels make it large (they do not compress).
func pngBytes(t *testing.T, w, h int, noisy bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{R: uint8(x * 40), G: uint8(y * 60), B: 200, A: 255}
			if noisy {
				c = color.RGBA{R: uint8(r.IntN(256)), G: uint8(r.IntN(256)), B: uint8(r.IntN(256)), A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func (b *testBundle) upload(t *testing.T, data []byte, mime string) *app.Upload {
	t.Helper()
	u, err := b.svc.CreateUpload(b.ctx(t), nil, bytes.NewReader(data), int64(len(data)), mime, "")
	require.NoError(t, err)
	return u
}

// markUsed links the upload to a (draft) post of its organization, as the posts capability does.
func (b *testBundle) markUsed(t *testing.T, uploadID string) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `WITH tm AS (
		INSERT INTO teams (organization_id, created_by_id, name, deleted_at)
		SELECT o.id, o.created_by_id, 'Posts', now() FROM organizations o JOIN uploads u ON u.organization_id = o.id WHERE u.id = $1
		RETURNING id, organization_id
	), p AS (
		INSERT INTO posts (organization_id, team_id, title, post_date, status, social_account_types, data)
		SELECT organization_id, id, 'Uses it', now(), 'DRAFT', '{MASTODON}', '{}' FROM tm
		RETURNING id)
		INSERT INTO post_uploads (post_id, upload_id) SELECT id, $1 FROM p`, uploadID)
	require.NoError(t, err)
}

// postFile sends the upload form (multipart) with files named file.
func (b *testBundle) postFile(t *testing.T, path string, files map[string][]byte, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for name, data := range files {
		part, err := w.CreateFormFile("file", name)
		require.NoError(t, err)
		_, err = part.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	req := httptest.NewRequest(http.MethodPost, path, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(b.cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

func (b *testBundle) postJSON(t *testing.T, path string, in any) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	raw, err := json.Marshal(in)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(b.cookie)
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	var out map[string]any
	if rec.Body.Len() > 0 {
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
	}
	return rec, out
}

func TestMediaEmptyLibrary(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)

	rec := b.get(t, "/media")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Equal(t, "Media · Crier", doc.Find("title").Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-media"]`).AttrOr("aria-current", ""))
	require.Equal(t, 1, doc.Find("h1").Length())
	require.Contains(t, doc.Find(`[data-testid="media-results"] [data-testid="empty-state"]`).Text(), "No media yet")
	form := doc.Find(`[data-testid="media-upload-form"]`)
	require.Equal(t, "/media/upload", form.AttrOr("action", ""))
	require.Equal(t, "multipart/form-data", form.AttrOr("enctype", ""))
	require.Equal(t, "/media/multipart/init", form.AttrOr("data-init", ""))
	// The file input has a label, and progress is announced.
	require.Equal(t, 1, doc.Find(`label[for="media-file"]`).Length())
	require.Equal(t, "file", doc.Find(`#media-file`).AttrOr("type", ""))
	require.Equal(t, "polite", doc.Find(`[data-media-status]`).AttrOr("aria-live", ""))
	requireNoInlineStyleOrScript(t, doc)

	var scripts []string
	doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { scripts = append(scripts, s.AttrOr("src", "")) })
	require.Contains(t, strings.Join(scripts, " "), "/static/js/media.js")
	for _, src := range scripts {
		require.Equal(t, http.StatusOK, b.get(t, src).Code, src)
	}
	// Other pages do not load it.
	require.NotContains(t, b.get(t, "/").Body.String(), "js/media.js")
}

func TestMediaUploadShowsInGrid(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)

	// Without JavaScript: the form posts, then the library.
	rec := b.postFile(t, "/media/upload", map[string][]byte{"tiny.png": pngBytes(t, 4, 3, false)})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	require.Equal(t, "/media", rec.Header().Get("Location"))

	// media.js: a JSON answer with the upload's id.
	rec = b.postFile(t, "/media/upload", map[string][]byte{"wide.png": pngBytes(t, 8, 2, false)}, "Accept", "application/json")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out struct{ ID string }
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	require.NotEmpty(t, out.ID)

	doc := parse(t, b.get(t, "/media"))
	tiles := doc.Find(`[data-testid="media-tile"]`)
	require.Equal(t, 2, tiles.Length())
	first := tiles.First() // newest first
	require.Equal(t, out.ID, first.AttrOr("data-upload-id", ""))
	require.Equal(t, "8 × 2", first.Find(`[data-testid="media-dimensions"]`).Text())
	require.Equal(t, "4 × 3", tiles.Eq(1).Find(`[data-testid="media-dimensions"]`).Text())
	require.Equal(t, "PNG image", first.Find(`[data-testid="media-type"]`).Text())
	require.Regexp(t, `^\d+ bytes$`, first.Find(`[data-testid="media-size"]`).Text())
	require.Contains(t, first.Find("img").AttrOr("src", ""), "http://crier.test/files/")
	// Each tile's checkbox is labelled by what it is.
	check := first.Find(`input[type="checkbox"][name="ids"]`)
	require.Equal(t, out.ID, check.AttrOr("value", ""))
	require.Contains(t, doc.Find(`label[for="`+check.AttrOr("id", "")+`"]`).Text(), "Select wide.png, PNG image, 8 × 2") // the name first
	requireNoInlineStyleOrScript(t, doc)
	// The thumbnail is served from its signed URL.
	thumb, err := url.Parse(first.Find("img").AttrOr("src", ""))
	require.NoError(t, err)
	res := b.get(t, thumb.RequestURI())
	require.Equal(t, http.StatusOK, res.Code)
}

func TestMediaUploadRefusals(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)

	// media.js gets the reason as JSON.
	// media.js gets the reason as JSON (200, as refused forms answer htmx), with the API's status.
	rec := b.postFile(t, "/media/upload", map[string][]byte{"notes.txt": []byte("just some text, not an image")}, "Accept", "application/json")
	require.Equal(t, http.StatusOK, rec.Code)
	var out struct {
		Error  string
		Status int
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	require.Equal(t, http.StatusBadRequest, out.Status)
	require.Contains(t, out.Error, "Unsupported file type")
	require.NotContains(t, out.Error, "Validation failed")

	// Without JavaScript: the page again, with the reason beside the drop zone.
	rec = b.postFile(t, "/media/upload", map[string][]byte{"notes.txt": []byte("just some text, not an image")})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="upload-error"]`).Text(), "Unsupported file type")

	// No file at all.
	rec = b.postFile(t, "/media/upload", nil, "Accept", "application/json")
	require.Contains(t, rec.Body.String(), "Choose a file to upload")

	// Nothing was stored.
	list, err := b.svc.ListUploads(b.ctx(t), app.UploadFilter{}, app.Page{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestMediaFilters(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	used := b.upload(t, pngBytes(t, 4, 3, false), "image/png")
	unused := b.upload(t, pngBytes(t, 5, 5, false), "image/png")
	b.markUsed(t, used.ID)

	ids := func(doc *goquery.Document) []string {
		var out []string
		doc.Find(`[data-testid="media-tile"]`).Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-upload-id", "")) })
		return out
	}

	doc := parse(t, b.get(t, "/media"))
	require.ElementsMatch(t, []string{used.ID, unused.ID}, ids(doc))
	require.Equal(t, "Used", doc.Find(`[data-upload-id="`+used.ID+`"] [data-testid="status-pill"]`).Text())
	require.Equal(t, 0, doc.Find(`[data-upload-id="`+unused.ID+`"] [data-testid="status-pill"]`).Length())
	filters := doc.Find(`[data-testid="media-filters"]`)
	require.Equal(t, "/media", filters.AttrOr("hx-get", ""))
	require.Equal(t, "#media-results", filters.AttrOr("hx-target", ""))
	require.Equal(t, "true", filters.AttrOr("hx-push-url", ""))

	// htmx: the grid alone, with the filter kept in its reload URL.
	rec := b.get(t, "/media?status=USED", hx("media-results")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotContains(t, rec.Body.String(), "<html")
	require.True(t, strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="media-results"`))
	doc = parse(t, rec)
	require.Equal(t, []string{used.ID}, ids(doc))
	require.Equal(t, "/media?status=USED", doc.Find("#media-results").AttrOr("hx-get", ""))
	require.Equal(t, "mediaChanged from:body", doc.Find("#media-results").AttrOr("hx-trigger", ""))

	require.Equal(t, []string{unused.ID}, ids(parse(t, b.get(t, "/media?status=UNUSED", hx("media-results")...))))

	// A full page keeps the filters selected.
	doc = parse(t, b.get(t, "/media?type=image&status=UNUSED"))
	require.Equal(t, []string{unused.ID}, ids(doc))
	require.Equal(t, "image", doc.Find(`[data-testid="filter-type"] option[selected]`).AttrOr("value", ""))
	require.Equal(t, "UNUSED", doc.Find(`[data-testid="filter-status"] option[selected]`).AttrOr("value", ""))

	// No match: an empty state that offers everything again.
	doc = parse(t, b.get(t, "/media?type=video", hx("media-results")...))
	require.Empty(t, ids(doc))
	require.Contains(t, doc.Find(`[data-testid="empty-state"]`).Text(), "No media matches these filters")
	require.Equal(t, "/media", doc.Find(`[data-testid="empty-state-action"]`).AttrOr("href", ""))

	// Unknown filter values filter nothing.
	require.Len(t, ids(parse(t, b.get(t, "/media?type=spreadsheet&status=maybe"))), 2)

	// Per team: uploads can belong to a team.
	team := b.createTeam(t, "Acme Coffee")
	data := pngBytes(t, 2, 2, false)
	teamUp, err := b.svc.CreateUpload(b.ctx(t), &team.ID, bytes.NewReader(data), int64(len(data)), "image/png", "")
	require.NoError(t, err)
	doc = parse(t, b.get(t, "/media?teamId="+team.ID))
	require.Equal(t, []string{teamUp.ID}, ids(doc))
	require.Equal(t, team.ID, doc.Find(`[data-testid="filter-team"] option[selected]`).AttrOr("value", ""))
	require.Equal(t, 2, doc.Find(`[data-testid="media-upload-team"] option`).Length())
	require.Equal(t, http.StatusNotFound, b.get(t, "/media?teamId="+uuid.NewString()).Code)
}

func TestMediaDeleteSelected(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	one := b.upload(t, pngBytes(t, 4, 3, false), "image/png")
	two := b.upload(t, pngBytes(t, 6, 6, false), "image/png")
	keep := b.upload(t, pngBytes(t, 7, 7, false), "image/png")

	// The grid's toolbar opens the confirmation with the checked ids.
	doc := parse(t, b.get(t, "/media"))
	del := doc.Find(`[data-testid="media-delete-selected"]`)
	require.Equal(t, "/media/delete", del.AttrOr("hx-get", ""))
	require.Equal(t, "closest form", del.AttrOr("hx-include", ""))
	require.Equal(t, "#org-dialog", del.AttrOr("hx-target", ""))
	require.Equal(t, "/media/delete", del.Closest("form").AttrOr("action", ""))

	q := "ids=" + one.ID + "&ids=" + two.ID
	rec := b.get(t, "/media/delete?"+q, hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	dialog := doc.Find(`dialog[data-testid="confirm-dialog"]`)
	require.Equal(t, 1, dialog.Length())
	require.Contains(t, dialog.Find("h2").Text(), "Delete 2 files?")
	action := dialog.Find("form").AttrOr("hx-post", "")
	require.Equal(t, "/media/delete?"+q, action)

	// Without JavaScript: a page.
	doc = parse(t, b.get(t, "/media/delete?"+q))
	require.Contains(t, doc.Find("h1").Text(), "Delete 2 files?")

	rec = b.post(t, action, nil, append(hx("org-dialog"), "HX-Current-URL", "http://crier.test/media")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, hxTrigger(t, rec), "mediaChanged")
	require.NotContains(t, rec.Body.String(), "<dialog")
	require.Contains(t, rec.Body.String(), "2 files deleted.")
	list, err := b.svc.ListUploads(b.ctx(t), app.UploadFilter{}, app.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, keep.ID, list[0].ID)

	// The grid's form without JavaScript posts its checkboxes.
	rec = b.post(t, "/media/delete", url.Values{"ids": {keep.ID}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/media", rec.Header().Get("Location"))
	require.Contains(t, parse(t, b.get(t, "/media")).Find(`[data-testid="empty-state"]`).Text(), "No media yet")
}

func TestMediaDeleteOneAndRefusals(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	up := b.upload(t, pngBytes(t, 4, 3, false), "image/png")

	rec := b.get(t, "/media/"+up.ID+"/delete", hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find("dialog h2").Text(), "Delete this PNG image, 4 × 3?")

	// Nothing selected: said plainly, in the dialog.
	rec = b.get(t, "/media/delete", hx("org-dialog")...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="confirm-error"]`).Text(), "Select at least one file.")

	rec = b.post(t, "/media/"+up.ID+"/delete", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	// Gone: 404, in the dialog's form and on the page.
	require.Equal(t, http.StatusNotFound, b.post(t, "/media/"+up.ID+"/delete", nil, hx("org-dialog")...).Code)
	require.Equal(t, http.StatusNotFound, b.get(t, "/media/delete?ids="+up.ID).Code)
	require.Equal(t, http.StatusNotFound, b.get(t, "/media/not-a-uuid/delete").Code)
}

func TestMediaOtherOrganizationIs404(t *testing.T) {
	t.Parallel()
	a := setupMedia(t)
	mine := a.upload(t, pngBytes(t, 4, 3, false), "image/png")

	ctx := context.Background()
	bSess, err := a.svc.Signup(ctx, app.SignupParams{Email: "bob-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com", Password: "a long enough password", FirstName: "Bob"})
	require.NoError(t, err)
	bp, err := a.svc.AuthenticateSession(ctx, bSess.User.ID, *bSess.CurrentOrganizationID, bSess.Generation)
	require.NoError(t, err)
	data := pngBytes(t, 9, 9, false)
	theirs, err := a.svc.CreateUpload(app.WithPrincipal(ctx, bp), nil, bytes.NewReader(data), int64(len(data)), "image/png", "")
	require.NoError(t, err)

	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/media/" + theirs.ID + "/delete"},
		{http.MethodPost, "/media/" + theirs.ID + "/delete"},
		{http.MethodGet, "/media/delete?ids=" + theirs.ID},
		{http.MethodPost, "/media/delete?ids=" + theirs.ID},
		{http.MethodPost, "/media/delete?ids=" + mine.ID + "&ids=" + theirs.ID},
	} {
		var rec *httptest.ResponseRecorder
		if tc.method == http.MethodGet {
			rec = a.get(t, tc.path)
		} else {
			rec = a.post(t, tc.path, nil)
		}
		require.Equal(t, http.StatusNotFound, rec.Code, tc.method+" "+tc.path)
		require.Equal(t, 1, parse(t, rec).Find(`[data-testid="not-found"]`).Length(), tc.path)
	}
	// Nothing was deleted, and A's library shows only A's upload.
	_, err = a.svc.GetUpload(app.WithPrincipal(ctx, bp), theirs.ID)
	require.NoError(t, err)
	_, err = a.svc.GetUpload(a.ctx(t), mine.ID)
	require.NoError(t, err)
	doc := parse(t, a.get(t, "/media"))
	require.Equal(t, 1, doc.Find(`[data-testid="media-tile"]`).Length())
	require.Equal(t, 0, doc.Find(`[data-upload-id="`+theirs.ID+`"]`).Length())
	require.Equal(t, 0, parse(t, a.get(t, "/media/picker")).Find(`[data-upload-id="`+theirs.ID+`"]`).Length())
}

func TestMediaPicker(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)

	rec := b.get(t, "/media/picker", "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotContains(t, rec.Body.String(), "<html")
	require.Contains(t, parse(t, rec).Find(`[data-testid="empty-state"]`).Text(), "Your library is empty")

	one := b.upload(t, pngBytes(t, 4, 3, false), "image/png")
	two := b.upload(t, pngBytes(t, 3, 4, false), "image/png")

	// Checkboxes named as the form wants, the chosen ones checked; no delete controls.
	rec = b.get(t, "/media/picker?name=mediaIds&multiple=1&selected="+one.ID, "HX-Request", "true")
	doc := parse(t, rec)
	require.Equal(t, 1, doc.Find(`[data-testid="media-picker"]`).Length())
	inputs := doc.Find(`input[name="mediaIds"]`)
	require.Equal(t, 2, inputs.Length())
	require.Equal(t, "checkbox", inputs.AttrOr("type", ""))
	_, checked := doc.Find(`input[value="` + one.ID + `"]`).Attr("checked")
	require.True(t, checked)
	_, checked = doc.Find(`input[value="` + two.ID + `"]`).Attr("checked")
	require.False(t, checked)
	require.Equal(t, 0, doc.Find(`[data-testid="media-delete"], [data-testid="media-delete-selected"]`).Length())
	require.Equal(t, "#media-picker-results", doc.Find(`[data-testid="media-filters"]`).AttrOr("hx-target", ""))
	require.Equal(t, "mediaIds", doc.Find(`[data-testid="media-filters"] input[name="name"]`).AttrOr("value", ""))
	_, pushes := doc.Find(`[data-testid="media-filters"]`).Attr("hx-push-url")
	require.False(t, pushes)

	// One choice: radios. The picker's own filters swap its results only.
	doc = parse(t, b.get(t, "/media/picker", "HX-Request", "true"))
	require.Equal(t, "radio", doc.Find(`input[name="uploadIds"]`).AttrOr("type", ""))
	rec = b.get(t, "/media/picker?type=video", hx("media-picker-results")...)
	require.True(t, strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="media-picker-results"`))
	require.Contains(t, rec.Body.String(), "No media matches these filters")

	// A direct visit is a page.
	doc = parse(t, b.get(t, "/media/picker"))
	require.Equal(t, "Choose media · Crier", doc.Find("title").Text())
	require.Equal(t, 2, doc.Find(`[data-testid="media-tile"]`).Length())
}

// The large-file flow media.js follows: init through the dashboard, PUT each part to its signed
// URL, a failed part sent again with a fresh URL, then complete.
func TestMediaMultipartUpload(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	data := pngBytes(t, 1400, 1400, true) // ≈ 5.6 MB: two parts of 5 MiB
	require.Greater(t, len(data), 5<<20)

	rec, init := b.postJSON(t, "/media/multipart/init", map[string]any{"mimeType": "image/png", "fileSize": len(data)})
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	partSize := int(init["partSize"].(float64))
	parts := init["parts"].([]any)
	require.Len(t, parts, 2)
	put := func(rawURL string, body []byte) *httptest.ResponseRecorder {
		u, err := url.Parse(rawURL)
		require.NoError(t, err)
		req := httptest.NewRequest(http.MethodPut, u.RequestURI(), bytes.NewReader(body))
		rec := httptest.NewRecorder()
		b.e.ServeHTTP(rec, req)
		return rec
	}
	urlOf := func(p any) string { return p.(map[string]any)["url"].(string) }

	r1 := put(urlOf(parts[0]), data[:partSize])
	require.Equal(t, http.StatusOK, r1.Code, r1.Body.String())
	// Part 2 "fails" (a tampered URL is refused); media.js signs it again and resends.
	require.NotEqual(t, http.StatusOK, put(urlOf(parts[1])+"x", data[partSize:]).Code)
	rec, signed := b.postJSON(t, "/media/multipart/sign", map[string]any{"path": init["path"], "uploadId": init["uploadId"], "partNumbers": []int{2}})
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	r2 := put(urlOf(signed["parts"].([]any)[0]), data[partSize:])
	require.Equal(t, http.StatusOK, r2.Code, r2.Body.String())

	rec, done := b.postJSON(t, "/media/multipart/complete", map[string]any{"path": init["path"], "uploadId": init["uploadId"],
		"parts": []map[string]any{{"partNumber": 1, "etag": r1.Header().Get("ETag")}, {"partNumber": 2, "etag": r2.Header().Get("ETag")}}})
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	id := done["id"].(string)

	doc := parse(t, b.get(t, "/media"))
	tile := doc.Find(`[data-upload-id="` + id + `"]`)
	require.Equal(t, "1400 × 1400", tile.Find(`[data-testid="media-dimensions"]`).Text())
	require.Regexp(t, `^5\.\d MB$`, tile.Find(`[data-testid="media-size"]`).Text())

	// Refusals come back as JSON messages.
	_, out := b.postJSON(t, "/media/multipart/init", map[string]any{"mimeType": "text/plain", "fileSize": 10})
	require.Equal(t, float64(http.StatusBadRequest), out["status"])
	require.Contains(t, out["error"], "Invalid enum value")
	_, out = b.postJSON(t, "/media/multipart/abort", map[string]any{"path": "nope", "uploadId": "nope"})
	require.Equal(t, float64(http.StatusNotFound), out["status"])
}

func TestMediaVideoAndPDFTiles(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	video := b.upload(t, mediatest.Fixture(t, "sample.mp4"), "video/mp4")
	pdf := b.upload(t, mediatest.Fixture(t, "sample.pdf"), "application/pdf")

	doc := parse(t, b.get(t, "/media"))
	v := doc.Find(`[data-upload-id="` + video.ID + `"]`)
	require.Equal(t, "MP4 video", v.Find(`[data-testid="media-type"]`).Text())
	require.Regexp(t, `^\d+:\d\d$`, v.Find(`[data-testid="media-duration"]`).Text())
	require.NotEmpty(t, v.Find(`[data-testid="media-dimensions"]`).Text())
	if video.ThumbnailURL == nil { // no ffmpeg: the video's icon
		require.Equal(t, 1, v.Find(".media-tile__icon--video").Length())
	}
	d := doc.Find(`[data-upload-id="` + pdf.ID + `"]`)
	require.Equal(t, "PDF document", d.Find(`[data-testid="media-type"]`).Text())
	require.Equal(t, 0, d.Find("img").Length())
	require.Equal(t, "PDF", d.Find(".media-tile__ext").Text())
	require.Equal(t, 0, d.Find(`[data-testid="media-dimensions"]`).Length())
	require.Contains(t, d.Find("label").Text(), "Select PDF document")

	only := func(q, id string) {
		t.Helper()
		doc := parse(t, b.get(t, "/media?"+q, hx("media-results")...))
		require.Equal(t, 1, doc.Find(`[data-testid="media-tile"]`).Length(), q)
		require.Equal(t, 1, doc.Find(`[data-upload-id="`+id+`"]`).Length(), q)
	}
	only("type=video", video.ID)
	only("type=document", pdf.ID)
}
