package web

import (
	"errors"
	"fmt"
	"math"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/layout"
	mediaview "github.com/crier/crier/views/pages/media"
	"github.com/crier/crier/views/pages/settings"
)

// Route names and paths of the media library.
const (
	routeMediaPicker         = "media.picker"
	routeMediaUpload         = "media.upload"
	routeMediaMultipartInit  = "media.multipart.init"
	routeMediaMultipartSign  = "media.multipart.sign"
	routeMediaMultipartDone  = "media.multipart.complete"
	routeMediaMultipartAbort = "media.multipart.abort"
	routeMediaDeleteConfirm  = "media.delete.confirm"
	routeMediaDelete         = "media.delete"
	routeMediaOneConfirm     = "media.one.delete.confirm"
	routeMediaOneDelete      = "media.one.delete"

	pathMedia          = "/media"
	pathMediaPicker    = pathMedia + "/picker"
	pathMediaUpload    = pathMedia + "/upload"
	pathMediaMultipart = pathMedia + "/multipart"
	pathMediaDelete    = pathMedia + "/delete"
	pathMediaOne       = pathMedia + "/:id"

	// mediaPageSize is how many uploads a page of the grid shows.
	mediaPageSize = 24
	// mediaDirectMax: files up to this size are POSTed to the dashboard; larger ones go browser →
	// signed URLs, in parts.
	mediaDirectMax = 16 << 20
	// mediaFormLimit caps the dashboard's upload POST (the Service checks each kind's own limit).
	mediaFormLimit = "128M"
	// headerHXTriggerID is the id of the element that made an htmx request.
	headerHXTriggerID = "HX-Trigger"
	mediaAccept       = "image/png,image/jpeg,image/gif,image/webp,video/mp4,video/quicktime,application/pdf"
)

// registerMedia mounts the media library: uploads with progress, the grid, filters, deletion and
// the picker the composer reuses. The page works without JavaScript (a plain upload form, filter
// and delete forms, confirmation pages); static/js/media.js adds drag and drop, progress bars and
// large files sent in parts straight to storage.
func (h *Handler) registerMedia(e *echo.Echo, signedIn []echo.MiddlewareFunc) {
	e.GET(pathMedia, h.mediaList, signedIn...).Name = areaMedia
	e.GET(pathMediaPicker, h.mediaPicker, signedIn...).Name = routeMediaPicker
	upload := append(append([]echo.MiddlewareFunc{}, signedIn...), middleware.BodyLimit(mediaFormLimit))
	e.POST(pathMediaUpload, h.mediaUpload, upload...).Name = routeMediaUpload
	e.POST(pathMediaMultipart+"/init", h.mediaMultipartInit, signedIn...).Name = routeMediaMultipartInit
	e.POST(pathMediaMultipart+"/sign", h.mediaMultipartSign, signedIn...).Name = routeMediaMultipartSign
	e.POST(pathMediaMultipart+"/complete", h.mediaMultipartComplete, signedIn...).Name = routeMediaMultipartDone
	e.POST(pathMediaMultipart+"/abort", h.mediaMultipartAbort, signedIn...).Name = routeMediaMultipartAbort
	e.GET(pathMediaDelete, h.mediaDeleteConfirm, signedIn...).Name = routeMediaDeleteConfirm
	e.POST(pathMediaDelete, h.mediaDelete, signedIn...).Name = routeMediaDelete
	e.GET(pathMediaOne+suffixDelete, h.mediaOneDeleteConfirm, signedIn...).Name = routeMediaOneConfirm
	e.POST(pathMediaOne+suffixDelete, h.mediaOneDelete, signedIn...).Name = routeMediaOneDelete
}

// mediaShell is the frame of a media page: the shell plus the dialogs' script and media.js.
func (h *Handler) mediaShell(c echo.Context, title string) layout.Shell {
	s := h.shell(c, areaMedia, title)
	s.Scripts = append(s.Scripts, assetURL("js/organization.js"), assetURL("js/media.js"))
	return s
}

