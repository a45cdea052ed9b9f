package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// composerConvert serves POST /composer/convert (the form, and convert: the ids of PNG uploads a
// network takes only as JPEG): each gets a JPEG copy in the library, which takes its place in
// every media field of the form, and the composer comes back with the checks of the form as it now
// is. Nothing is saved.
func (h *Handler) composerConvert(c echo.Context) error {
	ctx := c.Request().Context()
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	var cur *app.Post
	if id := vals.Get("postId"); id != "" {
		if cur, err = h.pub.GetPost(ctx, id); err != nil {
			return pageError(err)
		}
	}
	var message string
	swap := map[string]string{}
	for _, id := range strings.Fields(vals.Get("convert")) {
		u, err := h.svc.ConvertUploadToJPEG(ctx, id)
		switch app.ErrorCode(err) {
		case "":
			swap[id] = u.ID
		case app.EInvalid, app.ENotFound, app.EForbidden, app.ERateLimited:
			message = app.ErrorMessage(err)
		default:
			return err
		}
	}
	vals.Del("convert")
	for k, vs := range vals {
		if strings.HasSuffix(k, "uploadIds") || strings.HasSuffix(k, "uploadId") {
			for i, v := range vs {
				if to, ok := swap[v]; ok {
					vs[i] = to
				}
			}
		}
	}
	in := readComposer(vals, viewerLocation(c))
	if cur != nil {
		in.TeamID = cur.TeamID
	}
	if err := h.liveCheck(c, &in, in.TeamID); err != nil {
		return err
	}
	d, err := h.composerData(c, in, cur)
	if err != nil {
		return err
	}
	// The form is replaced: a preview still on its way answers for the old one (Rev).
	d.Checked, d.Rev, d.Message = vals.Get("checked"), in.Rev+1, message
	return h.renderComposer(c, http.StatusOK, d)
}
