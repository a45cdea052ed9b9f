package web

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/layout"
	mediaview "github.com/crier/crier/views/pages/media"
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
)

// mediaShell is the frame of a media page: the shell plus the dialogs' script and media.js.
func (h *Handler) mediaShell(c echo.Context, title string) layout.Shell {
	s := h.shell(c, areaMedia, title)
	s.Scripts = append(s.Scripts, assetURL("js/organization.js"), assetURL("js/media.js"))
	return s
}

// mediaFilters reads the grid's filters from the query (unknown values filter nothing).
func mediaFilters(c echo.Context) mediaview.Filters {
	f := mediaview.Filters{Team: strings.TrimSpace(c.QueryParam("teamId")), Search: strings.TrimSpace(c.QueryParam("q"))}
	if s := c.QueryParam("sort"); slices.Contains(app.UploadSorts, s) && s != app.UploadSorts[0] {
		f.Sort = s
	}
	if utf8.RuneCountInString(f.Search) > app.MaxUploadName {
		f.Search = string([]rune(f.Search)[:app.MaxUploadName]) // no name is longer
	}
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
		return withQuery(pathMediaPicker, "name", name, "multiple", m, "q", f.Search, "type", f.Type, "status", f.Status, "teamId", f.Team, "sort", f.Sort, "page", strconv.Itoa(p))
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
		return withQuery(pathMedia, "q", f.Search, "type", f.Type, "status", f.Status, "teamId", f.Team, "sort", f.Sort, "page", strconv.Itoa(p))
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
			Accept:    mediaAccept(),
			Accepted:  mediaAccepted(),
		},
	}, nil
}

// mediaItems is page n of the uploads matching f, and whether a next page exists. A team that is
// not the organization's is 404.
func (h *Handler) mediaItems(c echo.Context, f mediaview.Filters, n int) ([]mediaview.Item, bool, error) {
	uf := app.LibraryFilter{UploadFilter: app.UploadFilter{Status: f.Status, IncludePosts: true}, Search: f.Search, Sort: f.Sort}
	if f.Type != "" {
		uf.Types = []string{f.Type}
	}
	if f.Team != "" {
		uf.TeamID = &f.Team
	}
	p := servicePage(n, mediaPageSize)
	p.Limit++ // one more tells whether a next page exists
	list, err := h.svc.ListUploadLibrary(c.Request().Context(), uf, p)
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
		Rename:    idURL(pathMedia, u.ID, suffixName),
	}
	if u.Name != nil {
		it.Name = *u.Name
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
	"image/png": "PNG image", "image/jpeg": "JPEG image", "image/gif": "GIF image",
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