// mediaFilters reads the grid's filters from the query (unknown values filter nothing).
func mediaFilters(c echo.Context) mediaview.Filters {
	f := mediaview.Filters{Team: strings.TrimSpace(c.QueryParam("teamId"))}
	switch t := c.QueryParam("type"); t {
	case "image", "video", "document":
		f.Type = t
	}
	switch s := c.QueryParam("status"); s {
	case "USED", "UNUSED":
		f.Status = s
	}
	return f
}

// mediaList serves GET /media: the library, or its grid alone for htmx (filters, paging, reloads).
func (h *Handler) mediaList(c echo.Context) error {
	d, err := h.mediaLibrary(c, mediaFilters(c), pageNumber(c))
	if err != nil {
		return err
	}
	if hxTarget(c) == mediaview.Results {
		if c.Request().Header.Get(headerHXTriggerID) == mediaview.Results+"-filters" {
			// The filters changed: the address bar gets the canonical URL (no empty parameters).
			c.Response().Header().Set("HX-Push-Url", string(d.Grid.Self))
		}
		return render(c, http.StatusOK, mediaview.GridResults(d.Grid), nil)
	}
	return h.renderMedia(c, http.StatusOK, d)
}

func (h *Handler) renderMedia(c echo.Context, status int, d mediaview.Library) error {
	return render(c, status, mediaview.Page(h.mediaShell(c, "Media"), d), mediaview.Content(d))
}

// mediaPicker serves GET /media/picker: the grid in select mode for a form (?name= the inputs'
// name, default "uploadIds"; ?multiple=1 for checkboxes; ?selected= ids already chosen). htmx gets
// the picker (or its results, for its own filters and paging); a visit gets a page holding it.
func (h *Handler) mediaPicker(c echo.Context) error {
	name := c.QueryParam("name")
	if name == "" || len(name) > 64 || strings.ContainsAny(name, "\"'<> ") {
		name = "uploadIds"
	}
	multiple := c.QueryParam("multiple") == "1"
	f := mediaFilters(c)
	n := pageNumber(c)
	items, next, err := h.mediaItems(c, f, n)
	if err != nil {
		return err
	}
	teams, err := h.mediaTeams(c)
	if err != nil {
		return err
	}
	self := func(p int) templ.SafeURL {
		m := ""
		if multiple {
			m = "1"
		}
		return withQuery(pathMediaPicker, "name", name, "multiple", m, "type", f.Type, "status", f.Status, "teamId", f.Team, "page", strconv.Itoa(p))
	}
	g := mediaview.Grid{Items: items, Filters: f, Select: true, Name: name, Multiple: multiple, Page: n,
		Action: templ.SafeURL(pathMediaPicker), Self: self(n), Selected: map[string]bool{}}
	for _, id := range c.QueryParams()["selected"] {
		g.Selected[id] = true
	}
	if n > 1 {
		g.Prev = self(n - 1)
	}
	if next {
		g.Next = self(n + 1)
	}
	if hxTarget(c) == "media-picker-results" {
		return render(c, http.StatusOK, mediaview.PickerResults(g), nil)
	}
	return render(c, http.StatusOK, mediaview.PickerPage(h.mediaShell(c, "Choose media"), g, teams), mediaview.Picker(g, teams))
}

// mediaLibrary builds the library page for filters and a page number.
func (h *Handler) mediaLibrary(c echo.Context, f mediaview.Filters, n int) (mediaview.Library, error) {
	items, next, err := h.mediaItems(c, f, n)
	if err != nil {
		return mediaview.Library{}, err
	}
	teams, err := h.mediaTeams(c)
	if err != nil {
		return mediaview.Library{}, err
	}
	self := func(p int) templ.SafeURL {
		return withQuery(pathMedia, "type", f.Type, "status", f.Status, "teamId", f.Team, "page", strconv.Itoa(p))
	}
	g := mediaview.Grid{Items: items, Filters: f, Page: n, Action: pathMedia, Self: self(n), Delete: pathMediaDelete}
	if n > 1 {
		g.Prev = self(n - 1)
	}
	if next {
		g.Next = self(n + 1)
	}
	return mediaview.Library{
		Grid:  g,
		Teams: teams,
		Upload: mediaview.Upload{
			Action:    pathMediaUpload,
			Init:      pathMediaMultipart + "/init",
			Sign:      pathMediaMultipart + "/sign",
			Complete:  pathMediaMultipart + "/complete",
			Abort:     pathMediaMultipart + "/abort",
			Threshold: mediaDirectMax,
			Accept:    mediaAccept,
		},
	}, nil
}

