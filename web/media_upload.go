package web

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	mediaview "github.com/crier/crier/views/pages/media"
)

// Uploads into the media library: one POST for small files (or without JavaScript), signed parts
// straight to storage for large ones; refusals answer JSON to media.js and a page otherwise.

// refusalText says a Service refusal plainly: the validation issues' own messages (they name the
// file's problem), else the error's message.
func refusalText(err error) string {
	if app.ErrorCode(err) == app.EInvalid {
		var msgs []string
		for _, is := range app.ErrorIssues(err) {
			msgs = append(msgs, is.Message)
		}
		if len(msgs) > 0 {
			return strings.Join(msgs, ". ")
		}
	}
	return app.ErrorMessage(err)
}

// wantsJSON reports whether the request came from media.js (which asks for JSON answers).
func wantsJSON(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
}

// jsonError answers a refusal to media.js: 200 with the message to show under "error" (as the
// dashboard's refused forms answer 200 to htmx: the refusal is an answer, not a failure, and the
// browser does not log it as a failed request), and the status the API would answer under "status".
func jsonError(c echo.Context, err error) error {
	if !refusalOrLimit(err) {
		return err
	}
	status := http.StatusBadRequest
	switch app.ErrorCode(err) {
	case app.EForbidden:
		status = http.StatusForbidden
	case app.ENotFound:
		status = http.StatusNotFound
	case app.EConflict:
		status = http.StatusConflict
	case app.ERateLimited:
		status = http.StatusTooManyRequests
	}
	return c.JSON(http.StatusOK, map[string]any{"error": refusalText(err), "status": status})
}

func optionalTeam(v string) *string {
	if v = strings.TrimSpace(v); v == "" {
		return nil
	}
	return &v
}

// mediaUpload serves POST /media/upload (multipart form: file, optional teamId): files up to
// mediaDirectMax from media.js (JSON answer), or any file from the form without JavaScript.
func (h *Handler) mediaUpload(c echo.Context) error {
	ctx := c.Request().Context()
	team := optionalTeam(c.FormValue("teamId"))
	form, err := c.MultipartForm()
	var files []*multipart.FileHeader
	if err == nil {
		files = form.File["file"]
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return err // the body limit
	}
	if len(files) == 0 {
		err := app.Invalid("Validation failed: file: Required", app.Issue{Code: app.IssueCustom, Message: "Choose a file to upload", Path: []any{"file"}})
		return h.uploadRefused(c, err)
	}
	var ids []string
	for _, fh := range files {
		f, err := fh.Open()
		if err != nil {
			return fmt.Errorf("web: media upload: %w", err)
		}
		u, err := h.svc.CreateUpload(ctx, team, f, fh.Size, fh.Header.Get(echo.HeaderContentType), fh.Filename)
		_ = f.Close()
		if err != nil {
			return h.uploadRefused(c, err)
		}
		ids = append(ids, u.ID)
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, map[string]any{"id": ids[0], "ids": ids})
	}
	msg := "File uploaded."
	if len(ids) > 1 {
		msg = strconv.Itoa(len(ids)) + " files uploaded."
	}
	return flashRedirect(c, msg, pathMedia)
}

// uploadRefused answers a refused upload: JSON to media.js, else the page with the reason.
func (h *Handler) uploadRefused(c echo.Context, err error) error {
	if wantsJSON(c) {
		return jsonError(c, err)
	}
	if !refusalOrLimit(err) {
		return err
	}
	d, lerr := h.mediaLibrary(c, mediaview.Filters{}, 1)
	if lerr != nil {
		return lerr
	}
	d.Upload.Message = refusalText(err)
	return h.renderMedia(c, http.StatusUnprocessableEntity, d)
}

// mediaMultipartInit serves POST /media/multipart/init (JSON: fileName, mimeType, fileSize, teamId): the
// upload id, the part size and a signed URL for every part.
func (h *Handler) mediaMultipartInit(c echo.Context) error {
	var in struct {
		FileName string `json:"fileName"`
		MimeType string `json:"mimeType"`
		FileSize int64  `json:"fileSize"`
		TeamID   string `json:"teamId"`
	}
	if err := c.Bind(&in); err != nil {
		return err
	}
	m, err := h.svc.InitMultipartUpload(c.Request().Context(), optionalTeam(in.TeamID), in.FileName, in.MimeType, in.FileSize)
	if err != nil {
		return jsonError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"uploadId": m.UploadID, "path": m.Path, "partSize": m.PartSize, "parts": partURLs(m.Parts)})
}

type partURL struct {
	PartNumber int    `json:"partNumber"`
	URL        string `json:"url"`
}

func partURLs(parts []app.PartURL) []partURL {
	out := make([]partURL, 0, len(parts))
	for _, p := range parts {
		out = append(out, partURL{p.PartNumber, p.URL})
	}
	return out
}

// mediaMultipartSign serves POST /media/multipart/sign (JSON: path, uploadId, partNumbers): fresh
// URLs for parts to send again.
func (h *Handler) mediaMultipartSign(c echo.Context) error {
	var in struct {
		Path        string `json:"path"`
		UploadID    string `json:"uploadId"`
		PartNumbers []int  `json:"partNumbers"`
	}
	if err := c.Bind(&in); err != nil {
		return err
	}
	parts, err := h.svc.SignMultipartParts(c.Request().Context(), in.Path, in.UploadID, in.PartNumbers)
	if err != nil {
		return jsonError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"parts": partURLs(parts)})
}

// mediaMultipartComplete serves POST /media/multipart/complete (JSON: path, uploadId, teamId,
// parts with their ETags): the upload.
func (h *Handler) mediaMultipartComplete(c echo.Context) error {
	var in struct {
		Path     string `json:"path"`
		UploadID string `json:"uploadId"`
		TeamID   string `json:"teamId"`
		Parts    []struct {
			PartNumber int    `json:"partNumber"`
			ETag       string `json:"etag"`
		} `json:"parts"`
	}
	if err := c.Bind(&in); err != nil {
		return err
	}
	parts := make([]app.UploadPart, 0, len(in.Parts))
	for _, p := range in.Parts {
		parts = append(parts, app.UploadPart{Number: p.PartNumber, ETag: p.ETag})
	}
	u, err := h.svc.CompleteMultipartUpload(c.Request().Context(), optionalTeam(in.TeamID), in.Path, in.UploadID, parts)
	if err != nil {
		return jsonError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"id": u.ID})
}

// mediaMultipartAbort serves POST /media/multipart/abort (JSON: path, uploadId).
func (h *Handler) mediaMultipartAbort(c echo.Context) error {
	var in struct {
		Path     string `json:"path"`
		UploadID string `json:"uploadId"`
	}
	if err := c.Bind(&in); err != nil {
		return err
	}
	if err := h.svc.AbortMultipartUpload(c.Request().Context(), in.Path, in.UploadID); err != nil {
		return jsonError(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}
