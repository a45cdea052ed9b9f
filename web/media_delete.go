package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	mediaview "github.com/crier/crier/views/pages/media"
)

// Deleting uploads: a selection or one upload, confirmed first (a dialog to htmx, a page otherwise).

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
func mediaDeleteConfirmation(c echo.Context, list []app.Upload, action templ.SafeURL) components.Confirm {
	cf := components.Confirm{
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
	cf := components.Confirm{ID: "confirm-delete-media", Title: "Nothing selected", Icon: "info",
		Text: "Select the files to delete with the checkbox on each one, then choose Delete selected.", Button: "Delete",
		Action: pathMediaDelete, Cancel: pathMedia, Error: "Select at least one file."}
	return h.confirmMedia(c, cf)
}

func (h *Handler) confirmMedia(c echo.Context, cf components.Confirm) error {
	if isHTMX(c) {
		return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
	}
	d := components.ConfirmPageData{Confirm: cf, Eyebrow: "Media"}
	return render(c, http.StatusOK, layout.ConfirmPage(h.mediaShell(c, cf.Title), d), components.ConfirmContent(d))
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

func (h *Handler) deleteMedia(c echo.Context, list []app.Upload, cf components.Confirm) error {
	ids := make([]string, len(list))
	names := map[string]string{}
	for i, u := range list {
		ids[i] = u.ID
		names[u.ID] = "the " + mediaItem(c, u).Alt()
	}
	deleted, err := h.svc.DeleteUploads(c.Request().Context(), ids)
	if err != nil {
		if !refusalOrLimit(err) {
			return err
		}
		msg := refusalText(err)
		for id, name := range names { // "Upload <uuid> is used by…" → "The PNG image, 4 × 3 is used by…"
			msg = strings.ReplaceAll(msg, "Upload "+id, capitalize(name))
		}
		cf.Error = msg
		if isHTMX(c) {
			return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
		}
		d := components.ConfirmPageData{Confirm: cf, Eyebrow: "Media"}
		return render(c, http.StatusUnprocessableEntity, layout.ConfirmPage(h.mediaShell(c, cf.Title), d), components.ConfirmContent(d))
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