// mediaItems is page n of the uploads matching f, and whether a next page exists. A team that is
// not the organization's is 404.
func (h *Handler) mediaItems(c echo.Context, f mediaview.Filters, n int) ([]mediaview.Item, bool, error) {
	uf := app.UploadFilter{Status: f.Status, IncludePosts: true}
	if f.Type != "" {
		uf.Types = []string{f.Type}
	}
	if f.Team != "" {
		uf.TeamID = &f.Team
	}
	p := servicePage(n, mediaPageSize)
	p.Limit++ // one more tells whether a next page exists
	list, err := h.svc.ListUploads(c.Request().Context(), uf, p)
	if err != nil {
		return nil, false, pageError(err)
	}
	next := len(list) > mediaPageSize
	if next {
		list = list[:mediaPageSize]
	}
	out := make([]mediaview.Item, 0, len(list))
	for _, u := range list {
		out = append(out, mediaItem(c, u))
	}
	return out, next, nil
}

// mediaTeams are the team choices: none (the whole organization) first, then each team.
func (h *Handler) mediaTeams(c echo.Context) ([]mediaview.Option, error) {
	list, _, err := h.svc.ListTeams(c.Request().Context(), "", app.Page{Limit: app.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	out := []mediaview.Option{{Value: "", Label: "No team"}}
	for _, t := range list {
		out = append(out, mediaview.Option{Value: t.ID, Label: t.Name})
	}
	return out, nil
}

// mediaItem is an upload as the grid shows it.
func mediaItem(c echo.Context, u app.Upload) mediaview.Item {
	it := mediaview.Item{
		ID:        u.ID,
		Kind:      string(u.Type),
		Mime:      u.Mime,
		TypeLabel: typeLabel(u.Mime, u.Ext, string(u.Type)),
		Size:      fileSize(u.FileSize),
		Created:   viewerDay(c, u.CreatedAt),
		Used:      len(u.Posts) > 0,
		Delete:    idURL(pathMedia, u.ID, suffixDelete),
	}
	if u.URL != nil {
		it.URL = *u.URL
	}
	if u.ThumbnailURL != nil {
		it.Thumb = *u.ThumbnailURL
	} else if u.Type == "image" && u.URL != nil {
		it.Thumb = *u.URL
	}
	if u.Width != nil && u.Height != nil {
		it.Dimensions = strconv.Itoa(*u.Width) + " × " + strconv.Itoa(*u.Height)
	}
	if u.VideoLength != nil {
		it.Duration = duration(*u.VideoLength)
	}
	return it
}

var mimeLabels = map[string]string{
	"image/png": "PNG image", "image/jpeg": "JPEG image", "image/gif": "GIF image", "image/webp": "WebP image",
	"video/mp4": "MP4 video", "video/quicktime": "MOV video", "application/pdf": "PDF document",
}

func typeLabel(mime, ext, kind string) string {
	if l, ok := mimeLabels[mime]; ok {
		return l
	}
	return strings.ToUpper(ext) + " " + kind
}

// fileSize says a size for people ("820 KB", "4.2 MB").
func fileSize(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
	case n >= 1<<10:
		return strconv.FormatFloat(math.Round(float64(n)/(1<<10)), 'f', 0, 64) + " KB"
	case n == 1:
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// duration is a video's length as m:ss (h:mm:ss past an hour).
func duration(sec float64) string {
	s := int(math.Round(sec))
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

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

// userError reports whether err is a refusal the user can act on (not a failure of Crier).
func userError(err error) bool {
	switch app.ErrorCode(err) {
	case app.EInvalid, app.EForbidden, app.ENotFound, app.EConflict, app.ERateLimited:
		return true
	}
	return false
}

// wantsJSON reports whether the request came from media.js (which asks for JSON answers).
func wantsJSON(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
}

// jsonError answers a refusal to media.js: 200 with the message to show under "error" (as the
// dashboard's refused forms answer 200 to htmx: the refusal is an answer, not a failure, and the
// browser does not log it as a failed request), and the status the API would answer under "status".
func jsonError(c echo.Context, err error) error {
	if !userError(err) {
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
		u, err := h.svc.CreateUpload(ctx, team, f, fh.Size, fh.Header.Get(echo.HeaderContentType))
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
	if !userError(err) {
		return err
	}
	d, lerr := h.mediaLibrary(c, mediaview.Filters{}, 1)
	if lerr != nil {
		return lerr
	}
	d.Upload.Message = refusalText(err)
	return h.renderMedia(c, http.StatusUnprocessableEntity, d)
}

// mediaMultipartInit serves POST /media/multipart/init (JSON: mimeType, fileSize, teamId): the
// upload id, the part size and a signed URL for every part.
func (h *Handler) mediaMultipartInit(c echo.Context) error {
	var in struct {
		MimeType string `json:"mimeType"`
		FileSize int64  `json:"fileSize"`
		TeamID   string `json:"teamId"`
	}
	if err := c.Bind(&in); err != nil {
		return err
	}
	m, err := h.svc.InitMultipartUpload(c.Request().Context(), optionalTeam(in.TeamID), in.MimeType, in.FileSize)
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

// selectedIDs are the upload ids of a delete: from the query (the confirmation's action) and the
// form (the grid's checkboxes without JavaScript), each once.
func selectedIDs(c echo.Context) []string {
	seen := map[string]bool{}
	var out []string
	add := func(vs []string) {
		for _, v := range vs {
			if v = strings.TrimSpace(v); v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	add(c.QueryParams()["ids"])
	if c.Request().Method == http.MethodPost {
		if err := c.Request().ParseForm(); err == nil {
			add(c.Request().PostForm["ids"])
		}
	}
	return out
}

// mediaSelection loads the uploads of ids; any id that is not one of the organization's is 404.
func (h *Handler) mediaSelection(c echo.Context, ids []string) ([]app.Upload, error) {
	list, err := h.svc.ListUploads(c.Request().Context(), app.UploadFilter{IDs: ids}, app.Page{Limit: app.MaxPageLimit})
	if err != nil {
		return nil, pageError(err)
	}
	if len(list) != len(ids) {
		return nil, echo.NewHTTPError(http.StatusNotFound, "Upload not found")
	}
	return list, nil
}

// mediaDeleteConfirmation asks to delete uploads.
func mediaDeleteConfirmation(c echo.Context, list []app.Upload, action templ.SafeURL) settings.Confirm {
	cf := settings.Confirm{
		ID:     "confirm-delete-media",
		Button: "Delete",
		Action: action,
		Cancel: pathMedia,
		Text:   "They leave the library and storage. Posts already published keep their media. This cannot be undone.",
	}
	if len(list) == 1 {
		it := mediaItem(c, list[0])
		cf.Title = "Delete this " + it.Alt() + "?"
		cf.Text = "It leaves the library and storage. Posts already published keep their media. This cannot be undone."
		cf.Button = "Delete file"
	} else {
		cf.Title = "Delete " + strconv.Itoa(len(list)) + " files?"
		cf.Button = "Delete " + strconv.Itoa(len(list)) + " files"
	}
	return cf
}

func deleteAction(ids []string) templ.SafeURL {
	q := url.Values{"ids": ids}
	return templ.SafeURL(pathMediaDelete + "?" + q.Encode())
}

// mediaDeleteConfirm serves GET /media/delete?ids=…: the confirmation of a multi-select delete.
func (h *Handler) mediaDeleteConfirm(c echo.Context) error {
	ids := selectedIDs(c)
	if len(ids) == 0 {
		return h.nothingSelected(c)
	}
	list, err := h.mediaSelection(c, ids)
	if err != nil {
		return err
	}
	return h.confirmMedia(c, mediaDeleteConfirmation(c, list, deleteAction(ids)))
}

// nothingSelected answers a delete with no upload chosen.
func (h *Handler) nothingSelected(c echo.Context) error {
	cf := settings.Confirm{ID: "confirm-delete-media", Title: "Nothing selected", Icon: "info",
		Text: "Select the files to delete with the checkbox on each one, then choose Delete selected.", Button: "Delete",
		Action: pathMediaDelete, Cancel: pathMedia, Error: "Select at least one file."}
	return h.confirmMedia(c, cf)
}

func (h *Handler) confirmMedia(c echo.Context, cf settings.Confirm) error {
	if isHTMX(c) {
		return render(c, http.StatusOK, settings.ConfirmDialog(cf), nil)
	}
	d := settings.ConfirmPageData{Confirm: cf, Eyebrow: "Media"}
	return render(c, http.StatusOK, settings.ConfirmPage(h.mediaShell(c, cf.Title), d), settings.ConfirmContent(d))
}

// mediaDelete serves POST /media/delete?ids=…: all or none. A refusal (an upload used by a
// scheduled post) stays in the dialog, in words.
func (h *Handler) mediaDelete(c echo.Context) error {
	ids := selectedIDs(c)
	if len(ids) == 0 {
		return h.nothingSelected(c)
	}
	list, err := h.mediaSelection(c, ids)
	if err != nil {
		return err
	}
	return h.deleteMedia(c, list, mediaDeleteConfirmation(c, list, deleteAction(ids)))
}

// mediaOneDeleteConfirm serves GET /media/:id/delete.
func (h *Handler) mediaOneDeleteConfirm(c echo.Context) error {
	u, err := h.svc.GetUpload(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirmMedia(c, mediaDeleteConfirmation(c, []app.Upload{*u}, idURL(pathMedia, u.ID, suffixDelete)))
}

// mediaOneDelete serves POST /media/:id/delete.
func (h *Handler) mediaOneDelete(c echo.Context) error {
	u, err := h.svc.GetUpload(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	list := []app.Upload{*u}
	return h.deleteMedia(c, list, mediaDeleteConfirmation(c, list, idURL(pathMedia, u.ID, suffixDelete)))
}

func (h *Handler) deleteMedia(c echo.Context, list []app.Upload, cf settings.Confirm) error {
	ids := make([]string, len(list))
	names := map[string]string{}
	for i, u := range list {
		ids[i] = u.ID
		names[u.ID] = "the " + mediaItem(c, u).Alt()
	}
	deleted, err := h.svc.DeleteUploads(c.Request().Context(), ids)
	if err != nil {
		if !userError(err) {
			return err
		}
		msg := refusalText(err)
		for id, name := range names { // "Upload <uuid> is used by…" → "The PNG image, 4 × 3 is used by…"
			msg = strings.ReplaceAll(msg, "Upload "+id, capitalize(name))
		}
		cf.Error = msg
		if isHTMX(c) {
			return render(c, http.StatusOK, settings.ConfirmDialog(cf), nil)
		}
		d := settings.ConfirmPageData{Confirm: cf, Eyebrow: "Media"}
		return render(c, http.StatusUnprocessableEntity, settings.ConfirmPage(h.mediaShell(c, cf.Title), d), settings.ConfirmContent(d))
	}
	msg := "File deleted."
	if len(deleted) != 1 {
		msg = strconv.Itoa(len(deleted)) + " files deleted."
	}
	if isHTMX(c) {
		return dialogDone(c, msg, mediaview.ChangedEvent)
	}
	return flashRedirect(c, msg, pathMedia)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
